import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startServerEverything } from '../../../tests/fixtures/mcp/everything.ts'
import {
  type McpFixture,
  type McpFixtureName,
  resolveRules,
  startMcpFixtures,
} from '../../../tests/fixtures/mcp/server.ts'
import { loadConfig } from '../../config.ts'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import { CollectorError, type CollectorContext } from '../check.ts'
import { embeddedMcpUrls } from '../detect.ts'
import { type McpExchange, type McpServerArtifact, mcpCollector } from './mcp.ts'

const NAMES: McpFixtureName[] = [
  'well-made',
  'sloppy',
  'auth-required',
  'mcp-app',
  'mcp-app-broken',
  'modern',
  'modern-sdk',
  'sse-only',
]
let fixtures: Record<string, McpFixture> = {}
let everything: Awaited<ReturnType<typeof startServerEverything>>

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} tool, for the tests.`,
  inputSchema: { type: 'object' },
  ...extra,
})
const readOnly = { annotations: { readOnlyHint: true } }

/** Pages of tools/list per path: a cursor that loops, a chain that never ends, SSE streams that never close. */
const PAGES: Record<string, (cursor: unknown) => { tools: unknown[]; nextCursor?: string }> = {
  '/loop/mcp': (cursor) =>
    cursor === undefined
      ? { tools: [tool('safe', readOnly), tool('unsafe', { annotations: { readOnlyHint: false } })], nextCursor: 'c1' }
      : {
          tools: [
            tool('unsafe', { annotations: { readOnlyHint: false } }),
            tool('plain'),
            tool('needs_args', {
              ...readOnly,
              inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
            }),
          ],
          nextCursor: 'c1',
        },
  '/endless/mcp': (cursor) => {
    const page = Number(cursor ?? 0)
    return { tools: [tool(`t${page}`)], nextCursor: String(page + 1) }
  },
  '/open-sse/mcp': () => ({ tools: [tool('one', readOnly)] }),
  '/bad-sse/mcp': () => ({ tools: [] }),
}

/** What the SSE paths send before the answer: a priming event (an id, empty data) is fine, non-JSON data is not. */
const SSE_PREFIX: Record<string, string> = {
  '/open-sse/mcp': 'id: prime-1\ndata:\n\n',
  '/bad-sse/mcp': 'event: message\ndata: not json\n\n',
}

/** Hand-written misbehaviour the SDK fixtures cannot show: loops, endless chains, open streams, hangs, HTML. */
async function quirkyHandler(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname
  if (path === '/hang/mcp') return new Promise<Response>(() => {})
  if (path === '/html/mcp')
    return new Response('<!doctype html><html><body><h1>Welcome</h1></body></html>', {
      headers: { 'content-type': 'text/html' },
    })
  if (request.method !== 'POST') return new Response(null, { status: 405 })
  const message = (await request.json().catch(() => null)) as {
    id?: string | number
    method: string
    params?: { cursor?: unknown; name?: string }
  } | null
  if (message === null)
    return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }, { status: 400 })
  if (message.id === undefined) return new Response(null, { status: 202 })
  let result: unknown
  if (message.method === 'initialize')
    result = {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'quirky', version: '1.0.0' },
    }
  else if (message.method === 'tools/list') result = PAGES[path]?.(message.params?.cursor)
  else if (message.method === 'tools/call') {
    result = { content: [{ type: 'text', text: 'called' }] }
  } else if (message.method === 'ping') result = {}
  const body =
    result === undefined
      ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
      : { jsonrpc: '2.0', id: message.id, result }
  const prefix = SSE_PREFIX[path]
  if (prefix === undefined) return Response.json(body)
  // The answer, then nothing: the stream stays open, as a server that forgets to close it would leave it.
  const event = new TextEncoder().encode(`${prefix}event: message\ndata: ${JSON.stringify(body)}\n\n`)
  return new Response(new ReadableStream({ start: (controller) => controller.enqueue(event) }), {
    headers: { 'content-type': 'text/event-stream' },
  })
}

const quirky = recordingSite({ otherwise: quirkyHandler })
/** Names of the tools the quirky server was asked to call in this test. */
const calledTools = () =>
  quirky.requests.flatMap((received) => {
    // The collector's conformance probes send malformed JSON on purpose: those are not calls.
    const message = safeJson(received.body) as { method?: string; params?: { name?: string } } | null
    return message?.method === 'tools/call' ? [String(message.params?.name)] : []
  })
const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

beforeAll(async () => {
  const [started, server] = await Promise.all([startMcpFixtures(NAMES), startServerEverything()])
  fixtures = Object.fromEntries(started.map((fixture) => [fixture.name, fixture]))
  everything = server
})
afterAll(async () => {
  await Promise.all([...Object.values(fixtures).map((fixture) => fixture.stop()), everything.stop()])
})

function context(url: string, env: Record<string, string> = {}): CollectorContext {
  const config = loadConfig({
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: [
      resolveRules(Object.values(fixtures)),
      everything.resolveRule,
      `quirky.mcp.test:443:127.0.0.1:${new URL(quirky.origin).port}`,
    ].join(','),
    ...env,
  })
  const { host } = new URL(url)
  return collectorContext({
    target: { kind: 'mcp', domain: host, origin: `https://${host}`, url, mcpUrl: url },
    config,
  })
}

const collect = (name: McpFixtureName): Promise<McpServerArtifact> => mcpCollector.collect(context(fixtures[name]!.url))
const errorCode = (exchange: McpExchange | null): number | undefined => exchange?.response?.error?.code

describe('mcp collector: legacy servers through the SDK', () => {
  test('well-made: handshake, session, paginated lists, conformance probes, read-only calls', async () => {
    const mcp = await collect('well-made')
    expect(mcp.era).toBe('legacy')
    expect(mcp.legacySseOnly).toBe(false)
    expect(mcp.requestedVersion).toBe('2025-11-25')
    expect(mcp.handshake?.protocolVersion).toBe('2025-11-25')
    expect(mcp.handshake?.serverInfo).toMatchObject({
      name: 'test.mcp/recipes',
      title: 'Well-Made Recipes',
      version: '2.1.0',
    })
    expect(mcp.handshake?.instructions).toContain('search_recipes')
    // The UI extension is advertised, as a host that renders MCP Apps would.
    expect(mcp.initialize.request.body).toContain('io.modelcontextprotocol/ui')
    expect(mcp.initialize.contentType).toBe('text/event-stream')
    expect(mcp.initialized?.status).toBe(202)
    expect(mcp.sessionId).toMatch(/^[\x21-\x7e]{16,}$/)

    expect(mcp.tools).toMatchObject({ declared: true, pages: 3, cursorLoop: false, duplicatesAcrossPages: [] })
    expect(mcp.tools.items.map((tool) => tool.name)).toEqual([
      'search_recipes',
      'get_recipe',
      'list_cuisines',
      'save_favourite',
      'remove_favourite',
    ])
    expect(mcp.tools.items[0]?.annotations).toMatchObject({ readOnlyHint: true })
    expect(mcp.resources).toMatchObject({ declared: true, pages: 2 })
    expect(mcp.resources.items.map((resource) => resource.uri)).toEqual([
      'recipes://r1',
      'recipes://r2',
      'recipes://r3',
    ])
    expect(mcp.prompts).toMatchObject({ declared: true, pages: 2 })
    expect(mcp.prompts.items).toHaveLength(3)

    expect(mcp.ping?.response).toEqual({ result: {} })
    // server/discover is always probed; a legacy server does not answer it with a result.
    expect(mcp.discover.response?.result).toBeUndefined()
    expect(mcp.discover.request.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    })

    const { probes } = mcp
    expect(probes.bogusVersionHeader.status).toBe(400)
    expect(probes.bogusVersionHeader.request.headers['mcp-protocol-version']).toBe('1999-01-01')
    expect(probes.correctVersionHeader.status).toBe(200)
    expect(probes.correctVersionHeader.request.headers).toMatchObject({
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': mcp.sessionId!,
    })
    expect(errorCode(probes.unknownMethod)).toBe(-32601)
    expect(errorCode(probes.unknownTool)).toBe(-32602)
    expect(errorCode(probes.unknownResource)).toBe(-32002)
    expect(probes.malformedJson.status).toBe(400)
    expect(errorCode(probes.malformedJson)).toBe(-32700)
    expect(errorCode(probes.invalidCursor)).toBe(-32602)
    expect(probes.getStream.status).toBe(405)
    expect(probes.postWithoutAccept.status).toBe(406)
    expect(probes.postWithoutAccept.html).toBe(false)
    expect(probes.withoutSession?.status).toBe(400)
    expect(probes.withoutSession?.request.headers['mcp-session-id']).toBeUndefined()
    expect(probes.withSession?.status).toBe(200)
    expect(probes.deleteSession?.request.method).toBe('DELETE')
    expect(probes.deleteSession?.status).toBe(200)

    // Only list_cuisines is read-only with no required argument; nothing else is ever called.
    expect(mcp.toolCalls.map((call) => call.name)).toEqual(['list_cuisines'])
    expect(mcp.toolCalls[0]?.result?.structuredContent).toMatchObject({ cuisines: expect.any(Array) })
    expect(mcp.uiResources).toEqual([])
    expect(mcp.challenges).toEqual([])
  })

  test('sloppy: malformed tools kept raw, HTTP 500 for unknown methods, a careless transport', async () => {
    const mcp = await collect('sloppy')
    expect(mcp.era).toBe('legacy')
    expect(mcp.initialize.contentType).toBe('application/json')
    expect(mcp.handshake?.instructions).toBeUndefined()
    expect(mcp.tools.items.map((tool) => tool.name)).toEqual(['do stuff', 'lookup', 'lookup', 'fetch_data', 'search'])
    expect(mcp.tools.items[0]?.description).toBeUndefined()
    expect(mcp.tools.items[1]?.inputSchema).toBeNull()
    expect(mcp.tools.items[3]?.inputSchema).toEqual({ type: 'string' })
    expect(mcp.tools.items.every((tool) => tool.annotations === undefined)).toBe(true)
    expect(mcp.probes.unknownMethod).toMatchObject({ status: 500, contentType: 'text/plain' })
    expect(mcp.probes.unknownMethod.response).toBeUndefined()
    expect(mcp.resources.declared).toBe(false)
    expect(mcp.resources.error).toBeDefined()
    expect(mcp.initialized?.status).toBe(200)
    expect(mcp.probes.bogusVersionHeader.status).toBe(200)
    expect(mcp.probes.getStream).toMatchObject({ status: 200, html: true })
    expect(mcp.sessionId).toBe('1')
    expect(mcp.probes.withoutSession?.status).toBe(200)
    expect(mcp.probes.deleteSession?.status).toBe(500)
    expect(mcp.toolCalls).toEqual([])
  })

  test('server-everything: a real server nobody here wrote', async () => {
    const mcp = await mcpCollector.collect(context(everything.url))
    expect(mcp.era).toBe('legacy')
    expect(mcp.handshake?.serverInfo?.name).toBe('mcp-servers/everything')
    expect(mcp.sessionId).not.toBeNull()
    expect(mcp.tools.items.length).toBeGreaterThan(5)
    expect(mcp.tools.error).toBeUndefined()
    expect(mcp.ping?.response).toEqual({ result: {} })
    expect(mcp.probes.withSession?.status).toBe(200)
    expect(mcp.probes.deleteSession?.status).toBe(200)
    expect(mcp.toolCalls.length).toBeGreaterThan(0)
    for (const call of mcp.toolCalls)
      expect(mcp.tools.items.find((tool) => tool.name === call.name)?.annotations?.readOnlyHint).toBe(true)
  })

  test('an HTTP+SSE-only server is reached through the deprecated transport', async () => {
    const mcp = await collect('sse-only')
    expect(mcp.legacySseOnly).toBe(true)
    expect(mcp.era).toBe('legacy')
    expect(mcp.initialize.status).toBe(405)
    expect(mcp.handshake?.serverInfo?.name).toBe('test.mcp/legacy-sse')
    expect(mcp.handshake?.protocolVersion).toBe('2025-11-25')
    expect(mcp.initialized?.status).toBe(202)
    expect(mcp.tools.items.map((tool) => tool.name)).toEqual(['get_time'])
    // Every request and probe went over the session: POSTed to the announced endpoint, answered on the stream.
    expect(mcp.messageUrl).toStartWith('https://sse-only.mcp.test/messages?sessionId=')
    expect(mcp.ping).toMatchObject({ status: 202, response: { result: {} } })
    expect(mcp.discover.response?.error?.code).toBe(-32601)
    expect(mcp.probes.unknownMethod.response?.error?.code).toBe(-32601)
    expect(mcp.probes.malformedJson.status).toBe(400)
    expect(mcp.probes.getStream).toMatchObject({ status: 200, contentType: 'text/event-stream' })
    expect(mcp.toolCalls.map((call) => call.result?.content)).toEqual([
      [{ type: 'text', text: '1970-01-01T00:00:00.000Z' }],
    ])
  })

  test('auth-required: no handshake, the Bearer challenge recorded', async () => {
    const mcp = await collect('auth-required')
    expect(mcp.handshake).toBeNull()
    expect(mcp.initialize.status).toBe(401)
    expect(mcp.handshakeError).toBeDefined()
    expect(mcp.challenges).toContainEqual({
      status: 401,
      header:
        'Bearer resource_metadata="https://auth-required.mcp.test/.well-known/oauth-protected-resource/mcp", scope="notes:read"',
    })
  })
})

describe('mcp collector: 2026-07-28 servers', () => {
  test('modern (hand-written): -32022 on initialize, then discover, _meta and Mcp-Method on every request', async () => {
    const mcp = await collect('modern')
    expect(mcp.era).toBe('modern')
    expect(mcp.requestedVersion).toBe('2026-07-28')
    expect(mcp.initialize.status).toBe(400)
    expect(errorCode(mcp.initialize)).toBe(-32022)
    expect(mcp.initialized).toBeNull()
    expect(mcp.ping).toBeNull()
    expect(mcp.sessionId).toBeNull()
    expect(mcp.handshake).toMatchObject({
      protocolVersion: '2026-07-28',
      serverInfo: { name: 'test.mcp/rates', title: 'Modern Rates' },
    })
    expect(mcp.tools).toMatchObject({ declared: true, pages: 2 })
    expect(mcp.tools.items).toHaveLength(3)
    expect(mcp.resources.items).toHaveLength(1)
    expect(mcp.prompts.items).toHaveLength(1)
    expect(mcp.probes.unknownMethod.status).toBe(404)
    expect(errorCode(mcp.probes.unknownMethod)).toBe(-32601)
    expect(mcp.probes.unknownMethod.request.headers['mcp-method']).toBe('foo/bar')
    expect(
      JSON.parse(mcp.probes.unknownMethod.request.body!).params._meta['io.modelcontextprotocol/protocolVersion'],
    ).toBe('2026-07-28')
    expect(mcp.probes.unknownTool.request.headers['mcp-name']).toBe('agent-readiness-probe-no-such-tool')
    expect(errorCode(mcp.probes.unknownTool)).toBe(-32602)
    expect(errorCode(mcp.probes.unknownResource)).toBe(-32602)
    expect(mcp.probes.bogusVersionHeader.status).toBe(400)
    expect(mcp.probes.correctVersionHeader.status).toBe(200)
    expect(mcp.probes.getStream.status).toBe(405)
    expect(mcp.probes.withoutSession).toBeNull()
    expect(mcp.toolCalls.map((call) => call.name)).toEqual(['list_currencies'])
  })

  test('modern: the 2026-07-28 probes of issue 30 (result envelopes, a mismatching Mcp-Method, a resource read)', async () => {
    const mcp = await collect('modern')
    expect(mcp.tools.envelope).toEqual({ resultType: 'complete', ttlMs: 3_600_000, cacheScope: 'public' })
    expect(mcp.prompts.envelope).toMatchObject({ ttlMs: 3_600_000 })
    const { headerMismatch } = mcp.probes
    expect(headerMismatch.request.headers['mcp-method']).toBe('tools/list')
    expect(JSON.parse(headerMismatch.request.body!).method).toBe('server/discover')
    expect(headerMismatch.status).toBe(400)
    expect(errorCode(headerMismatch)).toBe(-32020)
    expect(JSON.parse(mcp.resourceRead!.request.body!).params.uri).toBe('rates://today')
    expect(mcp.resourceRead!.response?.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' })
    expect(mcp.resourceTemplates!.response?.result).toMatchObject({ resultType: 'complete', cacheScope: 'public' })
  })

  test('a legacy server gets the Mcp-Method probe too, but no modern reads', async () => {
    const mcp = await collect('well-made')
    expect(mcp.probes.headerMismatch.request.headers['mcp-method']).toBe('tools/list')
    expect(mcp.resourceRead).toBeNull()
    expect(mcp.resourceTemplates).toBeNull()
  })

  test('modern-sdk (the v2 SDK, legacy rejected) is scanned fully too', async () => {
    const mcp = await collect('modern-sdk')
    expect(mcp.era).toBe('modern')
    expect(mcp.handshake?.serverInfo?.name).toBe('test.mcp/modern-sdk')
    expect(mcp.tools.items.map((tool) => tool.name)).toEqual(['echo'])
    expect(mcp.probes.unknownMethod.status).toBe(404)
  })
})

describe('mcp collector: MCP Apps', () => {
  test('mcp-app: the ui:// resource read by URI, the extension declared, the UI tool called first', async () => {
    const mcp = await collect('mcp-app')
    expect(mcp.handshake?.capabilities?.extensions).toEqual({ 'io.modelcontextprotocol/ui': {} })
    // The v2 SDK serves both eras: discover answers too.
    expect(mcp.discover.response?.result).toMatchObject({ supportedVersions: ['2026-07-28'] })
    expect(mcp.uiResources).toHaveLength(1)
    const [ui] = mcp.uiResources
    expect(ui?.uri).toBe('ui://weather/forecast.html')
    expect(ui?.toolNames).toEqual(['show_forecast', 'refresh_forecast'])
    expect(ui?.contents[0]).toMatchObject({ uri: 'ui://weather/forecast.html', mimeType: 'text/html;profile=mcp-app' })
    expect(ui?.contents[0]?.text).toStartWith('<!doctype html>')
    expect(ui?.contents[0]?._meta).toMatchObject({ ui: { csp: { resourceDomains: ['https://cdn.weather.example'] } } })
    expect(mcp.toolCalls.map((call) => call.name)).toEqual(['show_forecast'])
    expect(mcp.toolCalls[0]?.result?.content).toEqual([{ type: 'text', text: expect.stringContaining('Lisbon') }])
  })

  test('mcp-app-broken: wrong mime type, an http:// URI and a missing resource are all read and recorded', async () => {
    const mcp = await collect('mcp-app-broken')
    const byUri = Object.fromEntries(mcp.uiResources.map((resource) => [resource.uri, resource]))
    expect(Object.keys(byUri).sort()).toEqual([
      'http://widgets.broken.example/widget.html',
      'ui://broken/missing.html',
      'ui://broken/wrong-type.html',
    ])
    expect(byUri['ui://broken/wrong-type.html']?.contents[0]?.mimeType).toBe('text/html')
    expect(byUri['http://widgets.broken.example/widget.html']?.contents).toHaveLength(1)
    expect(byUri['ui://broken/missing.html']?.read.response?.error).toBeDefined()
    expect(byUri['ui://broken/missing.html']?.contents).toEqual([])
  })
})

describe('mcp collector: bounded against misbehaving servers', () => {
  const quirkyUrl = (path: string) => `https://quirky.mcp.test${path}`

  test('a looping cursor is caught, items repeated across pages named, and only read-only no-argument tools called', async () => {
    const mcp = await mcpCollector.collect(context(quirkyUrl('/loop/mcp')))
    expect(mcp.tools).toMatchObject({ pages: 2, cursorLoop: true, duplicatesAcrossPages: ['unsafe'] })
    expect(mcp.toolCalls.map((call) => call.name)).toEqual(['safe'])
    // What reached the server, not only what the artifact says: the read-only tool, and the probe of a tool that
    // cannot exist (error handling).
    expect(calledTools().sort()).toEqual(['agent-readiness-probe-no-such-tool', 'safe'])
  })

  test('a chain that never ends stops after 20 pages', async () => {
    const mcp = await mcpCollector.collect(context(quirkyUrl('/endless/mcp')))
    expect(mcp.tools).toMatchObject({ pages: 20, truncated: true, cursorLoop: false })
    expect(mcp.tools.items).toHaveLength(20)
  })

  test('an SSE answer whose stream never closes is read up to the response', async () => {
    const started = performance.now()
    const mcp = await mcpCollector.collect(context(quirkyUrl('/open-sse/mcp')))
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(mcp.handshake?.serverInfo?.name).toBe('quirky')
    expect(mcp.initialize.sseMalformed).toBeUndefined()
    expect(mcp.ping?.response).toEqual({ result: {} })
    expect(mcp.tools.items.map((tool) => tool.name)).toEqual(['one'])
  })

  test('SSE data that is not JSON is flagged', async () => {
    const mcp = await mcpCollector.collect(context(quirkyUrl('/bad-sse/mcp')))
    expect(mcp.initialize.sseMalformed).toBe(true)
    expect(mcp.handshake?.serverInfo?.name).toBe('quirky')
  })

  test('a server that never answers costs the exchange timeout, and the artifact says so', async () => {
    const started = performance.now()
    const mcp = await mcpCollector.collect(context(quirkyUrl('/hang/mcp'), { SCANNER_TIMEOUT_MS: '300' }))
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(mcp.handshake).toBeNull()
    expect(mcp.initialize.status).toBeNull()
    expect(mcp.initialize.error).toBeDefined()
    expect(mcp.probes.unknownMethod.status).toBeNull()
    expect(mcp.tools.error).toBeDefined()
  })

  test('an HTML page is recorded as one', async () => {
    const mcp = await mcpCollector.collect(context(quirkyUrl('/html/mcp')))
    expect(mcp.handshake).toBeNull()
    expect(mcp.initialize).toMatchObject({ status: 200, html: true, contentType: 'text/html' })
  })

  test('a target without an MCP endpoint is a collector error', async () => {
    await expect(mcpCollector.collect(collectorContext({ target: localTarget(quirky.origin) }))).rejects.toBeInstanceOf(
      CollectorError,
    )
  })
})

describe('embedded MCP URLs of a listing page', () => {
  test('links and configuration blocks, in document order, deduplicated, only /mcp and /sse paths', () => {
    const html = `<a href="/docs">Docs</a><a href="/docs/mcp">MCP</a>
      <pre>{"url": "https://api.acme.test/v1/mcp"}</pre><a href="https://api.acme.test/v1/mcp">again</a>
      <a href="https://old.acme.test/sse#top">sse</a> see https://x.test/mcp/server-card and https://x.test/mcp.`
    expect(embeddedMcpUrls(html, 'https://catalog.test/servers/acme')).toEqual([
      'https://catalog.test/docs/mcp',
      'https://api.acme.test/v1/mcp',
      'https://old.acme.test/sse',
      'https://x.test/mcp',
    ])
  })
})
