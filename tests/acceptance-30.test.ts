/**
 * Issue 30 acceptance: each rule on fixture servers written independently of the project's own fixtures, the way a
 * third party would publish them (their own field order, extra fields, charset parameters, trailing slashes), scanned
 * in-process as `agent-readiness scan URL --static --allow-private [--mcp URL]` scans them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { createEngine } from '../app/engine.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import type { CliReport } from '../app/cli/report.ts'
import { runCliSource } from './support/cli.ts'
import { testConfig } from './helpers.ts'

type Route = (request: Request, url: URL) => Response | Promise<Response>
type Site = Record<string, Route>

const json = (body: unknown, type = 'application/json', status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { 'content-type': type, 'access-control-allow-origin': '*', ...headers },
  })
const text = (body: string, type = 'text/plain; charset=utf-8', headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': type, ...headers } })
const html = (body: string, headers: Record<string, string> = {}) =>
  text(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme</title>${body}</head><body><main><h1>Acme</h1><p>Docs.</p></main></body></html>`,
    'text/html; charset=utf-8',
    headers,
  )

// ---------------------------------------------------------------- web sites
const HOME = () => html('')
const OWN_KEY = randomBytes(32).toString('base64url')
// RFC 9421 Appendix B.1.4, test-key-ed25519 (public part).
const RFC9421_TEST_KEY = 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs'
const DIRECTORY_TYPE = 'application/http-message-signatures-directory+json'
const directory = (x: string) => ({
  keys: [{ kty: 'OKP', crv: 'Ed25519', x, use: 'sig', nbf: 1767225600 }],
  purpose: 'crawler',
})
const robots = (extra: string) =>
  text(`# robots for acme\nUser-agent: *\nAllow: /\n${extra}\n\nSitemap: https://acme.example/sitemap.xml\n`)

function a2aCard(origin: string, iface: Record<string, unknown>) {
  return {
    name: 'GeoSpatial Route Planner Agent',
    description: 'Provides advanced route planning, traffic analysis, and custom map generation services.',
    supportedInterfaces: [iface],
    provider: { organization: 'Example Geo Services Inc.', url: 'https://www.examplegeoservices.com' },
    version: '1.2.0',
    documentationUrl: `${origin}/docs`,
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: false },
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json', 'image/png'],
    skills: [
      {
        id: 'route-optimizer-traffic',
        name: 'Traffic-Aware Route Optimizer',
        description: 'Calculates the optimal driving route.',
        tags: ['maps', 'routing'],
        examples: ['Plan a route from A to B'],
      },
    ],
  }
}

const SITES: Record<string, (origin: string) => Site> = {
  'llms-h1-only': () => ({
    '/': HOME,
    // A docs team's file: BOM, H1, blockquote summary, prose and links, no H2.
    '/llms.txt': () =>
      text(
        '\uFEFF# Acme Platform\n\n> Acme runs hosted queues for small teams.\n\nStart with these:\n\n- [Quick start](https://acme.example/docs/quickstart.md): first queue in five minutes\n- [API reference](https://acme.example/docs/api.md)\n',
        'text/markdown; charset=UTF-8',
      ),
  }),
  'llms-describedby': (origin) => ({
    '/': () =>
      html(`<link rel="describedby" type="text/markdown" href="/docs/llms.txt">`, {
        link: `<${origin}/docs/llms.txt>; rel="describedby"; type="text/markdown"`,
      }),
    '/docs/llms.txt': () =>
      text('# Acme Docs\n\n> Queues.\n\n## Docs\n\n- [Start](https://acme.example/docs/start.md)\n'),
  }),
  'llms-link-header-only': () => ({
    '/': () => html('', { link: '</static/llms.txt>; rel="describedby"' }),
    '/static/llms.txt': () => text('# Acme\n\n> Queues for teams.\n\n- [Docs](https://acme.example/docs.md)\n'),
  }),
  'llms-redirect': (origin) => ({
    '/': () => new Response(null, { status: 301, headers: { location: `${origin}/en/` } }),
    '/en/': HOME,
    '/en/llms.txt': () =>
      text('# Acme (English)\n\n> Queues for teams.\n\n## Docs\n\n- [Docs](https://acme.example/en/docs.md)\n'),
  }),
  'md-index': () => ({
    '/': HOME,
    '/index.md': () => text('# Acme\n\nQueues for teams.\n', 'text/markdown; charset=utf-8'),
  }),
  'md-index-html': () => ({
    '/': HOME,
    '/index.html.md': () => text('# Acme\n\nQueues for teams.\n', 'text/markdown; charset=utf-8'),
  }),
  'llms-crlf': () => ({
    '/': HOME,
    '/llms.txt': () =>
      text(
        '# Acme Platform\r\n\r\n> Hosted queues.\r\n\r\n- [Quick start](https://acme.example/docs/quickstart.md)\r\n',
        'text/plain',
      ),
  }),
  'llms-describedby-charset': () => ({
    '/': () => html('<link href="/x/llms.txt" type="text/plain; charset=utf-8" rel="describedby">'),
    '/x/llms.txt': () => text('# Acme\n\n> Queues.\n\n- [Docs](https://acme.example/docs.md)\n'),
  }),
  'aipref-group': () => ({
    '/': HOME,
    '/robots.txt': () =>
      text(
        'User-agent: GPTBot\nDisallow: /private/\nContent-Usage: train-ai=n\n\nUser-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\n',
      ),
  }),
  'llms-h1-alone': () => ({ '/': HOME, '/llms.txt': () => text('# Acme Platform\n') }),
  'aipref-scoped-only': () => ({ '/': HOME, '/robots.txt': () => robots('Content-Usage: /docs/ train-ai=n') }),
  'a2a-both-paths': (origin) => {
    const body = () =>
      json(a2aCard(origin, { protocolVersion: '1.0', url: `${origin}/a2a/v1`, protocolBinding: 'GRPC' }))
    return { '/': HOME, '/.well-known/agent-card.json': body, '/.well-known/agent.json': body }
  },
  'aipref-lower-field': () => ({ '/': HOME, '/robots.txt': () => robots('content-usage: search=y, train-ai=n') }),
  'aipref-robots': () => ({
    '/': HOME,
    '/robots.txt': () => robots('Content-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y'),
  }),
  'aipref-header': () => ({ '/': () => html('', { 'content-usage': 'train-ai=n' }) }),
  'aipref-no': () => ({ '/': HOME, '/robots.txt': () => robots('Content-Usage: train-ai=no') }),
  'aipref-case': () => ({ '/': HOME, '/robots.txt': () => robots('Content-Usage: Train-AI=n') }),
  'aipref-unknown': () => ({ '/': HOME, '/robots.txt': () => robots('Content-Usage: train-ai=n, x-summaries=y') }),
  'aipref-dropped': () => ({
    '/': HOME,
    '/robots.txt': () => robots('Content-Usage: train-genai=n, ai-use=n, bots=y'),
  }),
  'wba-good': () => ({
    '/': HOME,
    '/.well-known/http-message-signatures-directory': () =>
      json(directory(OWN_KEY), `${DIRECTORY_TYPE}; charset=utf-8`, 200, { 'cache-control': 'max-age=86400' }),
  }),
  'wba-json': () => ({ '/': HOME, '/.well-known/http-message-signatures-directory': () => json(directory(OWN_KEY)) }),
  'wba-redirect': (origin) => ({
    '/': HOME,
    '/.well-known/http-message-signatures-directory': () =>
      new Response(null, { status: 302, headers: { location: `${origin}/keys.json` } }),
    '/keys.json': () => json(directory(OWN_KEY), DIRECTORY_TYPE),
  }),
  'wba-test-key': () => ({
    '/': HOME,
    '/.well-known/http-message-signatures-directory': () => json(directory(RFC9421_TEST_KEY), DIRECTORY_TYPE),
  }),
  'a2a-good': (origin) => ({
    '/': HOME,
    '/.well-known/agent-card.json': () =>
      json(a2aCard(origin, { url: `${origin}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' })),
  }),
  'a2a-legacy-path': (origin) => ({
    '/': HOME,
    '/.well-known/agent.json': () =>
      json(a2aCard(origin, { url: `${origin}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' })),
  }),
  'a2a-no-binding': (origin) => ({
    '/': HOME,
    '/.well-known/agent-card.json': () => json(a2aCard(origin, { url: `${origin}/a2a/v1`, protocolVersion: '1.0' })),
  }),
  'a2a-no-version': (origin) => ({
    '/': HOME,
    '/.well-known/agent-card.json': () =>
      json(a2aCard(origin, { protocolBinding: 'HTTP+JSON', url: `${origin}/a2a/rest` })),
  }),
}

// ---------------------------------------------------------------- MCP servers
interface McpOptions {
  hints?: boolean
  validateHeader?: boolean
  session?: boolean
  legacyToo?: boolean
  discover?: boolean
  card?:
    | 'reserved'
    | 'deployed'
    | 'well-known'
    | 'legacy'
    | 'dated'
    | 'catalog'
    | 'catalog-json'
    | 'catalog-media-type'
    | 'none'
  sse?: boolean
  /** How a modern-only server turns down the older `initialize`: 400 with a JSON-RPC error (else 200 with -32601). */
  initializeStatus?: number
  legacySession?: boolean
  auth?: 'cimd' | 'dcr-only' | 'no-iss' | 'both' | 'path-issuer'
  app?: 'good' | 'skybridge' | 'listed-html' | 'flat' | 'missing' | 'spaced-mime'
}
const APP_MIME = 'text/html;profile=mcp-app'
const VIEW = 'ui://board/view.html'
const TOKEN = 'acceptance-token'

function card(
  origin: string,
  schema = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
  remote = `${origin}/mcp/`,
) {
  // Keys in a different order than the schema lists them, with extra fields the schema allows.
  return {
    remotes: [{ url: remote, type: 'streamable-http' }],
    version: '2.3.1',
    name: 'example.acme/acme-queues',
    title: 'Acme Queues',
    $schema: schema,
    description: 'Create, inspect and drain Acme queues.',
    websiteUrl: origin,
  }
}

function mcpSite(options: McpOptions): (origin: string) => Site {
  return (origin) => {
    const hints = (result: Record<string, unknown>) =>
      options.hints === false ? result : { ...result, resultType: 'complete', ttlMs: 30_000, cacheScope: 'public' }
    const appMeta =
      options.app === 'flat'
        ? { 'ui/resourceUri': VIEW }
        : { ui: { resourceUri: options.app === 'missing' ? 'ui://board/gone.html' : VIEW } }
    const tools = [
      {
        name: 'list_queues',
        title: 'List queues',
        description: 'Lists every queue in the workspace with its depth and consumer count.',
        inputSchema: {
          type: 'object',
          properties: { prefix: { type: 'string', description: 'Only queues whose name starts with this' } },
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
        ...(options.app ? { _meta: appMeta } : {}),
      },
    ]
    const listMime =
      options.app === 'listed-html'
        ? 'text/html'
        : options.app === 'spaced-mime'
          ? 'text/html; profile=mcp-app'
          : APP_MIME
    const readMime =
      options.app === 'skybridge'
        ? 'text/html+skybridge'
        : options.app === 'spaced-mime'
          ? 'text/html; profile=mcp-app'
          : APP_MIME
    const resources = options.app
      ? [{ uri: VIEW, name: 'board', mimeType: listMime, description: 'Queue board' }]
      : [{ uri: 'acme://queues/readme', name: 'readme', mimeType: 'text/markdown' }]
    const discover = {
      supportedVersions: options.legacyToo ? ['2026-07-28', '2025-11-25'] : ['2026-07-28'],
      serverInfo: { name: 'acme-queues', version: '2.3.1', title: 'Acme Queues' },
      capabilities: { tools: { listChanged: false }, resources: {}, prompts: {} },
      instructions: 'Use list_queues first.',
    }
    const methods: Record<string, (params: Record<string, unknown>) => unknown> = {
      'server/discover': () => hints(discover),
      ping: () => ({}),
      'tools/list': () => hints({ tools }),
      'resources/list': () => hints({ resources }),
      'resources/templates/list': () => hints({ resourceTemplates: [] }),
      'prompts/list': () => hints({ prompts: [] }),
      'resources/read': (params) =>
        params.uri === VIEW || params.uri === 'acme://queues/readme'
          ? hints({
              contents: [
                {
                  uri: params.uri,
                  mimeType: params.uri === VIEW ? readMime : 'text/markdown',
                  text: params.uri === VIEW ? '<!doctype html><html><body>board</body></html>' : '# Queues',
                },
              ],
            })
          : { error: { code: -32002, message: 'Resource not found' } },
      'tools/call': () => hints({ content: [{ type: 'text', text: '[]' }], isError: false }),
    }
    if (options.discover === false) delete methods['server/discover']
    if (options.legacyToo)
      methods.initialize = () => ({
        protocolVersion: '2025-11-25',
        capabilities: discover.capabilities,
        serverInfo: discover.serverInfo,
      })

    const rpc: Route = async (request) => {
      if (options.auth && request.headers.get('authorization') !== `Bearer ${TOKEN}`) {
        return json({ error: 'invalid_token' }, 'application/json', 401, {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="queues:read"`,
        })
      }
      if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } })
      let body: { id?: unknown; method?: string; params?: Record<string, unknown> }
      try {
        body = (await request.json()) as typeof body
      } catch {
        return json(
          { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
          'application/json',
          400,
        )
      }
      const header = request.headers.get('mcp-method')
      if (options.validateHeader !== false && header !== null && header !== body.method) {
        return json(
          {
            jsonrpc: '2.0',
            id: body.id ?? null,
            error: { code: -32020, message: `Mcp-Method ${header} does not match ${body.method}` },
          },
          'application/json',
          400,
        )
      }
      if (body.id === undefined) return new Response(null, { status: 202 })
      const handler = body.method ? methods[body.method] : undefined
      if (body.method === 'initialize' && options.initializeStatus) {
        return json(
          {
            jsonrpc: '2.0',
            id: body.id,
            error: { code: -32602, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } },
          },
          'application/json',
          options.initializeStatus,
        )
      }
      if (!handler)
        return json({
          jsonrpc: '2.0',
          id: body.id,
          error: { code: -32601, message: `Method not found: ${body.method}` },
        })
      const outcome = handler(body.params ?? {}) as Record<string, unknown>
      const extra: Record<string, string> =
        options.session || (options.legacySession && body.method === 'initialize')
          ? { 'mcp-session-id': crypto.randomUUID() }
          : {}
      if (options.sse) {
        const message =
          'error' in outcome && Object.keys(outcome).length === 1
            ? { jsonrpc: '2.0', id: body.id, ...outcome }
            : { jsonrpc: '2.0', id: body.id, result: outcome }
        return new Response(`event: message\nid: 1\ndata: ${JSON.stringify(message)}\n\n`, {
          headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...extra },
        })
      }
      if ('error' in outcome && Object.keys(outcome).length === 1)
        return json({ jsonrpc: '2.0', id: body.id, ...outcome }, 'application/json; charset=utf-8', 200, extra)
      return json({ jsonrpc: '2.0', id: body.id, result: outcome }, 'application/json; charset=utf-8', 200, extra)
    }

    const site: Site = { '/': HOME, '/mcp': rpc, '/mcp/': rpc }
    const kind = options.card ?? 'reserved'
    if (kind === 'reserved')
      site['/mcp/server-card'] = () => json(card(origin), 'application/mcp-server-card+json; charset=utf-8')
    if (kind === 'deployed')
      site['/mcp/server-card'] = () =>
        json(card(origin, undefined, 'https://queues.acme.example/mcp'), 'application/mcp-server-card+json')
    if (kind === 'well-known')
      site['/.well-known/mcp/server-card.json'] = () => json(card(origin), 'application/mcp-server-card+json')
    if (kind === 'legacy')
      site['/.well-known/mcp.json'] = () =>
        json({
          serverInfo: { name: 'acme-queues', version: '2.3.1' },
          transport: { type: 'streamable-http', endpoint: '/mcp' },
          capabilities: { tools: {} },
        })
    if (kind === 'dated')
      site['/mcp/server-card'] = () =>
        json(
          card(origin, 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server-card.schema.json'),
          'application/mcp-server-card+json',
        )
    if (kind.startsWith('catalog')) {
      site['/cards/queues.json'] = () => json(card(origin), 'application/mcp-server-card+json')
      const typeKey = kind === 'catalog-media-type' ? 'mediaType' : 'type'
      // Entries without displayName; the catalog-json variant is served as plain application/json (a SHOULD).
      site['/.well-known/ai-catalog.json'] = () =>
        json(
          {
            specVersion: '1.0',
            host: { displayName: 'Acme' },
            entries: [
              {
                url: `${origin}/cards/queues.json`,
                [typeKey]: 'application/mcp-server-card+json',
                identifier: `urn:air:127.0.0.1:mcp:queues`,
              },
            ],
          },
          kind === 'catalog-json' ? 'application/json' : 'application/ai-catalog+json; charset=utf-8',
        )
    }
    if (options.auth) {
      const issuer = options.auth === 'path-issuer' ? `${origin}/auth` : origin
      site['/.well-known/oauth-protected-resource/mcp'] = () =>
        json({
          resource: `${origin}/mcp`,
          authorization_servers: [issuer],
          scopes_supported: ['queues:read'],
          bearer_methods_supported: ['header'],
        })
      site['/.well-known/oauth-protected-resource'] = site['/.well-known/oauth-protected-resource/mcp']
      site[
        options.auth === 'path-issuer'
          ? '/.well-known/oauth-authorization-server/auth'
          : '/.well-known/oauth-authorization-server'
      ] = () =>
        json({
          issuer,
          authorization_endpoint: `${origin}/oauth/authorize`,
          token_endpoint: `${origin}/oauth/token`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
          scopes_supported: ['queues:read'],
          ...(options.auth === 'dcr-only' || options.auth === 'both'
            ? { registration_endpoint: `${origin}/oauth/register` }
            : {}),
          ...(options.auth === 'dcr-only' ? {} : { client_id_metadata_document_supported: true }),
          ...(options.auth === 'no-iss' ? {} : { authorization_response_iss_parameter_supported: true }),
        })
    }
    return site
  }
}

const MCP_SERVERS: Record<string, { options: McpOptions; slash?: boolean }> = {
  'mcp-modern': { options: {}, slash: true },
  'mcp-modern-plus-legacy': { options: { legacyToo: true } },
  'mcp-careless': { options: { hints: false, validateHeader: false, session: true } },
  'mcp-no-discover': { options: { discover: false } },
  'mcp-sse': { options: { sse: true } },
  'mcp-init-400': { options: { initializeStatus: 400 } },
  'mcp-dual-session': { options: { legacyToo: true, legacySession: true } },
  'card-deployed': { options: { card: 'deployed' } },
  'card-catalog-json': { options: { card: 'catalog-json' } },
  'card-well-known': { options: { card: 'well-known' } },
  'card-legacy': { options: { card: 'legacy' } },
  'card-dated': { options: { card: 'dated' } },
  'card-catalog': { options: { card: 'catalog' } },
  'card-media-type': { options: { card: 'catalog-media-type' } },
  'auth-cimd': { options: { auth: 'cimd' } },
  'auth-dcr': { options: { auth: 'dcr-only' } },
  'auth-no-iss': { options: { auth: 'no-iss' } },
  'auth-both': { options: { auth: 'both' } },
  'auth-path-issuer': { options: { auth: 'path-issuer' } },
  'app-spaced-mime': { options: { app: 'spaced-mime' } },
  'app-good': { options: { app: 'good' } },
  'app-skybridge': { options: { app: 'skybridge' } },
  'app-listed-html': { options: { app: 'listed-html' } },
  'app-flat': { options: { app: 'flat' } },
  'app-missing': { options: { app: 'missing' } },
}

// ---------------------------------------------------------------- harness
const servers: ReturnType<typeof Bun.serve>[] = []
const reports = new Map<string, ScanReport>()
const targets = new Map<string, { origin: string; mcpUrl?: string }>()

function serve(build: (origin: string) => Site): string {
  let routes: Site = {}
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) => {
      const url = new URL(request.url)
      const route = routes[url.pathname]
      return route
        ? route(request, url)
        : new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } })
    },
  })
  servers.push(server)
  const origin = `http://127.0.0.1:${server.port}`
  routes = build(origin)
  return origin
}

beforeAll(async () => {
  const engine = createEngine(testConfig(), { browser: null })
  const jobs: (() => Promise<void>)[] = []
  for (const [name, build] of Object.entries(SITES)) {
    const origin = serve(build)
    targets.set(name, { origin })
    jobs.push(async () => void reports.set(name, await scanUrl(origin, engine, { phase: 'static' })))
  }
  for (const [name, { options, slash }] of Object.entries(MCP_SERVERS)) {
    const origin = serve(mcpSite(options))
    const mcpUrl = `${origin}/mcp${slash ? '/' : ''}`
    targets.set(name, { origin, mcpUrl })
    const mcpHeaders = options.auth ? { authorization: `Bearer ${TOKEN}` } : undefined
    jobs.push(
      async () =>
        void reports.set(
          name,
          await scanUrl(origin, engine, { phase: 'static', mcpUrl, ...(mcpHeaders ? { mcpHeaders } : {}) }),
        ),
    )
  }
  for (let index = 0; index < jobs.length; index += 4)
    await Promise.all(jobs.slice(index, index + 4).map((job) => job()))
}, 170_000)

afterAll(() => {
  for (const server of servers) server.stop(true)
})

function status(fixture: string, id: string): string {
  const row = reports
    .get(fixture)
    ?.layers.flatMap((layer) => layer.checks)
    .find((check) => check.id === id)
  if (!row) return `no ${id}`
  return row.status === 'pass' || row.status === 'na' ? row.status : `${row.status}: ${row.details ?? ''}`.slice(0, 400)
}
const statusOnly = (fixture: string, id: string) => status(fixture, id).split(':')[0] ?? ''

type Rule = [rule: string, fixture: string, check: string, expected: readonly string[]]
const rules = (table: Rule[]) =>
  test.each(table)('%s', (_rule, fixture, check, expected) => {
    // The details ride along so that a failure says why the check decided as it did.
    expect({ got: status(fixture, check), ok: expected.includes(statusOnly(fixture, check)) }).toMatchObject({
      ok: true,
    })
  })

describe('llms.txt v2 (llmstxt.org)', () => {
  rules([
    ['llmstxt.org v2: H1 + summary + links with no H2 (and a BOM) passes', 'llms-h1-only', 'llms-txt', ['pass']],
    [
      'llmstxt.org v2: a file found through rel="describedby" with a root 404 passes or warns, never fails',
      'llms-describedby',
      'llms-txt',
      ['pass', 'warning'],
    ],
    [
      'llmstxt.org v2: a Link rel="describedby" header alone (no type) passes or warns',
      'llms-link-header-only',
      'llms-txt',
      ['pass', 'warning'],
    ],
    [
      'llmstxt.org v2: <homepage path>/llms.txt after a redirect passes or warns',
      'llms-redirect',
      'llms-txt',
      ['pass', 'warning'],
    ],
    ['llmstxt.org v2: an H1 alone is a valid file (never fails)', 'llms-h1-alone', 'llms-txt', ['pass', 'warning']],
    ['llmstxt.org: a file with CRLF line ends served as text/plain passes', 'llms-crlf', 'llms-txt', ['pass']],
    [
      'llmstxt.org v2: an HTML describedby link with a charset parameter on its type passes or warns',
      'llms-describedby-charset',
      'llms-txt',
      ['pass', 'warning'],
    ],
    ['llmstxt.org v2: /index.md for the homepage is a markdown alternate', 'md-index', 'markdown-alternates', ['pass']],
    [
      'llmstxt.org v2: /index.html.md for the homepage is a markdown alternate',
      'md-index-html',
      'markdown-alternates',
      ['pass'],
    ],
  ])
})

describe('MCP server cards and AI catalog (experimental-ext-server-card discovery.md, schema.json)', () => {
  rules([
    [
      'discovery.md: a card at <mcp-url>/server-card (MCP URL with a trailing slash) passes',
      'mcp-modern',
      'mcp-server-card',
      ['pass'],
    ],
    [
      'discovery.md: an AI-catalog entry {identifier,type,url} served as application/json, no displayName: card passes',
      'card-catalog',
      'mcp-server-card',
      ['pass'],
    ],
    ['ai-catalog Catalog Entry: displayName is optional (catalog passes)', 'card-catalog', 'ai-catalog', ['pass']],
    [
      'discovery.md: a card only under /.well-known/mcp/server-card.json warns',
      'card-well-known',
      'mcp-server-card',
      ['warning'],
    ],
    ['discovery.md: the legacy /.well-known/mcp.json warns', 'card-legacy', 'mcp-server-card', ['warning']],
    ['schema.json: a date-versioned $schema fails', 'card-dated', 'mcp-server-card', ['fail']],
    [
      'discovery.md: a card whose remotes name the deployed URL, scanned on 127.0.0.1, passes',
      'card-deployed',
      'mcp-server-card',
      ['pass'],
    ],
    [
      'ai-catalog: a catalog served as application/json warns only for the media type (a SHOULD)',
      'card-catalog-json',
      'ai-catalog',
      ['warning'],
    ],
    [
      'discovery.md: the card behind a catalog served as application/json passes',
      'card-catalog-json',
      'mcp-server-card',
      ['pass'],
    ],
    ['ADR 0014: an entry spelling mediaType instead of type warns', 'card-media-type', 'ai-catalog', ['warning']],
  ])
})

describe('MCP 2026-07-28 (versioning, caching, streamable-http)', () => {
  rules([
    [
      'versioning: a modern-only server answering server/discover passes the handshake',
      'mcp-modern',
      'mcp-initialize',
      ['pass'],
    ],
    ['versioning: server/discover passes', 'mcp-modern', 'mcp-server-discover', ['pass']],
    [
      'versioning: a modern-only server refusing initialize with HTTP 400 passes the handshake',
      'mcp-init-400',
      'mcp-initialize',
      ['pass'],
    ],
    [
      'versioning: a modern-only server refusing initialize with HTTP 400 passes server/discover',
      'mcp-init-400',
      'mcp-server-discover',
      ['pass'],
    ],
    [
      'caching: a modern-only server refusing initialize with HTTP 400 passes cache hints',
      'mcp-init-400',
      'mcp-cache-hints',
      ['pass'],
    ],
    [
      'versioning: a modern server that also accepts the older handshake keeps server/discover passing',
      'mcp-modern-plus-legacy',
      'mcp-server-discover',
      ['pass'],
    ],
    [
      'versioning: a modern server that also accepts the older handshake keeps the handshake passing',
      'mcp-modern-plus-legacy',
      'mcp-initialize',
      ['pass'],
    ],
    [
      'versioning: -32601 on server/discover fails the discover check',
      'mcp-no-discover',
      'mcp-server-discover',
      ['fail'],
    ],
    ['caching: resultType, ttlMs, cacheScope present pass', 'mcp-modern', 'mcp-cache-hints', ['pass']],
    [
      'streamable-http: a modern server answering as text/event-stream passes discover',
      'mcp-sse',
      'mcp-server-discover',
      ['pass'],
    ],
    [
      'streamable-http: a modern server answering as text/event-stream passes cache hints',
      'mcp-sse',
      'mcp-cache-hints',
      ['pass'],
    ],
    [
      'streamable-http: a modern server answering as text/event-stream passes header validation',
      'mcp-sse',
      'mcp-header-validation',
      ['pass'],
    ],
    [
      'streamable-http: a dual-era server minting a session only for initialize is not a modern-only session',
      'mcp-dual-session',
      'mcp-session-handling',
      ['pass', 'na'],
    ],
    ['caching: a dual-era server with hints passes', 'mcp-modern-plus-legacy', 'mcp-cache-hints', ['pass']],
    [
      'streamable-http: a dual-era server validating Mcp-Method passes',
      'mcp-modern-plus-legacy',
      'mcp-header-validation',
      ['pass'],
    ],
    ['caching: missing cache hints warn', 'mcp-careless', 'mcp-cache-hints', ['warning']],
    [
      'streamable-http: Mcp-Method mismatch refused with 400/-32020 passes',
      'mcp-modern',
      'mcp-header-validation',
      ['pass'],
    ],
    [
      'streamable-http: Mcp-Method mismatch accepted warns or fails',
      'mcp-careless',
      'mcp-header-validation',
      ['warning', 'fail'],
    ],
    [
      'streamable-http: a modern-only server without Mcp-Session-Id passes',
      'mcp-modern',
      'mcp-session-handling',
      ['pass', 'na'],
    ],
    [
      'streamable-http: a modern-only server minting Mcp-Session-Id warns',
      'mcp-careless',
      'mcp-session-handling',
      ['warning'],
    ],
  ])
})

describe('OAuth under 2026-07-28 (client-registration, authorization-server-discovery)', () => {
  rules([
    [
      'client-registration: client_id_metadata_document_supported passes',
      'auth-cimd',
      'oauth-client-registration',
      ['pass'],
    ],
    [
      'client-registration: a registration_endpoint alone warns (DCR deprecated)',
      'auth-dcr',
      'oauth-client-registration',
      ['warning'],
    ],
    [
      'authorization-server-discovery: RFC 9207 iss support with a matching issuer passes',
      'auth-cimd',
      'oauth-authorization-server',
      ['pass'],
    ],
    [
      'client-registration: CIMD alongside a registration_endpoint passes',
      'auth-both',
      'oauth-client-registration',
      ['pass'],
    ],
    [
      'RFC 8414 §3.1: an issuer with a path (path-inserted metadata URL) passes',
      'auth-path-issuer',
      'oauth-authorization-server',
      ['pass'],
    ],
    [
      'client-registration: CIMD at an issuer with a path passes',
      'auth-path-issuer',
      'oauth-client-registration',
      ['pass'],
    ],
    [
      'authorization-server-discovery: no authorization_response_iss_parameter_supported warns',
      'auth-no-iss',
      'oauth-authorization-server',
      ['warning'],
    ],
  ])
})

describe('AIPREF (draft-ietf-aipref-attach-05, vocab-07)', () => {
  rules([
    [
      'attach-05: robots.txt Content-Usage lines (incl. path-scoped) pass',
      'aipref-robots',
      'content-signals',
      ['pass'],
    ],
    ['attach-05: Content-Usage lines inside user-agent groups pass', 'aipref-group', 'content-signals', ['pass']],
    [
      'attach-05 §3.2: only a path-scoped Content-Usage line is read (pass)',
      'aipref-scoped-only',
      'content-signals',
      ['pass'],
    ],
    [
      'RFC 9309 §2.2: a lower-case content-usage field name in robots.txt is read (pass)',
      'aipref-lower-field',
      'content-signals',
      ['pass'],
    ],
    ['attach-05: the Content-Usage response header alone passes', 'aipref-header', 'content-signals', ['pass']],
    ['vocab-07: train-ai=no states no preference (warning)', 'aipref-no', 'content-signals', ['warning']],
    ['vocab-07: Train-AI=n does not parse (warning)', 'aipref-case', 'content-signals', ['warning']],
    ['vocab-07: an unknown label is ignored (pass)', 'aipref-unknown', 'content-signals', ['pass']],
    [
      'vocab-07: only dropped labels (train-genai, ai-use, bots) warns',
      'aipref-dropped',
      'content-signals',
      ['warning'],
    ],
  ])
})

describe('Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol-00)', () => {
  rules([
    [
      '-00: 200, own media type with a charset parameter, own key passes',
      'wba-good',
      'web-bot-auth-directory',
      ['pass'],
    ],
    ['-00: application/json warns', 'wba-json', 'web-bot-auth-directory', ['warning']],
    ['-00: a redirect fails', 'wba-redirect', 'web-bot-auth-directory', ['fail']],
    [
      '-00 / RFC 9421 B.1.4: the test key warns or fails',
      'wba-test-key',
      'web-bot-auth-directory',
      ['warning', 'fail'],
    ],
  ])
})

describe('A2A 1.0 (§8.2, §14.3, §4.4.6)', () => {
  rules([
    ['§8.2: the spec-example card at /.well-known/agent-card.json passes', 'a2a-good', 'a2a-agent-card', ['pass']],
    [
      '§8.2: a card at agent-card.json with the old agent.json kept beside it passes',
      'a2a-both-paths',
      'a2a-agent-card',
      ['pass'],
    ],
    ['§8.2: a card only at /.well-known/agent.json warns', 'a2a-legacy-path', 'a2a-agent-card', ['warning']],
    ['§4.4.6: an interface without protocolBinding warns', 'a2a-no-binding', 'a2a-agent-card', ['warning']],
    ['§4.4.6: an interface without protocolVersion warns', 'a2a-no-version', 'a2a-agent-card', ['warning']],
  ])
})

describe('MCP Apps (ext-apps specification/2026-01-26/apps.mdx)', () => {
  rules([
    [
      'apps.mdx: a view with _meta.ui.resourceUri and text/html;profile=mcp-app passes',
      'app-good',
      'mcp-app-ui-resource',
      ['pass'],
    ],
    // Equal media types to RFC 9110, but hosts match the exact string apps.mdx defines: a warning, deliberately.
    [
      'apps.mdx RESOURCE_MIME_TYPE: text/html; profile=mcp-app (a space after ;) warns, never fails',
      'app-spaced-mime',
      'mcp-app-ui-resource',
      ['warning'],
    ],
    ['apps.mdx: a read mimeType text/html+skybridge fails', 'app-skybridge', 'mcp-app-ui-resource', ['fail']],
    [
      'apps.mdx: a listing mimeType text/html with a correct read passes or warns',
      'app-listed-html',
      'mcp-app-ui-resource',
      ['pass', 'warning'],
    ],
    [
      'apps.mdx: a view linked only through the flat ui/resourceUri key warns',
      'app-flat',
      'mcp-app-ui-resource',
      ['warning'],
    ],
    ['apps.mdx: a referenced resource that does not exist fails', 'app-missing', 'mcp-app-ui-resource', ['fail']],
  ])
})

describe('the CLI reaches the same verdicts', () => {
  test('`scan ORIGIN --static --allow-private --mcp ORIGIN/mcp/ --format json` on the modern server matches the in-process scan', async () => {
    const { origin, mcpUrl } = targets.get('mcp-modern')!
    const run = await runCliSource(
      ['scan', origin, '--allow-private', '--static', '--format', 'json', '--quiet', '--mcp', mcpUrl!],
      { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent' },
    )
    expect(run.stderr).not.toContain('Error')
    const report = JSON.parse(run.stdout) as CliReport
    const cli = Object.fromEntries(
      report.layers.flatMap((layer) => layer.checks).map((check) => [check.id, check.status]),
    )
    const ids = [
      'mcp-initialize',
      'mcp-server-discover',
      'mcp-cache-hints',
      'mcp-header-validation',
      'mcp-session-handling',
      'mcp-server-card',
    ]
    expect(ids.map((id) => [id, cli[id]])).toEqual(ids.map((id) => [id, statusOnly('mcp-modern', id)]))
    expect(ids.map((id) => cli[id])).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass'])
  }, 60_000)
})
