import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { deprecationHeaders } from '../core/deprecations.ts'
import { consume } from '../core/limits.ts'
import { journeyTargetSubject } from '../plugins/journey/limits.ts'
import { serviceLimit } from './support/limits.ts'
import { webPlugin } from '../plugins/web/index.ts'
import { MODERN_META } from '../core/mcp-client/protocol.ts'
import { request } from './helpers.ts'
import { freeLoopbackPort } from './support/ports.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

/**
 * The OpenAPI document against the wire (issue 15, item 3): every route the app serves is documented (or excluded
 * on purpose, below), every documented operation is served, and for every operation real requests provoke each
 * documented status they reasonably can; each answer's status must be documented for the operation and each of its
 * headers (minus the few in IGNORED_HEADERS) declared for that status. Statuses nothing here provokes are listed
 * with the reason in NOT_PROVOKED, so that a newly documented status fails this test until it is probed or listed.
 *
 * Requests go through app.handle() against fixture sites (tests/support/world.ts), so scans succeed without the
 * network; every request comes from its own client address, so no probe spends another's rate limits.
 */

/**
 * Routes the app serves that /openapi.json leaves out on purpose, besides every route of plugins/web (HTML pages,
 * their assets and form posts for people, and the site's own robots/llms/sitemap in text and XML; programs have the
 * documented API, and tests/web*.test.ts cover them), which the test takes from the web plugin itself.
 */
const EXCLUDED_ROUTES = new Set([
  // The documentation itself: Swagger UI (HTML), its assets and the document.
  'GET /swagger',
  'GET /swagger/assets/:file',
  'GET /openapi.json',
  // CORS preflights: the CORS protocol, not API operations (the headers are declared on the actual responses).
  'OPTIONS /api/mcp',
  'OPTIONS /api/mcp/server-card',
  'OPTIONS /.well-known/mcp/server-card.json',
])

/**
 * Headers not declared per response: message framing and representation metadata that every HTTP response may
 * carry (the media type is declared as the response's content instead), and the content coding the compression
 * layer adds to any compressible answer (`Content-Encoding`, `Vary: Accept-Encoding`; plugins/web/compression.ts).
 */
const IGNORED_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'content-encoding',
  'vary',
])

/** Documented statuses no request here provokes, with the reason; `*` matches every operation. */
const NOT_PROVOKED: Record<string, string> = {
  '* 500':
    'INTERNAL_ERROR needs a bug, DATABASE_UNAVAILABLE a database outage; provoked (OUTAGE_PROBES) only where a failed key lookup leads to it (tests/resilience.test.ts covers the rest)',
  'GET /readyz 503': 'needs the database or the store down (tests/foundation.test.ts)',
  'POST /api/scan 202': 'needs rendered checks running in a browser (tests/scan-stream.test.ts, with Chromium)',
  'POST /api/v2/scan 503': 'needs V2_SCAN_ENABLED off in the deployment',
  'GET /api/v2/scan/{id} 503': 'needs V2_SCAN_ENABLED off in the deployment',
  'POST /api/feedback/check 503': 'needs agent verification to be unavailable',
  'POST /api/scan/checks 422': 'run_checks on an auth-required MCP server; covered by tests/scan-api.test.ts',
}

interface Operation {
  responses: Record<string, { headers?: Record<string, unknown> }>
  parameters?: { in: string; name: string; required?: boolean }[]
  requestBody?: unknown
  'x-rate-limit'?: string
}
type Paths = Record<string, Record<string, Operation>>

/** One request meant to provoke `status`; `note` names it in failures. */
interface Probe {
  status: number
  note: string
  send: () => Promise<Response>
}

let world: World
let paths: Paths
let partnerKey: string
const v2Host = `v2-${randomUUID().slice(0, 8)}.test`
const state = { runId: '', v2Id: 0 }
const SCANNED = 'blog.test'
const UNSCANNED = 'never-scanned.test'

beforeAll(async () => {
  world = await startWorld(['blog', 'excellent'], {
    browser: null,
    start: true,
    env: { V2_SCAN_ENABLED: 'true' },
    mcp: [{ name: 'auth-required', hosts: ['auth-mcp.test', v2Host] }],
    extraResolve: [`gone.test:443:127.0.0.1:${freeLoopbackPort()}`],
  })
  partnerKey = (await world.handle.pieces.keys.create('partner', 'openapi wire test')).key
  paths = ((await (await world.handle.app.handle(request('/openapi.json'))).json()) as { paths: Paths }).paths
}, 60_000)
afterAll(() => world?.close())

const app = () => world.handle.app

function send(
  method: string,
  path: string,
  init: { json?: unknown; headers?: Record<string, string>; body?: BodyInit; ip?: string } = {},
): Promise<Response> {
  const headers = { 'x-forwarded-for': init.ip ?? clientIp(), ...init.headers }
  return app().handle(
    request(path, {
      method,
      headers,
      ...(init.json !== undefined ? { json: init.json } : {}),
      ...(init.body !== undefined ? { body: init.body } : {}),
    }),
  )
}
const get = (path: string, headers: Record<string, string> = {}) => send('GET', path, { headers })
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  send('POST', path, { json, headers })

/** A 200 then a 304 for the same document, revalidated with its ETag. */
function revalidated(path: string): Probe[] {
  return [
    { status: 200, note: 'plain GET', send: () => get(path) },
    {
      status: 304,
      note: 'If-None-Match with the ETag of the 200',
      send: async () => {
        const first = await get(path)
        await first.arrayBuffer()
        return get(path, { 'if-none-match': first.headers.get('etag') ?? '"none"' })
      },
    },
  ]
}

const mcpHeaders = { accept: 'application/json, text/event-stream' }
/** What a page on another site sends: our MCP server answers it 403 (plugins/mcp/index.ts hostGuard). */
const FOREIGN_ORIGIN = { origin: 'https://evil.example' }
const feedback = (domain: string) => ({
  reporterType: 'human',
  domain,
  checkId: 'robots-txt',
  reason: 'false_fail',
  message: 'The robots.txt is there.',
})
const pricing = (domain: string) => ({ intent: { id: 'find-pricing' }, domain })

/** Route-specific probes: valid requests and the errors particular to each operation. */
const PROBES: Record<string, Probe[]> = {
  'GET /healthz': [{ status: 200, note: 'GET', send: () => get('/healthz') }],
  'GET /readyz': [{ status: 200, note: 'GET', send: () => get('/readyz') }],
  'GET /api/checks': revalidated('/api/checks'),
  'POST /api/scan': [
    {
      status: 200,
      note: 'forced live scan of a fixture site',
      send: () => post('/api/scan', { url: SCANNED, force: true }),
    },
    { status: 200, note: 'freshness hit (Age)', send: () => post('/api/scan', { url: SCANNED }) },
    { status: 400, note: 'schema failure', send: () => post('/api/scan', {}) },
    { status: 400, note: 'unreachable domain', send: () => post('/api/scan', { url: 'gone.test' }) },
    {
      status: 422,
      note: 'MCP server needing auth',
      send: () => post('/api/scan', { url: 'https://auth-mcp.test/mcp' }),
    },
  ],
  'GET /api/scan/stream': [
    { status: 200, note: 'freshness hit', send: () => get(`/api/scan/stream?domain=${SCANNED}`) },
    { status: 400, note: 'without domain', send: () => get('/api/scan/stream') },
  ],
  'POST /api/scan/checks': [
    {
      status: 200,
      note: 'one check, live',
      send: () => post('/api/scan/checks', { url: SCANNED, checkIds: ['robots-txt'] }),
    },
    {
      status: 400,
      note: 'unknown check id',
      send: () => post('/api/scan/checks', { url: SCANNED, checkIds: ['no-such-check'] }),
    },
  ],
  'GET /api/score/{domain}': [
    { status: 200, note: 'stored score', send: () => get(`/api/score/${SCANNED}`) },
    { status: 200, note: 'stored score again (read cache)', send: () => get(`/api/score/${SCANNED}`) },
    { status: 400, note: 'not a domain', send: () => get('/api/score/not%20a%20domain') },
    { status: 404, note: 'never scanned', send: () => get(`/api/score/${UNSCANNED}`) },
    { status: 422, note: 'only an auth-required marker', send: () => get('/api/score/auth-mcp.test') },
  ],
  'POST /api/v2/scan': [
    {
      status: 201,
      note: 'new row',
      send: async () => {
        const response = await post('/api/v2/scan', { url: v2Host })
        state.v2Id = ((await response.clone().json()) as { scanId: number }).scanId
        return response
      },
    },
    { status: 200, note: 'in-progress row', send: () => post('/api/v2/scan', { url: v2Host }) },
    { status: 400, note: 'schema failure', send: () => post('/api/v2/scan', {}) },
    { status: 422, note: 'unreachable', send: () => post('/api/v2/scan', { url: 'gone.test' }) },
  ],
  'GET /api/v2/scan/{id}': [
    { status: 200, note: 'the row', send: () => get(`/api/v2/scan/${state.v2Id}`) },
    { status: 404, note: 'unknown id', send: () => get('/api/v2/scan/999999999') },
  ],
  'GET /api/badge/{domain}': [
    { status: 200, note: 'scanned', send: () => get(`/api/badge/${SCANNED}`) },
    { status: 400, note: 'not a domain', send: () => get('/api/badge/not%20a%20domain') },
    { status: 404, note: 'never scanned', send: () => get(`/api/badge/${UNSCANNED}`) },
  ],
  'GET /api/leaderboard': [
    { status: 200, note: 'first page', send: () => get('/api/leaderboard') },
    { status: 400, note: 'unknown kind', send: () => get('/api/leaderboard?kind=nope') },
  ],
  'GET /api/stats': [{ status: 200, note: 'GET', send: () => get('/api/stats') }],
  'GET /api/discover': [
    { status: 200, note: 'an intent', send: () => get('/api/discover?intent=blog') },
    { status: 400, note: 'without intent', send: () => get('/api/discover') },
  ],
  'GET /api/ard': [{ status: 200, note: 'GET', send: () => get('/api/ard') }],
  'GET /api/ard/catalog': [{ status: 200, note: 'GET', send: () => get('/api/ard/catalog') }],
  'GET /.well-known/ai-catalog.json': [{ status: 200, note: 'GET', send: () => get('/.well-known/ai-catalog.json') }],
  'GET /api/ard/catalog.json': [{ status: 200, note: 'GET', send: () => get('/api/ard/catalog.json') }],
  'POST /api/ard/search': [
    { status: 200, note: 'text query', send: () => post('/api/ard/search', { query: { text: 'blog' } }) },
    { status: 400, note: 'empty query', send: () => post('/api/ard/search', { query: {} }) },
  ],
  'POST /api/ard/explore': [
    {
      status: 200,
      note: 'one facet',
      send: () => post('/api/ard/explore', { resultType: { facets: [{ field: 'category' }] } }),
    },
    {
      status: 400,
      note: 'unknown facet',
      send: () => post('/api/ard/explore', { resultType: { facets: [{ field: 'nope' }] } }),
    },
  ],
  'GET /api/ard/agents': [
    { status: 200, note: 'first page', send: () => get('/api/ard/agents') },
    { status: 400, note: 'unknown orderBy field', send: () => get('/api/ard/agents?orderBy=nope') },
  ],
  'GET /api/ard/attestation/{domain}': [
    ...revalidated(`/api/ard/attestation/${SCANNED}`),
    { status: 400, note: 'not a domain', send: () => get('/api/ard/attestation/not%20a%20domain') },
    { status: 404, note: 'never scanned', send: () => get(`/api/ard/attestation/${UNSCANNED}`) },
  ],
  'GET /api/ard/jwks': revalidated('/api/ard/jwks'),
  'GET /.well-known/jwks.json': revalidated('/.well-known/jwks.json'),
  'GET /api/web-bot-auth/directory': revalidated('/api/web-bot-auth/directory'),
  'GET /.well-known/http-message-signatures-directory': revalidated('/.well-known/http-message-signatures-directory'),
  'POST /api/feedback/check': [
    { status: 200, note: 'a human report', send: () => post('/api/feedback/check', feedback(SCANNED)) },
    { status: 400, note: 'schema failure', send: () => post('/api/feedback/check', {}) },
    {
      status: 401,
      note: 'an agent report with a forged token',
      send: () =>
        post('/api/feedback/check', {
          ...feedback(SCANNED),
          reporterType: 'agent',
          agentId: 'wire-test',
          verificationToken: 'forged',
          verificationAnswer: '1:2:3:4',
        }),
    },
    { status: 404, note: 'never scanned', send: () => post('/api/feedback/check', feedback(UNSCANNED)) },
  ],
  'GET /api/feedback/{domain}': [
    { status: 200, note: 'a page', send: () => get(`/api/feedback/${SCANNED}`) },
    { status: 400, note: 'not a domain', send: () => get('/api/feedback/not%20a%20domain') },
  ],
  'GET /api/feedback/{domain}/stats': [
    { status: 200, note: 'stats', send: () => get(`/api/feedback/${SCANNED}/stats`) },
    { status: 400, note: 'not a domain', send: () => get('/api/feedback/not%20a%20domain/stats') },
  ],
  'POST /api/contact': [
    {
      status: 200,
      note: 'an inquiry',
      send: () =>
        post('/api/contact', {
          name: 'Ada Lovelace',
          email: 'ada@example.test',
          message: 'Please scan our MCP server too.',
        }),
    },
    { status: 400, note: 'schema failure', send: () => post('/api/contact', {}) },
  ],
  'POST /api/journey/runs': [
    {
      status: 201,
      note: 'a curated run',
      send: async () => {
        const response = await post('/api/journey/runs', pricing('excellent.test'))
        state.runId = ((await response.clone().json()) as { id: string }).id
        return response
      },
    },
    {
      status: 200,
      note: 'per-target cap reached: the newest stored run',
      send: async () => {
        const subject = journeyTargetSubject({
          domain: 'excellent.test',
          intent: 'find-pricing',
          harness: 'builtin',
          model: 'deterministic',
        })
        await fill('journeyTargetDaily', clientIp(), subject)
        return post('/api/journey/runs', pricing('excellent.test'))
      },
    },
    { status: 400, note: 'schema failure', send: () => post('/api/journey/runs', {}) },
    {
      status: 401,
      note: 'free text without a key',
      send: () => post('/api/journey/runs', { intent: { custom: 'find the pricing page', domain: 'excellent.test' } }),
    },
    {
      status: 429,
      note: 'per-IP daily cap (X-RateLimit-*)',
      send: async () => {
        const ip = clientIp()
        await fill('journeyIpDaily', ip)
        return send('POST', '/api/journey/runs', { json: pricing(`wire-${randomUUID().slice(0, 8)}.test`), ip })
      },
    },
  ],
  'GET /api/journey/runs/{id}': [
    { status: 200, note: 'the run', send: () => get(`/api/journey/runs/${state.runId}`) },
    { status: 404, note: 'unknown id', send: () => get('/api/journey/runs/jr_nope') },
  ],
  'GET /api/journey/runs/{id}/stream': [
    { status: 200, note: 'the run stream', send: () => get(`/api/journey/runs/${state.runId}/stream`) },
    { status: 404, note: 'unknown id', send: () => get('/api/journey/runs/jr_nope/stream') },
  ],
  'GET /api/journey/intents': [{ status: 200, note: 'GET', send: () => get('/api/journey/intents') }],
  'GET /api/journey/agents': [{ status: 200, note: 'GET', send: () => get('/api/journey/agents') }],
  'POST /api/journey/domains/{host}': [
    {
      status: 200,
      note: 'partner key',
      send: () => post('/api/journey/domains/excellent.test', {}, { authorization: `Bearer ${partnerKey}` }),
    },
    {
      status: 400,
      note: 'partner key, limit 0',
      send: () => post('/api/journey/domains/excellent.test', { limit: 0 }, { authorization: `Bearer ${partnerKey}` }),
    },
    { status: 401, note: 'no key', send: () => post('/api/journey/domains/excellent.test', {}) },
  ],
  'POST /api/mcp': [
    {
      status: 200,
      note: 'tools/list',
      send: () => post('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, mcpHeaders),
    },
    {
      status: 202,
      note: 'a notification',
      send: () => post('/api/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, mcpHeaders),
    },
    { status: 400, note: 'not a JSON-RPC message', send: () => post('/api/mcp', { hello: 'world' }, mcpHeaders) },
    {
      status: 406,
      note: 'Accept without JSON or SSE',
      send: () => post('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'text/plain' }),
    },
    {
      status: 403,
      note: 'a foreign Origin (DNS-rebinding protection)',
      send: () => post('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { ...mcpHeaders, ...FOREIGN_ORIGIN }),
    },
    {
      status: 404,
      note: 'a 2026-07-28 request for an unknown method',
      send: () =>
        post(
          '/api/mcp',
          { jsonrpc: '2.0', id: 1, method: 'foo/bar', params: { _meta: MODERN_META } },
          { ...mcpHeaders, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'foo/bar' },
        ),
    },
  ],
  'GET /api/mcp': [
    { status: 405, note: 'GET', send: () => get('/api/mcp') },
    { status: 403, note: 'a foreign Origin', send: () => get('/api/mcp', FOREIGN_ORIGIN) },
  ],
  'DELETE /api/mcp': [
    { status: 405, note: 'DELETE', send: () => send('DELETE', '/api/mcp') },
    { status: 403, note: 'a foreign Origin', send: () => send('DELETE', '/api/mcp', { headers: FOREIGN_ORIGIN }) },
  ],
  'GET /api/mcp/server-card': revalidated('/api/mcp/server-card'),
  'GET /.well-known/mcp/server-card.json': revalidated('/.well-known/mcp/server-card.json'),
  'GET /.well-known/mcp.json': revalidated('/.well-known/mcp.json'),
  'GET /.well-known/openid-configuration': revalidated('/.well-known/openid-configuration'),
}

/**
 * 500 DATABASE_UNAVAILABLE: the key lookup fails as on a database outage, so a keyed caller stays unresolved, and
 * routes whose limit depends on the key (scan family, score, journey burst) or that ask for a capability answer
 * 500 rather than guess. Sent after every other probe: the failure makes keyed requests skip the database for a
 * second (core/context.ts).
 */
const OUTAGE_PROBES: Record<string, (auth: Record<string, string>) => Promise<Response>> = {
  'POST /api/scan': (auth) => post('/api/scan', { url: SCANNED }, auth),
  'GET /api/scan/stream': (auth) => get(`/api/scan/stream?domain=${SCANNED}`, auth),
  'POST /api/scan/checks': (auth) => post('/api/scan/checks', { url: SCANNED, checkIds: ['robots-txt'] }, auth),
  'GET /api/score/{domain}': (auth) => get(`/api/score/${SCANNED}`, auth),
  'POST /api/v2/scan': (auth) => post('/api/v2/scan', { url: v2Host }, auth),
  'POST /api/journey/runs': (auth) => post('/api/journey/runs', pricing('excellent.test'), auth),
  'GET /api/journey/runs/{id}/stream': (auth) => get(`/api/journey/runs/${state.runId}/stream`, auth),
  'POST /api/journey/domains/{host}': (auth) => post('/api/journey/domains/excellent.test', {}, auth),
}

function outageProbe(key: string): Probe | null {
  const sendKeyed = OUTAGE_PROBES[key]
  if (!sendKeyed) return null
  return {
    status: 500,
    note: 'key lookup failing as on a database outage',
    send: async () => {
      const keys = world.handle.pieces.keys
      const resolve = keys.resolve
      keys.resolve = async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
      }
      try {
        return await sendKeyed({ authorization: `Bearer ${partnerKey}` })
      } finally {
        keys.resolve = resolve
      }
    },
  }
}

/** Spends a whole window of the limit `name` (core/limits.ts consume), as earlier requests of this caller would have. */
async function fill(name: string, ip: string, subject?: string): Promise<void> {
  const limit = serviceLimit(name)
  for (let hit = 0; hit < limit.limit; hit++)
    await consume(world.handle.pieces.store, limit, { kind: 'anonymous', ip }, subject)
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Headers the generic probes need to get as far as the limit: this route checks its partner key first. */
const GENERIC_HEADERS: Record<string, Record<string, string>> = {
  'POST /api/journey/domains/{host}': {
    get authorization() {
      return `Bearer ${partnerKey}`
    },
  },
}
const SAMPLE_PARAMS: Record<string, string> = { domain: SCANNED, host: 'excellent.test', id: '1' }

/** The context plugin's answers (core/context.ts) and the limit macro's, for any operation. */
function genericProbes(method: string, template: string, operation: Operation): Probe[] {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE_PARAMS[name] ?? 'x')
  const probes: Probe[] = [
    { status: 400, note: 'a control character in the query', send: () => send(method, `${path}?probe=%01`) },
  ]
  if (BODY_METHODS.has(method)) {
    probes.push(
      {
        status: 413,
        note: 'a body over 1 MiB',
        send: () =>
          send(method, path, {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }),
          }),
      },
      {
        status: 415,
        note: 'a text/plain body',
        send: () => send(method, path, { headers: { 'content-type': 'text/plain' }, body: 'hello' }),
      },
    )
  } else {
    probes.push({
      status: 413,
      note: 'a Content-Length over 1 MiB',
      send: () => send(method, path, { headers: { 'content-length': String(2 * 1024 * 1024) } }),
    })
  }
  const limit = operation['x-rate-limit']
  if (limit) {
    probes.push({
      status: 429,
      note: `the ${limit} window already spent`,
      send: async () => {
        const ip = clientIp()
        await fill(limit, ip)
        const headers = GENERIC_HEADERS[`${method} ${template}`] ?? {}
        return send(
          method,
          path,
          BODY_METHODS.has(method) ? { json: {}, ip, headers: { ...headers } } : { ip, headers: { ...headers } },
        )
      },
    })
  }
  return probes
}

/** What is wrong with one answer, or null. */
function problemsOf(key: string, operation: Operation, probe: Probe, response: Response): string[] {
  const where = `${key} (${probe.note})`
  const problems: string[] = []
  if (response.status !== probe.status) problems.push(`${where}: expected ${probe.status}, got ${response.status}`)
  const documented = operation.responses[String(response.status)]
  if (!documented) return [...problems, `${where}: status ${response.status} is not documented`]
  const declared = new Set(Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase()))
  for (const [name] of response.headers) {
    if (!IGNORED_HEADERS.has(name) && !declared.has(name))
      problems.push(`${where}: header ${name} is not declared for ${response.status}`)
  }
  return problems
}

function operations(): [string, string, string, Operation][] {
  return Object.entries(paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(
      ([method, operation]) =>
        [`${method.toUpperCase()} ${path}`, method.toUpperCase(), path, operation] as [
          string,
          string,
          string,
          Operation,
        ],
    ),
  )
}

describe('the OpenAPI document and the routes', () => {
  test('every served route is documented or excluded on purpose, and every documented operation is served', () => {
    const served = new Set(app().routes.map((route) => `${route.method} ${route.path}`))
    const web = webPlugin(world.handle.pieces).routes.map((route) => `${route.method} ${route.path}`)
    const excluded = new Set([...EXCLUDED_ROUTES, ...web])
    const documented = new Set(operations().map(([, method, path]) => `${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`))
    expect(web.length).toBeGreaterThan(5)
    expect([...documented].filter((route) => !served.has(route))).toEqual([])
    expect([...served].filter((route) => !documented.has(route)).sort()).toEqual([...excluded].sort())
    expect([...excluded].filter((route) => documented.has(route))).toEqual([])
  })

  test('every documented operation has probes, and every documented status is probed or listed as not provoked', () => {
    const keys = operations().map(([key]) => key)
    expect(keys.filter((key) => !(key in PROBES))).toEqual([])
    expect(Object.keys(PROBES).filter((key) => !keys.includes(key))).toEqual([])
    const unprobed: string[] = []
    const listed = new Set<string>()
    for (const [key, method, path, operation] of operations()) {
      const probes = [...PROBES[key]!, ...genericProbes(method, path, operation), outageProbe(key)].filter(
        (probe) => probe !== null,
      )
      const probed = new Set(probes.map((probe) => probe.status))
      for (const status of Object.keys(operation.responses)) {
        if (probed.has(Number(status))) continue
        const reason = NOT_PROVOKED[`${key} ${status}`] ?? NOT_PROVOKED[`* ${status}`]
        if (reason) listed.add(NOT_PROVOKED[`${key} ${status}`] ? `${key} ${status}` : `* ${status}`)
        else unprobed.push(`${key} ${status}`)
      }
    }
    expect(unprobed).toEqual([])
    // No stale entries: each one stands for a documented status nothing provokes.
    expect(Object.keys(NOT_PROVOKED).filter((entry) => !listed.has(entry))).toEqual([])
    expect(Object.keys(OUTAGE_PROBES).filter((key) => !keys.includes(key))).toEqual([])
  })

  test('every answer on the wire has a documented status and declared headers', async () => {
    const problems: string[] = []
    let sent = 0
    const rounds = [
      operations().map(
        ([key, method, path, operation]) =>
          [key, operation, [...(PROBES[key] ?? []), ...genericProbes(method, path, operation)]] as const,
      ),
      // Last: see OUTAGE_PROBES.
      operations().map(
        ([key, , , operation]) => [key, operation, [outageProbe(key)].filter((probe) => probe !== null)] as const,
      ),
    ]
    for (const [key, operation, probes] of rounds.flat()) {
      for (const probe of probes) {
        const response = await probe.send()
        sent++
        problems.push(...problemsOf(key, operation, probe, response))
        // Event streams stay open: the status and headers are what is checked.
        if (response.headers.get('content-type')?.startsWith('text/event-stream')) await response.body?.cancel()
        else await response.arrayBuffer()
      }
    }
    expect(problems).toEqual([])
    expect(sent).toBeGreaterThan(150)
  }, 60_000)

  test('the deprecation headers are declared on the primary success responses of the scan and score routes (spec, Versioning 4)', () => {
    // Nothing is deprecated today, so no probe sees them: what core/deprecations.ts would send for an entry with a
    // committed sunset is checked against the document instead.
    const primary: Record<string, { route: string; statuses: string[] }> = {
      'POST /api/scan': { route: 'POST /api/scan', statuses: ['200', '202'] },
      'GET /api/scan/stream': { route: 'GET /api/scan/stream', statuses: ['200'] },
      'GET /api/score/{domain}': { route: 'GET /api/score/:domain', statuses: ['200'] },
    }
    const missing: string[] = []
    for (const [key, , , operation] of operations()) {
      const entry = primary[key]
      if (!entry) continue
      const sent = Object.keys(
        deprecationHeaders(entry.route, [
          {
            route: entry.route,
            deprecatedAt: new Date('2026-01-01'),
            sunsetAt: new Date('2026-06-01'),
            link: 'https://example.test/migrate',
          },
        ]),
      )
      expect(sent.sort()).toEqual(['deprecation', 'link', 'sunset'])
      for (const status of entry.statuses) {
        const declared = Object.keys(operation.responses[status]?.headers ?? {}).map((name) => name.toLowerCase())
        missing.push(...sent.filter((name) => !declared.includes(name)).map((name) => `${key} ${status}: ${name}`))
      }
    }
    expect(missing).toEqual([])
    expect(Object.keys(primary).filter((key) => !operations().some(([candidate]) => candidate === key))).toEqual([])
  })
})
