import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { type AppHandle, createApp } from '../../app/app.ts'
import { loadConfig } from '../../core/config.ts'
import { FEATURES } from '../../app/feature-list.ts'
import { featureErrors } from '../../core/feature.ts'
import { type OutboundClient, OutboundError } from '../../core/outbound/client.ts'
import { openStore } from '../../core/store/index.ts'
import { ARD_ENVELOPE } from '../../plugins/ard/public.ts'
import { checkResult, discoveryLayer, scanReport } from './scan-report.ts'

/**
 * A property-based fuzz over every route of /openapi.json: requests with hostile path parameters, query strings,
 * JSON (and not-JSON) bodies and content types go through `app.handle()`, and every answer must be below 500,
 * carry an `X-Request-Id`, and, when it is a 4xx, the error envelope of its path (ArdErrorResponse under /api/ard
 * and /api/checks, JSON-RPC errors from the MCP transport at /api/mcp, ErrorResponse everywhere else).
 *
 * No request reaches the network: the app's outbound client is replaced by one that refuses every target the way
 * the SSRF guard refuses a private one, so scan routes stop at "unreachable" after validation (fast, and safe
 * even for a random string that happens to be a real domain or a public IP literal). There is no browser either.
 */

export interface FuzzRequest {
  method: string
  /** The documented route this request was generated for (`/api/score/{domain}`), for the report. */
  route: string
  /** Path and query, percent-encoded as sent. */
  target: string
  contentType: string | null
  /** A body, or a stand-in for one too large to keep in every sample. */
  body: string | { oversizedBytes: number } | null
  /** Sent as a stream without Content-Length, as a chunked upload is. */
  chunked: boolean
  /** Spread over many client addresses so that rate limits are not the only answer; a few share one. */
  sharedClient: boolean
  headers: Record<string, string>
}

export interface FuzzOutcome {
  status: number
  problem: string | null
}

export interface DocumentedRoute {
  method: string
  path: string
  pathParams: string[]
  queryParams: string[]
  /** JSON Schema of the JSON body, when the route takes one. */
  bodySchema: JsonSchema | null
}

interface JsonSchema {
  type?: string | string[]
  format?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  additionalProperties?: boolean | JsonSchema
  propertyNames?: JsonSchema
}

const MCP_PATH = '/api/mcp'
const SCANNED_DOMAINS = ['example.test', 'shop.example.test']
const MCP_TOOLS = [
  'scan_domain',
  'get_score',
  'list_checks',
  'run_checks',
  'get_leaderboard',
  'discover_products',
  'get_verification_challenge',
  'submit_check_feedback',
  'submit_feedback',
  'get_feedback',
]
const ARGUMENT_NAMES = [
  'url',
  'mcpUrl',
  'domain',
  'checkIds',
  'intent',
  'limit',
  'offset',
  'kind',
  'layer',
  'force',
  'message',
  'checkId',
]

/** An app on embedded defaults (PGlite in memory, in-process store) that cannot reach the network. */
export async function createFuzzApp(env: Record<string, string> = {}): Promise<AppHandle> {
  const config = loadConfig({
    DATABASE_URL: 'memory://',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://localhost:3000',
    SCANNER_ALLOW_PRIVATE: 'false',
    SCANNER_TIMEOUT_MS: '200',
    TRUST_PROXY: 'true',
    V2_SCAN_ENABLED: 'true',
    WORKER_CONCURRENCY: '0',
    ...env,
  })
  const store = await openStore(config, { prefix: `fuzz:${randomUUID()}:` })
  const handle = await createApp(config, { store, browser: null })
  await handle.start()
  handle.pieces.outbound = offlineClient(handle.pieces.outbound)
  // Stored scans of the domains the generators favour, so that reads, feedback and the ARD index have data.
  const scans = handle.pieces.scans
  for (const domain of SCANNED_DOMAINS) {
    const layers = [discoveryLayer([checkResult('robots-txt', 'pass'), checkResult('llms-txt', 'fail')])]
    await scans.insert(scanReport({ domain, score: 72, layers }), { ephemeral: false })
  }
  return handle
}

/** Refuses every request as the SSRF guard refuses a blocked address; nothing is resolved or connected. */
function offlineClient(real: OutboundClient): OutboundClient {
  const refuse = async (url: string | URL): Promise<never> => {
    throw new OutboundError('BLOCKED_ADDRESS', String(url), `refused ${String(url)}: the fuzz app has no network`)
  }
  const client: OutboundClient = {
    signs: real.signs,
    request: refuse,
    stream: refuse,
    asFetch: () => (input) => refuse(input instanceof Request ? input.url : input),
  }
  return client
}

export async function documentedRoutes(app: AppHandle['app']): Promise<DocumentedRoute[]> {
  const document = (await (await app.handle(new Request('http://localhost/openapi.json'))).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string }[]
          requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
        }
      >
    >
  }
  const routes: DocumentedRoute[] = []
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = operation.parameters ?? []
      routes.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        queryParams: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        bodySchema: operation.requestBody?.content?.['application/json']?.schema ?? null,
      })
    }
  }
  return routes
}

// ---------------------------------------------------------------------------------------------------------------
// Values

const TEXT_CONSTANTS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u001b[31m',
  '\ud800',
  'a\udc00b',
  '😀',
  '\u202e',
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toJSON',
  '../../etc/passwd',
  '%00',
  '%',
  'essentials',
  'siteType',
  'audit',
  '1',
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '9007199254740993',
  '99999999999999999999',
  '1e309',
  'NaN',
  'example.test',
  'shop.example.test',
  'a.invalid',
  'xn--80ak6aa92e.test',
  'https://example.test/mcp',
  'http://example.test:8080/x?y=1#z',
  'ftp://example.test',
  'https://user:pass@example.test',
  'http://127.0.0.1',
  'http://[::1]:3000',
  'http://169.254.169.254/latest/meta-data',
  'http://2130706433',
  'localhost',
  'robots-txt',
  'llms-txt',
  'human',
  'agent',
  'other',
  'auto',
  'none',
  'type = "x" AND updatedAt >= 2026-01-01',
  'displayName DESC',
  'a@b.test',
]

const atom: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TEXT_CONSTANTS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      maxLength: 20,
    }),
  },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 9000 }).map((length) => 'x'.repeat(length)) },
  { weight: 1, arbitrary: fc.domain().map((domain) => `${domain}.invalid`) },
)

/** An atom alone, or inside ordinary text long enough to pass length rules (a contact message is 10+ characters). */
const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: atom },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('Hello, this is a message: ', 'see ', ''),
        atom,
        fc.constantFrom('', ' and some more words after it'),
      )
      .map((parts) => parts.join('')),
  },
)

const email: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('ada@example.test', 'a@b.test'),
  fc.emailAddress(),
  hostileText,
)

const interestingNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    1,
    -1,
    10,
    50,
    100,
    101,
    1000,
    2_147_483_647,
    2_147_483_648,
    -2_147_483_649,
    Number.MAX_SAFE_INTEGER,
    1e308,
    0.5,
    -0.0,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileText },
  { weight: 2, arbitrary: interestingNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
)

/** Values shaped by a JSON Schema most of the time, so that requests get past the first check; wrong otherwise. */
function fromSchema(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return hostileValue
  const alternatives = schema.anyOf ?? schema.oneOf
  let shaped: fc.Arbitrary<unknown>
  if (alternatives?.length) shaped = fc.oneof(...alternatives.map((alternative) => fromSchema(alternative, depth + 1)))
  else if (schema.const !== undefined) shaped = fc.constant(schema.const)
  else if (schema.enum?.length) shaped = fc.constantFrom(...schema.enum)
  else {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
    switch (type) {
      case 'string':
        shaped = schema.format === 'email' ? email : hostileText
        break
      case 'integer':
      case 'number':
        shaped = interestingNumber
        break
      case 'boolean':
        shaped = fc.boolean()
        break
      case 'array':
        shaped = fc.array(fromSchema(schema.items, depth + 1), { maxLength: 6 })
        break
      case 'object': {
        const properties = Object.entries(schema.properties ?? {})
        const known = Object.fromEntries(properties.map(([name, property]) => [name, fromSchema(property, depth + 1)]))
        const extra =
          typeof schema.additionalProperties === 'object' || schema.propertyNames
            ? fc.dictionary(
                schema.propertyNames
                  ? (fromSchema(schema.propertyNames, depth + 1).filter(
                      (key) => typeof key === 'string',
                    ) as fc.Arbitrary<string>)
                  : hostileText,
                fromSchema(
                  typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined,
                  depth + 1,
                ),
                { maxKeys: 4 },
              )
            : fc.dictionary(hostileText, hostileValue, { maxKeys: 1 })
        // Mostly with the required members, so that requests get past the first check to the next one.
        const required = (schema.required ?? []).filter((name) => name in known)
        const record = fc.oneof(
          { weight: 3, arbitrary: fc.record(known, { requiredKeys: required }) },
          { weight: 1, arbitrary: fc.record(known, { requiredKeys: [] }) },
        )
        shaped = fc.tuple(record, extra).map(([members, more]) => ({ ...more, ...members }))
        break
      }
      default:
        shaped = hostileValue
    }
  }
  return fc.oneof({ weight: 9, arbitrary: shaped }, { weight: 1, arbitrary: hostileValue })
}

const jsonRpcBody: fc.Arbitrary<unknown> = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 9, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: hostileValue }),
    id: fc.oneof(fc.integer(), hostileText, fc.constant(null)),
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constant('tools/call') },
      {
        weight: 3,
        arbitrary: fc.constantFrom('initialize', 'ping', 'tools/list', 'notifications/initialized', 'resources/list'),
      },
      { weight: 1, arbitrary: hostileText },
    ),
    params: fc.record(
      {
        name: fc.oneof(fc.constantFrom(...MCP_TOOLS), hostileText),
        arguments: fc.dictionary(fc.oneof(fc.constantFrom(...ARGUMENT_NAMES), hostileText), hostileValue, {
          maxKeys: 5,
        }),
        protocolVersion: fc.constantFrom('2025-06-18', '2025-03-26', 'x'),
        capabilities: fc.constant({}),
        clientInfo: fc.constant({ name: 'fuzz', version: '1' }),
      },
      { requiredKeys: ['name', 'arguments'] },
    ),
  },
  { requiredKeys: ['jsonrpc', 'method'] },
)

const nesting = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

/** Raw bodies: JSON text, deep nesting, broken JSON, forms. */
function bodyText(route: DocumentedRoute): fc.Arbitrary<string> {
  const json =
    route.path === MCP_PATH
      ? fc.oneof(jsonRpcBody, fc.array(jsonRpcBody, { maxLength: 3 }))
      : fromSchema(route.bodySchema ?? undefined)
  return fc.oneof(
    { weight: 12, arbitrary: json.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(10, 63, 64, 65, 100, 1000, 20_000, 100_000),
          fc.constantFrom('url', 'query', 'checkIds', 'message'),
        )
        .map(([depth, key]) => `{"${key}":${nesting(depth)}}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        nesting(100_000),
        '{"a":'.repeat(5000),
        '{',
        '"\\u0000"',
        '{"url":"\\ud800"}',
        '\u0000',
        'null',
        '[]',
        '1',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
    {
      weight: 1,
      arbitrary: fc
        .dictionary(hostileText, hostileText, { maxKeys: 3 })
        .map((form) => new URLSearchParams(form).toString()),
    },
  )
}

const contentType: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'application/json; charset=utf-16',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=fuzz',
      'application/octet-stream',
      'application/xml',
      '*/*',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.constant(null) },
)

function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    // A lone surrogate has no UTF-8 encoding; send the bytes an encoder would have refused to write.
    return '%ED%A0%80'
  }
}

const pathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileText.map(encodeSegment) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%ZZ',
      '%E0%A4%A',
      '%C0%80',
      '%ED%A0%80',
      '%FF',
      '%2F',
      '%2e%2e',
      '..',
      '.',
      'a%2Fb',
      '%00',
      '%20',
    ),
  },
)

const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileText.map(encodeSegment) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%ZZ', '%E0%A4%A', '%00', '[1,2]', '{"a":1}', 'a,b,,c', '') },
)

function queryString(route: DocumentedRoute): fc.Arbitrary<string> {
  const name = fc.oneof(
    {
      weight: 4,
      arbitrary: route.queryParams.length ? fc.constantFrom(...route.queryParams) : hostileText.map(encodeSegment),
    },
    { weight: 1, arbitrary: hostileText.map(encodeSegment) },
    { weight: 1, arbitrary: fc.constantFrom('include[a]', 'a[]', '__proto__', 'constructor') },
  )
  return fc
    .array(fc.tuple(name, queryValue), { maxLength: 5 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}` : ''))
}

const headerToken = fc.stringMatching(/^[!-~]{0,80}$/)

function requestFor(route: DocumentedRoute): fc.Arbitrary<FuzzRequest> {
  const segments = fc.tuple(...route.pathParams.map(() => pathSegment))
  const takesBody = route.method !== 'GET' && route.method !== 'HEAD'
  return fc
    .record({
      segments,
      query: queryString(route),
      method: fc.oneof(
        { weight: 19, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'POST') },
      ),
      body: takesBody
        ? fc.oneof(
            { weight: 40, arbitrary: bodyText(route) },
            { weight: 1, arbitrary: fc.constant(null) },
            { weight: 1, arbitrary: fc.constant({ oversizedBytes: 1024 * 1024 + 1 + 4096 }) },
          )
        : fc.constant(null),
      contentType,
      chunked: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
      sharedClient: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
      authorization: fc.option(
        fc.oneof(
          headerToken.map((token) => `Bearer ${token}`),
          headerToken,
        ),
        { freq: 8 },
      ),
      requestId: fc.option(headerToken, { freq: 8 }),
      // The MCP transport wants both; other routes mostly get no Accept header at all.
      accept:
        route.path === MCP_PATH
          ? fc.oneof(
              { weight: 4, arbitrary: fc.constant('application/json, text/event-stream') },
              { weight: 1, arbitrary: fc.constantFrom('application/json', '*/*') },
            )
          : fc.option(fc.constantFrom('application/json', 'application/jose', '*/*', 'text/html'), { freq: 2 }),
    })
    .map(
      ({
        segments,
        query,
        method,
        body,
        contentType: type,
        chunked,
        sharedClient,
        authorization,
        requestId,
        accept,
      }) => {
        let path = route.path
        route.pathParams.forEach((name, index) => {
          path = path.replace(`{${name}}`, segments[index] || 'x')
        })
        const headers: Record<string, string> = {}
        if (authorization !== null) headers.authorization = authorization
        if (requestId !== null) headers['x-request-id'] = requestId
        if (accept !== null) headers.accept = accept
        const sendsBody = method !== 'GET' && method !== 'HEAD' && body !== null
        return {
          method,
          route: `${route.method} ${route.path}`,
          target: `${path}${query}`,
          contentType: sendsBody ? type : null,
          body: sendsBody ? body : null,
          chunked,
          sharedClient,
          headers,
        }
      },
    )
}

/** One arbitrary over every documented route, each route as likely as any other. */
export function fuzzRequests(routes: DocumentedRoute[]): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...routes.map(requestFor))
}

// ---------------------------------------------------------------------------------------------------------------
// Sending and judging

let clientCounter = 0

function buildRequest(spec: FuzzRequest): Request {
  const headers = new Headers(spec.headers)
  if (spec.contentType !== null) headers.set('content-type', spec.contentType)
  clientCounter++
  headers.set(
    'x-forwarded-for',
    spec.sharedClient
      ? '198.51.100.77'
      : `10.${(clientCounter >> 16) & 255}.${(clientCounter >> 8) & 255}.${clientCounter & 255}`,
  )
  let body: BodyInit | null = null
  if (spec.body !== null) {
    const bytes =
      typeof spec.body === 'string'
        ? new TextEncoder().encode(spec.body)
        : new Uint8Array(spec.body.oversizedBytes).fill(0x20)
    body = spec.chunked
      ? new ReadableStream<Uint8Array>({
          start(controller) {
            for (let offset = 0; offset < bytes.length; offset += 64 * 1024)
              controller.enqueue(bytes.subarray(offset, offset + 64 * 1024))
            controller.close()
          },
        })
      : bytes
  }
  return new Request(`http://localhost${spec.target}`, {
    method: spec.method,
    headers,
    body,
    duplex: 'half',
  } as RequestInit)
}

/** The codes and envelopes of the app the fuzz runs against: every feature's. */
const APP_ERRORS = featureErrors(FEATURES)

const ARD_ERROR_CODES = new Set([
  'INVALID_ARGUMENT',
  'UNAUTHENTICATED',
  'NOT_FOUND',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
])

/** Why a response breaks the rules, or null. */
const API_PAGE_PATHS = new Set(['/api', '/api/'])

export function judge(pathname: string, response: Response, text: string): string | null {
  if (response.status >= 500) return `status ${response.status}`
  if (!response.headers.get('x-request-id')) return 'no x-request-id'
  if (response.status < 400) return null
  // A `..` segment can walk a request out of the API onto the human API page (/api, plugins/web), whose errors
  // are HTML pages by design.
  if (API_PAGE_PATHS.has(pathname) && response.headers.get('content-type')?.startsWith('text/html')) return null
  let body: Record<string, unknown>
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    return 'a 4xx body that is not JSON'
  }
  if (typeof body !== 'object' || body === null) return 'a 4xx body that is not an object'
  // The MCP transport answers protocol errors (406 Accept, 405 GET/DELETE, JSON-RPC parse errors) as JSON-RPC.
  if (
    pathname === MCP_PATH &&
    body.jsonrpc === '2.0' &&
    typeof (body.error as { message?: unknown } | undefined)?.message === 'string'
  )
    return null
  if (APP_ERRORS.envelopeFor(pathname) === ARD_ENVELOPE) {
    if (!ARD_ERROR_CODES.has(body.errorCode as string) || typeof body.message !== 'string')
      return 'not the ARD error envelope'
    return null
  }
  if (
    typeof body.error !== 'string' ||
    typeof body.message !== 'string' ||
    !(typeof body.code === 'string' && APP_ERRORS.codes.has(body.code))
  ) {
    return 'not the error envelope'
  }
  return null
}

const TIMEOUT_MS = 15_000

export async function sendFuzzRequest(app: AppHandle['app'], spec: FuzzRequest): Promise<FuzzOutcome> {
  const request = buildRequest(spec)
  const pathname = new URL(request.url).pathname
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)
  })
  try {
    const response = await Promise.race([app.handle(request), timeout])
    // An event stream that opened is a 200 whose body runs as long as the scan; its head is all we judge.
    const streaming = response.headers.get('content-type')?.startsWith('text/event-stream')
    const text = streaming ? '' : await Promise.race([response.text(), timeout])
    if (streaming) await response.body?.cancel()
    return { status: response.status, problem: judge(pathname, response, text) }
  } catch (error) {
    return { status: 0, problem: `threw: ${error instanceof Error ? error.message : String(error)}` }
  } finally {
    clearTimeout(timer)
  }
}

export interface FuzzReport {
  total: number
  byStatus: Record<string, number>
  failures: { request: FuzzRequest; outcome: FuzzOutcome }[]
}

export function describeFailure({ request, outcome }: FuzzReport['failures'][number]): string {
  const body =
    request.body === null
      ? ''
      : typeof request.body === 'string'
        ? request.body.slice(0, 200)
        : `<${request.body.oversizedBytes} bytes>`
  return `${outcome.problem} (status ${outcome.status}) for ${request.method} ${request.target.slice(0, 200)} [${request.route}] content-type=${request.contentType} chunked=${request.chunked} body=${JSON.stringify(body)}`
}

/** Sends `runs` generated requests, `concurrency` at a time, and counts the answers by status. */
export async function runFuzz(
  app: AppHandle['app'],
  routes: DocumentedRoute[],
  options: { runs: number; seed: number; concurrency?: number },
): Promise<FuzzReport> {
  const requests = fc.sample(fuzzRequests(routes), { numRuns: options.runs, seed: options.seed })
  const report: FuzzReport = { total: 0, byStatus: {}, failures: [] }
  let next = 0
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!
      const outcome = await sendFuzzRequest(app, request)
      report.total++
      report.byStatus[outcome.status] = (report.byStatus[outcome.status] ?? 0) + 1
      if (outcome.problem) report.failures.push({ request, outcome })
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker))
  return report
}
