import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client'
import { Elysia } from 'elysia'
import { CONTRACT_VERSION } from '../../core/version.ts'
import { consume } from '../../core/limits.ts'
import { SCAN_LIMITS } from '../scan/public.ts'
import { request } from '../../tests/helpers.ts'
import { solveChallenge } from '../../tests/support/solve-challenge.ts'
import { clientIp, startWorld, type World } from '../../tests/support/world.ts'
import { mcpPlugin } from './index.ts'
import { ONE_LINE } from './model.ts'

// Fresh per run: on a shared database another test file may hold a measured scan of a fixed host name.
const AUTH_HOST = `auth-mcp-${randomUUID().slice(0, 8)}.test`

const listen = (root: World['handle']['pieces']) =>
  new Elysia().use(mcpPlugin(root)).listen({ port: 0, hostname: '127.0.0.1' })

let world: World
let app: ReturnType<typeof listen>
let endpoint: URL

beforeAll(async () => {
  // AUTH_HOST is an MCP server that demands a bearer token, on a site whose homepage is public.
  world = await startWorld(['blog', 'excellent'], {
    browser: null,
    mcp: [{ name: 'auth-required', hosts: [AUTH_HOST] }],
    start: true,
  })
  app = listen(world.handle.pieces)
  endpoint = new URL(`http://127.0.0.1:${app.server!.port}/api/mcp`)
})
afterAll(async () => {
  await app.stop(true)
  await world.close()
})

/** An SDK client as a distinct caller (its own IP, optionally a key); listing the tools arms output validation. */
async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'agent-readiness-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { 'x-forwarded-for': clientIp(), ...headers } },
    }),
  )
  await client.listTools()
  return client
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult
}

/** A failure's text is the HTTP API's error body as JSON. */
function errorOf(result: CallToolResult): Record<string, unknown> & { code: string } {
  expect(result.isError).toBe(true)
  expect(result.structuredContent).toBeUndefined()
  const [content] = result.content
  if (content?.type !== 'text') throw new Error('expected a text content block')
  return JSON.parse(content.text)
}

function structured<T = Record<string, any>>(result: CallToolResult): T {
  expect(result.isError).toBeFalsy()
  const [content] = result.content
  // The text fallback carries the same JSON for clients that ignore structuredContent.
  expect(content?.type === 'text' ? JSON.parse(content.text) : null).toEqual(result.structuredContent)
  return result.structuredContent as T
}

const post = (path: string, json: unknown, headers: Record<string, string>) =>
  world.handle.app.handle(request(path, { method: 'POST', json, headers }))

describe('MCP server over streamable HTTP (SDK client)', () => {
  test('serverInfo reports the contract version; tools only, no listChanged; every tool has schemas and behaviour hints', async () => {
    const client = await connect()
    expect(client.getServerVersion()).toMatchObject({
      name: 'agent-readiness',
      version: CONTRACT_VERSION,
      title: 'Agent Readiness',
    })
    // A stateless server has no stream to send notifications/tools/list_changed on, so it must not promise them.
    expect(client.getServerCapabilities()).toEqual({ tools: {} })
    expect(client.getInstructions()?.length).toBeGreaterThan(20)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'discover_products',
      'get_feedback',
      'get_journey_run',
      'get_leaderboard',
      'get_score',
      'get_verification_challenge',
      'list_checks',
      'list_journey_intents',
      'run_checks',
      'scan_domain',
      'start_journey_run',
      'submit_check_feedback',
      'submit_feedback',
    ])
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/)
      expect(tool.description!.length).toBeGreaterThanOrEqual(20)
      expect(tool.inputSchema.type).toBe('object')
      expect(tool.outputSchema?.type).toBe('object')
      // readOnlyHint always; a writer says whether it destroys (a missing hint means the spec's least safe default).
      expect(typeof tool.annotations?.readOnlyHint).toBe('boolean')
      if (!tool.annotations?.readOnlyHint) expect(typeof tool.annotations?.destructiveHint).toBe('boolean')
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect({
          tool: tool.name,
          name,
          described: typeof (property as { description?: unknown }).description === 'string',
        }).toMatchObject({ described: true })
      }
    }
    const scanTool = tools.find((tool) => tool.name === 'scan_domain')!
    expect(scanTool.inputSchema.required).toEqual(['url'])
    expect(scanTool.annotations).toEqual({ readOnlyHint: false, destructiveHint: false })
    expect(tools.find((tool) => tool.name === 'get_score')!.annotations).toEqual({
      readOnlyHint: true,
      openWorldHint: false,
    })
    await client.close()
  })

  test('the endpoint is stateless: no session id, GET and DELETE are 405, CORS preflight answered', async () => {
    const headers = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'x-forwarded-for': clientIp(),
    }
    const initialize = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    })
    expect(initialize.status).toBe(200)
    expect(initialize.headers.get('content-type')).toContain('application/json')
    expect(initialize.headers.get('mcp-session-id')).toBeNull()
    expect((await initialize.json()).result.protocolVersion).toBe('2025-11-25')

    const notification = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
    expect(notification.status).toBe(202)

    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(endpoint, {
        method,
        headers: { accept: 'text/event-stream', 'x-forwarded-for': clientIp() },
      })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('POST')
    }
    const preflight = await fetch(endpoint, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Mcp-Protocol-Version')
  })

  test('the endpoint is rate limited per IP (60 per minute)', async () => {
    const headers = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'x-forwarded-for': clientIp(),
    }
    const ping = () =>
      fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) })
    for (let i = 0; i < 60; i++) expect((await ping()).status).toBe(200)
    const denied = await ping()
    expect(denied.status).toBe(429)
    expect(Number(denied.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('scan_domain scans a fixture site and answers the score summary; detail "full" adds the audit report', async () => {
    const client = await connect()
    const result = structured(await call(client, 'scan_domain', { url: 'excellent.test', force: true }))
    expect(result).toMatchObject({
      domain: 'excellent.test',
      contractVersion: CONTRACT_VERSION,
      analysisStatus: 'complete',
      urlKind: 'domain',
      reportUrl: 'http://localhost:3000/site/excellent.test',
      scoreUrl: 'http://localhost:3000/api/score/excellent.test?format=audit',
    })
    expect(result.score).toBeGreaterThan(0)
    expect(result.report).toBeUndefined()
    expect(result.servedFromCache).toBeUndefined()

    // A second call inside the freshness window is served from the stored result.
    const cached = structured(await call(client, 'scan_domain', { url: 'https://excellent.test/', detail: 'full' }))
    expect(cached).toMatchObject({ servedFromCache: true, score: result.score, scannedAt: result.scannedAt })
    expect(cached.report).toMatchObject({
      domain: 'excellent.test',
      score: result.score,
      scoreMax: 100,
      servedFromCache: true,
    })
    expect(cached.report.layers.map((layer: { id: string }) => layer.id)).toEqual([
      'discovery',
      'accessibility',
      'usability',
      'payments',
    ])

    const score = structured(await call(client, 'get_score', { domain: 'excellent.test' }))
    expect(score).toMatchObject({
      domain: 'excellent.test',
      score: result.score,
      grade: result.grade,
      contractVersion: CONTRACT_VERSION,
    })
    expect(score.scoreUrl).toBeUndefined()
    await client.close()
  })

  test('the summary holds the fixes that gain points and every check that costs points, one line each', async () => {
    const client = await connect()
    const summary = structured(await call(client, 'scan_domain', { url: 'blog.test' }))
    const { report } = structured(await call(client, 'get_score', { domain: 'blog.test', detail: 'full' }))
    const checks: { id: string; status: string; bonus?: boolean; details?: string }[] = report.layers.flatMap(
      (layer: { checks: unknown[] }) => layer.checks,
    )
    const costing = checks.filter((check) => ['fail', 'warning', 'error'].includes(check.status) && !check.bonus)
    expect(summary.failing.map((entry: { id: string }) => entry.id)).toEqual(costing.map((check) => check.id))
    expect(summary.failing.length).toBeGreaterThan(0)
    for (const entry of summary.failing) {
      expect(entry.details).not.toContain('\n')
      expect(entry.details.length).toBeLessThanOrEqual(ONE_LINE)
    }
    const bonus = checks
      .filter((check) => ['fail', 'warning', 'error'].includes(check.status) && check.bonus)
      .map((check) => check.id)
    expect(summary.bonusNotMet).toEqual([...new Set(bonus)])
    expect(summary.topFixes.map((fix: { id: string }) => fix.id)).toEqual(
      report.topFixes
        .filter((fix: { estScoreGain: number }) => fix.estScoreGain > 0)
        .slice(0, 5)
        .map((fix: { id: string }) => fix.id),
    )
    expect(summary.topFixes[0].gain).toBe(report.topFixes[0].estScoreGain)
    await client.close()
  })

  test('domain failures are isError results carrying the error body, not protocol errors', async () => {
    const client = await connect()
    const notScanned = errorOf(await call(client, 'get_score', { domain: 'never-scanned.example' }))
    expect(notScanned).toMatchObject({
      code: 'DOMAIN_NOT_SCANNED',
      domain: 'never-scanned.example',
      nextAction: { method: 'POST', endpoint: '/api/scan', body: { url: 'never-scanned.example' } },
    })
    expect(errorOf(await call(client, 'scan_domain', { url: 'not a domain' })).code).toBe('INVALID_DOMAIN')
    const authRequired = {
      code: 'MCP_AUTH_REQUIRED',
      mcpAuthRequired: true,
      mcpUrl: `https://${AUTH_HOST}/mcp`,
      urlKind: 'mcp',
    }
    expect(errorOf(await call(client, 'scan_domain', { url: `https://${AUTH_HOST}/mcp` }))).toMatchObject(authRequired)
    expect(errorOf(await call(client, 'get_score', { domain: AUTH_HOST }))).toMatchObject(authRequired)
    // Schema failures are tool errors too (SEP-1303), so the model can correct its arguments.
    const invalidArgs = await call(client, 'run_checks', { url: 'blog.test', checkIds: ['no-such-check'] })
    expect(invalidArgs.isError).toBe(true)
    expect(invalidArgs.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('checkIds') })
    // An unknown tool is a protocol error: there are no arguments a model could fix.
    await expect(call(client, 'no_such_tool')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: no_such_tool'),
    })
    await client.close()
  })

  test('scan_domain shares the burst with POST /api/scan, both ways', async () => {
    const ip = clientIp()
    const client = await connect({ 'x-forwarded-for': ip })
    for (let i = 0; i < 10; i++) await post('/api/scan', {}, { 'x-forwarded-for': ip })
    const denied = errorOf(await call(client, 'scan_domain', { url: 'blog.test' }))
    expect(denied.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(denied.retry_after_ms).toBeGreaterThan(0)

    const other = clientIp()
    const second = await connect({ 'x-forwarded-for': other })
    for (let i = 0; i < 10; i++) structured(await call(second, 'scan_domain', { url: 'blog.test' }))
    expect((await post('/api/scan', { url: 'blog.test' }, { 'x-forwarded-for': other })).status).toBe(429)
    await Promise.all([client.close(), second.close()])
  })

  test('the daily budget applies to scan_domain; a scan key in Authorization is exempt', async () => {
    const ip = clientIp()
    for (let i = 0; i < 30; i++)
      await consume(world.handle.pieces.store, SCAN_LIMITS.scanDaily, { kind: 'anonymous', ip })
    const anonymous = await connect({ 'x-forwarded-for': ip })
    const denied = errorOf(await call(anonymous, 'scan_domain', { url: 'blog.test', force: true }))
    expect(denied).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retry_after_ms: expect.any(Number) })

    const { key } = await world.handle.pieces.keys.create('scan', 'mcp test')
    const keyed = await connect({ 'x-forwarded-for': ip, authorization: `Bearer ${key}` })
    const result = structured(await call(keyed, 'scan_domain', { url: 'blog.test', force: true }))
    expect(result.domain).toBe('blog.test')
    // An unrecognised key is no error: the caller is anonymous and still out of budget.
    const unknownKey = await connect({ 'x-forwarded-for': ip, authorization: 'Bearer ark_not-a-key' })
    expect(errorOf(await call(unknownKey, 'scan_domain', { url: 'blog.test', force: true })).code).toBe(
      'RATE_LIMIT_EXCEEDED',
    )
    await Promise.all([anonymous.close(), keyed.close(), unknownKey.close()])
  })

  test('run_checks re-runs chosen checks live; list_checks, get_leaderboard and discover_products read our data', async () => {
    const client = await connect()
    const run = structured(
      await call(client, 'run_checks', { url: 'blog.test', checkIds: ['robots-txt', 'robots-txt', 'llms-txt'] }),
    )
    expect(run).toMatchObject({
      contractVersion: CONTRACT_VERSION,
      domain: 'blog.test',
      urlKind: 'domain',
      storedScanUpdated: false,
    })
    expect(run.results.map((entry: { id: string }) => entry.id).sort()).toEqual(['llms-txt', 'robots-txt'])
    for (const entry of run.results) expect(entry.status).not.toBe('pending')

    const catalog = structured(await call(client, 'list_checks', { kind: 'mcp' }))
    expect(catalog.contractVersion).toBe(CONTRACT_VERSION)
    expect(catalog.checks.length).toBeGreaterThan(0)
    for (const check of catalog.checks) expect(check.appliesTo).toContain('mcp')

    structured(await call(client, 'scan_domain', { url: 'blog.test' }))
    const board = structured(await call(client, 'get_leaderboard', { pageSize: 100 }))
    expect(board.items.some((item: { domain: string }) => item.domain === 'blog.test')).toBe(true)
    const found = structured(await call(client, 'discover_products', { intent: 'field notes', limit: 5 }))
    // Other test files may index more sites in a shared database: blog.test has to be among the results.
    expect(found.intent).toBe('field notes')
    expect(found.results.map((result: { domain: string }) => result.domain)).toContain('blog.test')
    await client.close()
  })
})

describe('MCP 2026-07-28 clients (the v2 SDK client, pinned to that revision)', () => {
  async function connectModern(): Promise<ModernClient> {
    const client = new ModernClient(
      { name: 'agent-readiness-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    )
    await client.connect(new ModernTransport(endpoint, { requestInit: { headers: { 'x-forwarded-for': clientIp() } } }))
    return client
  }

  test('server/discover, without initialize, names the revision, the tools capability and our identity', async () => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
        'x-forwarded-for': clientIp(),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const { result } = (await response.json()) as { result: Record<string, any> }
    expect(result.supportedVersions).toEqual(['2026-07-28'])
    expect(Object.keys(result.capabilities)).toContain('tools')
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'agent-readiness',
      version: CONTRACT_VERSION,
    })
  })

  test('the same tools, and their calls, as 2025-era clients get', async () => {
    const [modern, legacy] = await Promise.all([connectModern(), connect()])
    const [modernTools, legacyTools] = await Promise.all([modern.listTools(), legacy.listTools()])
    const shape = (tools: { name: string; annotations?: unknown; inputSchema: { required?: unknown } }[]) =>
      tools
        .map(({ name, annotations, inputSchema }) => ({ name, annotations, required: inputSchema.required }))
        .sort((a, b) => a.name.localeCompare(b.name))
    expect(shape(modernTools.tools)).toEqual(shape(legacyTools.tools))
    const catalog = (await modern.callTool({ name: 'list_checks', arguments: { kind: 'mcp' } })) as CallToolResult
    expect(catalog.isError ?? false).toBe(false)
    expect(catalog.structuredContent).toMatchObject({ contractVersion: CONTRACT_VERSION })
    // A domain failure is a tool result there too, with the HTTP API's error body.
    const failed = (await modern.callTool({
      name: 'get_score',
      arguments: { domain: `never-scanned-${randomUUID().slice(0, 8)}.test` },
    })) as CallToolResult
    expect(errorOf(failed).code).toBe('DOMAIN_NOT_SCANNED')
    await expect(modern.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 })
    expect(modern.getServerCapabilities()).toEqual({ tools: {} })
    await Promise.all([modern.close(), legacy.close()])
  })
})

describe('agent verification round trip (SDK client)', () => {
  test('challenge, solve, submit check feedback; the token is refused a second time; a wrong answer is refused', async () => {
    const client = await connect()
    const scanned = structured(await call(client, 'scan_domain', { url: 'blog.test' }))
    const checkId: string = scanned.failing[0].id
    const report = {
      domain: 'blog.test',
      checkId,
      reason: 'false_fail',
      message: 'The file is there.',
      agentId: 'mcp-test-agent/1.0',
    }

    const issued = structured(await call(client, 'get_verification_challenge'))
    expect(Date.parse(issued.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000)
    const answer = solveChallenge(issued.challenge.data)
    const accepted = structured(
      await call(client, 'submit_check_feedback', {
        ...report,
        verificationToken: issued.token,
        verificationAnswer: answer,
      }),
    )
    expect(accepted).toEqual({ ok: true, id: expect.any(Number) })

    const replayed = errorOf(
      await call(client, 'submit_check_feedback', {
        ...report,
        verificationToken: issued.token,
        verificationAnswer: answer,
      }),
    )
    expect(replayed).toMatchObject({ code: 'AGENT_VERIFICATION_FAILED', details: { reason: 'replayed' } })

    const fresh = structured(await call(client, 'get_verification_challenge'))
    const wrong = errorOf(
      await call(client, 'submit_check_feedback', {
        ...report,
        verificationToken: fresh.token,
        verificationAnswer: 'not:the:answer:x',
      }),
    )
    // AGENT_VERIFICATION_FAILED is the HTTP API's 401.
    expect(wrong).toMatchObject({ code: 'AGENT_VERIFICATION_FAILED', details: { reason: 'mismatch' } })
    await client.close()
  })

  test('submit_feedback stores an AgentFeedback (legacy stage keys mapped); get_feedback lists it with stats', async () => {
    const client = await connect()
    const issued = structured(await call(client, 'get_verification_challenge'))
    const stored = structured(
      await call(client, 'submit_feedback', {
        domain: 'https://excellent.test/pricing',
        agent_id: 'mcp-test-agent/1.0',
        user_intent: 'Compare the plans',
        task_description: 'Read the pricing page and the API docs',
        outcome: 'success',
        content: 'Prices were machine-readable.',
        friction_points: ['no markdown version of the docs'],
        recommendation: 'recommend',
        layer_scores: { discovery: 5, integration: 4 },
        verificationToken: issued.token,
        verificationAnswer: solveChallenge(issued.challenge.data),
      }),
    )
    expect(stored).toMatchObject({
      domain: 'excellent.test',
      outcome: 'success',
      layer_scores: { discovery: 5, access: 4 },
    })

    const read = structured(await call(client, 'get_feedback', { domain: 'excellent.test', limit: 5 }))
    expect(read).toMatchObject({ domain: 'excellent.test', limit: 5, offset: 0 })
    expect(read.items[0].id).toBe(stored.id)
    expect(read.stats).toMatchObject({
      domain: 'excellent.test',
      total: read.total,
      outcomes: { success: expect.any(Number) },
    })

    const unverified = errorOf(
      await call(client, 'submit_feedback', {
        ...stored,
        verificationToken: issued.token,
        verificationAnswer: 'wrong',
      }),
    )
    expect(unverified.code).toBe('AGENT_VERIFICATION_FAILED')
    await client.close()
  })
})

describe('journey tools', () => {
  test('list the intents, start a run, and read it until the verdict', async () => {
    const client = await connect()
    const { intents } = structured(await call(client, 'list_journey_intents'))
    expect(intents.map((intent: { id: string }) => intent.id)).toContain('find-pricing')

    const started = structured(
      await call(client, 'start_journey_run', { intent_id: 'find-pricing', domain: 'excellent.test' }),
    )
    expect(started).toMatchObject({
      status: 'queued',
      intent_id: 'find-pricing',
      domain: 'excellent.test',
      intent: { id: 'find-pricing' },
      contractVersion: CONTRACT_VERSION,
    })
    let run = started
    for (let polls = 0; run.status !== 'completed' && run.status !== 'failed' && polls < 300; polls++) {
      await Bun.sleep(100)
      run = structured(await call(client, 'get_journey_run', { id: started.id }))
    }
    expect(run).toMatchObject({ status: 'completed', verdict: { outcome: 'success' }, agent: { id: 'deterministic' } })
    expect(run.steps.length).toBe(run.step_count)

    expect(errorOf(await call(client, 'get_journey_run', { id: 'jr_unknown' })).code).toBe('NOT_FOUND')
    expect(
      errorOf(await call(client, 'start_journey_run', { intent_id: 'no-such-intent', domain: 'excellent.test' })).code,
    ).toBe('VALIDATION_FAILED')
    await client.close()
  })
})
