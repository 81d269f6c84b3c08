/**
 * What one MCP server looked like to the scanner: the handshake and lists through the SDK client, plus raw HTTP
 * exchanges for transport conformance (checks.md §6). Read-only: the collector never calls a tool that is not
 * annotated readOnlyHint: true.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { type FetchLike, OutboundError } from '../../http/client.ts'
import type { ScanSession } from '../../http/session.ts'
import { guardJsonResponse } from '../../parse/stream.ts'
import { CollectorError, defineCollector } from '../contract.ts'
import { ACCEPT, MCP_INITIALIZE_BODY } from '../lib/discovery.ts'
import { MCP_APP_MIME_TYPE, UI_EXTENSION_ID, uiLink } from '../lib/mcp-app.ts'
import { isRecord, looksLikeHtml, mediaType, parseJson } from '../snapshot.ts'


export interface JsonRpcError {
  code: number
  message: string
  data?: unknown
}

/** One raw HTTP exchange with the MCP endpoint. */
export interface McpExchange {
  request: { method: string; headers: Record<string, string>; body?: string }
  /** null when no response arrived (transport failure or timeout: see `error`). */
  status: number | null
  /** Lower-cased media type, '' when absent. */
  contentType: string
  /** Lower-cased header names. */
  headers: Record<string, string>
  /** Every JSON-RPC message read from a JSON body or from the `data:` lines of an SSE body. */
  messages: Record<string, unknown>[]
  /** The message answering the request's id, if one came back. */
  response?: { result?: unknown; error?: JsonRpcError }
  /** For SSE bodies: events were found but some `data:` line was not JSON. */
  sseMalformed?: boolean
  /** The body is an HTML page. */
  html: boolean
  /** Raw body, capped at 16 KiB. */
  body: string
  durationMs: number
  error?: string
}

export interface McpTool {
  name: string
  title?: string
  description?: string
  inputSchema?: unknown
  outputSchema?: unknown
  annotations?: Record<string, unknown>
  _meta?: Record<string, unknown>
  /** The raw entry, for checks that judge malformed tools. */
  raw: unknown
}

export interface McpResource {
  uri: string
  name?: string
  mimeType?: string
  _meta?: Record<string, unknown>
  raw: unknown
}

export interface McpPrompt {
  name: string
  description?: string
  raw: unknown
}

/** A paginated list call, followed through `nextCursor` (at most 20 pages). */
export interface McpList<T> {
  /** The capability was declared in initialize (or discover). */
  declared: boolean
  items: T[]
  pages: number
  /** A JSON-RPC error or transport failure on some page. */
  error?: JsonRpcError | string
  /** A `nextCursor` repeated: the chain loops. */
  cursorLoop: boolean
  /** Item keys (tool names, resource URIs) that appeared on more than one page. */
  duplicatesAcrossPages: string[]
  /** The chain still had a `nextCursor` after the 20th page: reading stopped there. */
  truncated?: boolean
}

export interface McpServerArtifact {
  url: string
  /** `legacy`: initialize handshake (2025-03-26 … 2025-11-25); `modern`: stateless 2026-07-28 (`server/discover`). */
  era: 'legacy' | 'modern'
  /** Only the deprecated HTTP+SSE transport (2024-11-05) answered. */
  legacySseOnly: boolean
  initialize: McpExchange
  /** The initialize result (legacy) or the discover result mapped to the same fields (modern); null on failure. */
  handshake: {
    protocolVersion?: unknown
    capabilities?: Record<string, unknown>
    serverInfo?: Record<string, unknown>
    instructions?: unknown
  } | null
  /** The protocol version the scanner asked for. */
  requestedVersion: string
  /** Why no handshake was established when `handshake` is null, or why the SDK refused an answer it got. */
  handshakeError?: string
  sessionId: string | null
  /** notifications/initialized (legacy only). */
  initialized: McpExchange | null
  /** server/discover (always probed; a legacy server answering -32601 is expected). */
  discover: McpExchange
  tools: McpList<McpTool>
  resources: McpList<McpResource>
  prompts: McpList<McpPrompt>
  /** ping (null for modern-only servers: removed in 2026-07-28). */
  ping: McpExchange | null
  probes: {
    /** A request carrying `MCP-Protocol-Version: 1999-01-01`. */
    bogusVersionHeader: McpExchange
    /** A request carrying the negotiated version header. */
    correctVersionHeader: McpExchange
    /** Method `foo/bar`. */
    unknownMethod: McpExchange
    /** tools/call of a tool that does not exist. */
    unknownTool: McpExchange
    /** resources/read of `x-unknown://nope`. */
    unknownResource: McpExchange
    /** A body that is not JSON. */
    malformedJson: McpExchange
    /** tools/list with cursor `invalid!!`. */
    invalidCursor: McpExchange
    /** GET with `Accept: text/event-stream`. */
    getStream: McpExchange
    /** A request POSTed without the `Accept: application/json, text/event-stream` header. */
    postWithoutAccept: McpExchange
    /** When a session id was issued: a request without it, one with it, and DELETE with it. */
    withoutSession: McpExchange | null
    withSession: McpExchange | null
    deleteSession: McpExchange | null
  }
  /** ui:// (or legacy-key) resources referenced by tools, read directly by URI. */
  uiResources: {
    uri: string
    toolNames: string[]
    read: McpExchange
    contents: { uri?: string; mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> }[]
  }[]
  /** Deep mode: tools annotated readOnlyHint true with no required arguments, called once each (at most 3). */
  toolCalls: { name: string; exchange: McpExchange; result?: { content?: unknown[]; structuredContent?: unknown; isError?: boolean } }[]
  /** `WWW-Authenticate` challenges and `resource_metadata` seen on any exchange (partial protection). */
  challenges: { status: number; header: string }[]
}

// ---------------------------------------------------------------------------------------------------------
// Protocol constants

/** What the SDK (and so the legacy handshake) asks for: 2025-11-25. */
const MCP_LEGACY_VERSION: string = LATEST_PROTOCOL_VERSION
/** The stateless revision (checks.md §6.2): no initialize, no session, `server/discover`, `_meta` per request. */
const MCP_MODERN_VERSION = '2026-07-28'

/**
 * Every client of the scanner meets an endpoint as endpoint discovery does: the same client info and capabilities
 * (a host that renders MCP Apps, so that servers showing UI tools only to such hosts show them).
 */
const INITIALIZE = JSON.parse(MCP_INITIALIZE_BODY) as {
  id: number
  params: { clientInfo: { name: string; version: string }; capabilities: { extensions?: Record<string, object> } }
}
const CLIENT_INFO = INITIALIZE.params.clientInfo
const CLIENT_CAPABILITIES = INITIALIZE.params.capabilities
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MCP_MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': CLIENT_CAPABILITIES,
}
/** UnsupportedProtocolVersion, HeaderMismatch, MissingRequiredClientCapability: only a 2026-07-28 server sends these. */
const MODERN_ERROR_CODES = new Set([-32022, -32020, -32021])
/** Statuses after which a client may try the deprecated HTTP+SSE transport (checks.md §6.3, back-compat). */
const SSE_FALLBACK_STATUSES = new Set([400, 404, 405])

/**
 * One exchange (headers and body) at most: a server that hangs costs this much per exchange and no more. The
 * scanner's own timeout applies when shorter.
 */
export const MCP_EXCHANGE_TIMEOUT_MS = 8_000
/** The whole collection, under the runner's per-check timeout so that a slow server still yields an artifact. */
const COLLECT_BUDGET_MS = 35_000
/** Bodies kept in the artifact (characters). */
const STORED_BODY_CHARS = 16 * 1024
/** Bodies read for parsing (characters): lists and UI documents are larger than what is stored. */
const READ_CHARS = 1024 * 1024
const MAX_MESSAGES = 50
const MAX_PAGES = 20
const MAX_UI_RESOURCES = 10
const MAX_TOOL_CALLS = 3
const UNKNOWN_TOOL = 'agent-readiness-probe-no-such-tool'

/** Time bounds of a conversation: each exchange, and everything together. */
export interface Limits {
  timeoutMs: number
  budget: AbortSignal
}

// ---------------------------------------------------------------------------------------------------------
// Raw exchanges

interface Outgoing {
  method: 'POST' | 'GET' | 'DELETE'
  headers: Record<string, string>
  body?: string
  /** The JSON-RPC id of the request: its response ends the read, since an SSE stream may stay open after it. */
  id?: string | number
}

type Headersish = ConstructorParameters<typeof Headers>[0]

function lowerHeaders(headers: Headersish): Record<string, string> {
  const record: Record<string, string> = {}
  new Headers(headers).forEach((value, name) => {
    record[name.toLowerCase()] = value
  })
  return record
}

function describeError(error: unknown, signal?: AbortSignal): string {
  if (signal?.aborted) return 'no complete answer in time (the exchange timed out, or the time budget ran out)'
  if (error instanceof OutboundError) return `${error.code}: ${error.message}`
  if (error instanceof McpError) return error.message
  return error instanceof Error ? error.message : String(error)
}

/**
 * The JSON-RPC messages of a JSON body or of the `data:` of each SSE event; `malformed` when an event's data is not
 * JSON. An SSE body read only in part (`ended` false) may stop inside an event, which is then left out.
 */
function parseMessages(text: string, sse: boolean, ended: boolean): { messages: Record<string, unknown>[]; malformed: boolean } {
  const messages: Record<string, unknown>[] = []
  const take = (value: unknown): void => {
    for (const item of Array.isArray(value) ? value : [value]) if (isRecord(item)) messages.push(item)
  }
  if (!sse) {
    take(parseJson(text))
    return { messages, malformed: false }
  }
  let malformed = false
  let data: string[] = []
  const flush = (): void => {
    const joined = data.join('\n')
    data = []
    // An event with empty data carries no message: resumable servers open streams with such a priming event (an id only).
    if (joined.trim() === '') return
    const value = parseJson(joined)
    if (value === undefined) malformed = true
    else take(value)
  }
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') flush()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  if (ended) flush()
  return { messages, malformed }
}

function rpcError(value: unknown): JsonRpcError {
  const error = isRecord(value) ? value : {}
  return {
    // NaN says the server sent an error without a numeric code.
    code: typeof error.code === 'number' ? error.code : Number.NaN,
    message: typeof error.message === 'string' ? error.message : '',
    ...(error.data !== undefined ? { data: error.data } : {}),
  }
}

/**
 * The response to `id`. A response with a null id answers too: one request travels per POST, and a server that
 * rejects it before reading its id (bad header, bad JSON) answers with null.
 */
function responseTo(messages: Record<string, unknown>[], id: string | number | undefined): McpExchange['response'] {
  const message = messages.find(
    (candidate) => ('result' in candidate || 'error' in candidate) && (id === undefined || candidate.id === id || candidate.id === null),
  )
  if (!message) return undefined
  return 'error' in message ? { error: rpcError(message.error) } : { result: message.result }
}

/** The end of the last complete SSE event (a blank line) in `text`, searching from `from`; -1 when there is none. */
function lastEventEnd(text: string, from: number): number {
  const boundary = /\n\r?\n/g
  boundary.lastIndex = from
  let end = -1
  for (let match = boundary.exec(text); match; match = boundary.exec(text)) end = match.index + match[0].length
  return end
}

/**
 * Reads a body up to READ_CHARS, stopping once an SSE stream carried the awaited response; aborting cancels the read.
 * Each complete event is parsed once, as it completes: re-parsing the whole text on every chunk would cost a server
 * trickling bytes quadratic time.
 */
async function readBody(
  body: ReadableStream<Uint8Array> | null,
  sse: boolean,
  id: string | number | undefined,
  signal: AbortSignal,
): Promise<{ text: string; ended: boolean; error?: string }> {
  if (!body) return { text: '', ended: true }
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const cancel = (): void => {
    reader.cancel().catch(() => {})
  }
  signal.addEventListener('abort', cancel, { once: true })
  if (signal.aborted) cancel()
  let text = ''
  /** Text before this index is whole events already looked at. */
  let checked = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return signal.aborted ? { text, ended: false, error: describeError(signal.reason, signal) } : { text: text + decoder.decode(), ended: true }
      const searchFrom = Math.max(checked, text.length - 2)
      text += decoder.decode(value, { stream: true })
      if (text.length >= READ_CHARS) return { text: text.slice(0, READ_CHARS), ended: false, error: `body passed ${READ_CHARS} characters; read stopped` }
      if (sse && id !== undefined) {
        const end = lastEventEnd(text, searchFrom)
        if (end === -1) continue
        const answered = responseTo(parseMessages(text.slice(checked, end), true, true).messages, id)
        checked = end
        if (answered) return { text, ended: false }
      }
    }
  } catch (error) {
    return { text, ended: false, error: describeError(error, signal) }
  } finally {
    signal.removeEventListener('abort', cancel)
    cancel()
  }
}

function recordedRequest(outgoing: Outgoing): McpExchange['request'] {
  return {
    method: outgoing.method,
    headers: outgoing.headers,
    ...(outgoing.body !== undefined ? { body: outgoing.body.slice(0, STORED_BODY_CHARS) } : {}),
  }
}

function failedExchange(outgoing: Outgoing, error: string, started: number): McpExchange {
  return {
    request: recordedRequest(outgoing),
    status: null,
    contentType: '',
    headers: {},
    messages: [],
    html: false,
    body: '',
    durationMs: Math.round(performance.now() - started),
    error,
  }
}

/** Turns a response into an exchange; `headersOnly` leaves an SSE stream unread (a GET stream never ends by itself). */
async function describeResponse(
  outgoing: Outgoing,
  response: { status: number; headers: Headers; body: ReadableStream<Uint8Array> | null },
  signal: AbortSignal,
  started: number,
  headersOnly = false,
): Promise<McpExchange> {
  const contentType = mediaType(response.headers.get('content-type'))
  const sse = contentType === 'text/event-stream'
  let read: Awaited<ReturnType<typeof readBody>>
  if (headersOnly && sse) {
    await response.body?.cancel().catch(() => {})
    read = { text: '', ended: false }
  } else {
    read = await readBody(response.body, sse, outgoing.id, signal)
  }
  const { messages, malformed } = parseMessages(read.text, sse, read.ended)
  const answer = responseTo(messages, outgoing.id)
  return {
    request: recordedRequest(outgoing),
    status: response.status,
    contentType,
    headers: lowerHeaders(response.headers),
    messages: messages.slice(0, MAX_MESSAGES),
    ...(answer ? { response: answer } : {}),
    ...(sse && malformed ? { sseMalformed: true } : {}),
    html: contentType === 'text/html' || looksLikeHtml(read.text),
    body: read.text.slice(0, STORED_BODY_CHARS),
    durationMs: Math.round(performance.now() - started),
    ...(read.error ? { error: read.error } : {}),
  }
}

/** One raw exchange through the scan session: streamed (never memoised), bounded in time by its own timeout and the budget. */
async function send(http: ScanSession, url: string, outgoing: Outgoing, limits: Limits, headersOnly = false): Promise<McpExchange> {
  const started = performance.now()
  const signal = AbortSignal.any([limits.budget, AbortSignal.timeout(limits.timeoutMs)])
  let response: Response
  try {
    response = await http.stream(url, {
      method: outgoing.method,
      headers: outgoing.headers,
      ...(outgoing.body !== undefined ? { body: outgoing.body } : {}),
      timeoutMs: limits.timeoutMs,
      signal,
    })
  } catch (error) {
    return failedExchange(outgoing, describeError(error, signal), started)
  }
  return describeResponse(outgoing, response, signal, started, headersOnly)
}

/** A call's outcome as list collection sees it: a result, or a JSON-RPC error, or why nothing usable came back. */
export type CallOutcome = { result: unknown; error?: undefined } | { result?: undefined; error: JsonRpcError | string }
export type Call = (method: ListMethod, params: Record<string, unknown>) => Promise<CallOutcome>

function outcomeOf(exchange: McpExchange): CallOutcome {
  if (exchange.response?.error) return { error: exchange.response.error }
  if (exchange.response) return { result: exchange.response.result }
  if (exchange.error) return { error: exchange.error }
  return { error: `HTTP ${exchange.status ?? 'no status'} without a JSON-RPC response${exchange.html ? ' (an HTML page)' : ''}` }
}

interface RequestOptions {
  /** Leave the session id out (a legacy session probe). */
  withoutSession?: boolean
  /** The MCP-Protocol-Version header to send instead of the negotiated one. */
  version?: string
  accept?: string
  /** A body sent as is instead of the JSON-RPC request (malformed JSON). */
  rawBody?: string
}

/**
 * Raw JSON-RPC over one MCP endpoint, with the headers a client of the endpoint's era sends: legacy requests carry
 * the session id and negotiated `MCP-Protocol-Version`; modern ones `MCP-Protocol-Version: 2026-07-28`, `Mcp-Method`,
 * `Mcp-Name` and the client's `_meta` (checks.md §6.2).
 */
export class McpWire {
  era: McpServerArtifact['era'] = 'legacy'
  sessionId: string | null = null
  protocolVersion: string | null = null
  private nextId = 0

  constructor(
    private readonly http: ScanSession,
    readonly url: string,
    private readonly limits: Limits,
  ) {}

  /** Takes over a legacy session: later requests carry its id and negotiated version. */
  adopt(sessionId: string | null, protocolVersion: unknown): void {
    this.sessionId = sessionId
    this.protocolVersion = typeof protocolVersion === 'string' ? protocolVersion : MCP_LEGACY_VERSION
  }

  /** The legacy handshake's first request, raw, exactly as endpoint discovery sends it (kind detection). */
  initialize(): Promise<McpExchange> {
    return this.send({ method: 'POST', headers: this.legacyHeaders(), body: MCP_INITIALIZE_BODY, id: INITIALIZE.id })
  }

  /** `server/discover` as a 2026-07-28 client sends it, whatever the endpoint's era. */
  discover(options: Pick<RequestOptions, 'version' | 'accept'> = {}): Promise<McpExchange> {
    return this.send({ method: 'POST', ...this.modernRequest('server/discover', {}, options) })
  }

  request(method: string, params: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<McpExchange> {
    if (this.era === 'modern') return this.send({ method: 'POST', ...this.modernRequest(method, params, options) })
    return this.post(method, params, options)
  }

  readonly call: Call = async (method, params) => outcomeOf(await this.request(method, params))

  notify(method: string): Promise<McpExchange> {
    return this.send({ method: 'POST', headers: this.legacyHeaders(), body: JSON.stringify({ jsonrpc: '2.0', method }) })
  }

  /** GET with `Accept: text/event-stream`, read up to the headers. */
  openStream(): Promise<McpExchange> {
    const headers = this.era === 'modern' ? { 'mcp-protocol-version': MCP_MODERN_VERSION } : this.legacyHeaders()
    delete headers['content-type']
    return this.send({ method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }, true)
  }

  endSession(): Promise<McpExchange> {
    const headers = this.legacyHeaders()
    delete headers['content-type']
    return this.send({ method: 'DELETE', headers })
  }

  private send(outgoing: Outgoing, headersOnly = false): Promise<McpExchange> {
    return send(this.http, this.url, outgoing, this.limits, headersOnly)
  }

  private post(method: string, params: Record<string, unknown>, options: RequestOptions): Promise<McpExchange> {
    const id = this.id()
    const body = options.rawBody ?? JSON.stringify({ jsonrpc: '2.0', id, method, params })
    return this.send({ method: 'POST', headers: this.legacyHeaders(options), body, ...(options.rawBody === undefined ? { id } : {}) })
  }

  private legacyHeaders(options: RequestOptions = {}): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: options.accept ?? ACCEPT.mcp }
    if (this.sessionId && !options.withoutSession) headers['mcp-session-id'] = this.sessionId
    const version = options.version ?? this.protocolVersion
    if (version) headers['mcp-protocol-version'] = version
    return headers
  }

  private modernRequest(method: string, params: Record<string, unknown>, options: RequestOptions): Omit<Outgoing, 'method'> {
    const id = this.id()
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: options.accept ?? ACCEPT.mcp,
      'mcp-protocol-version': options.version ?? MCP_MODERN_VERSION,
      'mcp-method': method,
    }
    // 2026-07-28 servers reject a request whose Mcp-Name header does not repeat the named tool, prompt or resource.
    const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined
    if (typeof name === 'string') headers['mcp-name'] = name
    if (options.rawBody !== undefined) return { headers, body: options.rawBody }
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } })
    return { headers, body, id }
  }

  private id(): string {
    this.nextId += 1
    return `ar-${this.nextId}`
  }
}

// ---------------------------------------------------------------------------------------------------------
// The SDK client (legacy handshake and lists)

const RECORDED_METHODS = new Set(['initialize', 'notifications/initialized'])

/**
 * The SDK's fetch, wrapped: the handshake requests the SDK sends are recorded as raw exchanges (the SDK keeps
 * status, headers and body to itself), reading a tee of the body so that the SDK reads its own copy untouched.
 */
class HandshakeRecorder {
  private readonly recorded = new Map<string, Promise<McpExchange>>()

  constructor(
    private readonly inner: FetchLike,
    private readonly limits: Limits,
  ) {}

  get(method: string): Promise<McpExchange> | undefined {
    return this.recorded.get(method)
  }

  readonly fetch: FetchLike = async (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : undefined
    const message = body === undefined ? undefined : parseJson(body)
    const method = isRecord(message) && typeof message.method === 'string' ? message.method : undefined
    // First come only: the SSE fallback's initialize travels inside a stream and says nothing about the endpoint.
    if (method === undefined || !RECORDED_METHODS.has(method) || this.recorded.has(method)) return this.inner(input, init)
    const id = isRecord(message) && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined
    const outgoing: Outgoing = {
      method: 'POST',
      headers: lowerHeaders(init?.headers),
      ...(body !== undefined ? { body } : {}),
      ...(id !== undefined ? { id } : {}),
    }
    const started = performance.now()
    const signal = AbortSignal.any([this.limits.budget, AbortSignal.timeout(this.limits.timeoutMs)])
    const split = this.inner(input, init).then((response) => {
      const [mine, theirs] = response.body ? response.body.tee() : [null, null]
      return { response, mine, theirs }
    })
    // Recorded from the moment it is sent, so that an unanswered request is recorded as such.
    this.recorded.set(
      method,
      split.then(
        ({ response, mine }) => describeResponse(outgoing, { status: response.status, headers: response.headers, body: mine }, signal, started),
        (error: unknown) => failedExchange(outgoing, describeError(error, signal), started),
      ),
    )
    const { response, theirs } = await split
    const copy = new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers })
    Object.defineProperty(copy, 'url', { value: response.url })
    return copy
  }
}

/** The deprecated HTTP+SSE transport, keeping the negotiated version (the SDK exposes it to transports only). */
class SseTransport extends SSEClientTransport {
  negotiatedVersion?: string

  override setProtocolVersion(version: string): void {
    this.negotiatedVersion = version
    super.setProtocolVersion(version)
  }
}

/**
 * The SDK reads and JSON-parses its responses itself: their bodies pass through the JSON stream guard, so a message
 * nested past MAX_JSON_DEPTH or an SSE event past MAX_SSE_EVENT_BYTES errors the stream (the SDK reports a failed
 * request) before the SDK holds it. The outbound client's byte cap bounds each body as a whole.
 */
function guardedFetch(fetch: FetchLike): FetchLike {
  return async (input, init) => guardJsonResponse(await fetch(input, init))
}

/** A stream the SDK would resume is not reopened: a scan reads, it does not listen. */
const NO_RECONNECT = { initialReconnectionDelay: 1_000, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1, maxRetries: 0 }

/**
 * Keeps the streamable client from opening its listening GET stream after the handshake: a scan does not listen,
 * and SDK servers allow one such stream per session, which would turn the scanner's own GET probe into a 409.
 * The SDK takes 405 as "this server offers no stream"; nothing is sent.
 */
function withoutListening(fetch: FetchLike): FetchLike {
  return (input, init) => ((init?.method ?? 'GET').toUpperCase() === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init))
}

function newClient(): Client {
  return new Client(CLIENT_INFO, { capabilities: CLIENT_CAPABILITIES })
}

/** Rejects after `ms`: the SDK's own timeouts cover requests, not a transport that never starts. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no handshake within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

function sdkCall(client: Client, limits: Limits): Call {
  return async (method, params) => {
    try {
      // Results are taken as they come: the checks judge malformed lists, which the SDK's schemas would reject.
      return { result: await client.request({ method, params }, z.unknown(), { timeout: limits.timeoutMs, signal: limits.budget }) }
    } catch (error) {
      if (error instanceof McpError) {
        const message = error.message.replace(/^MCP error -?\d+: /, '')
        return { error: { code: error.code, message, ...(error.data !== undefined ? { data: error.data } : {}) } }
      }
      return { error: describeError(error) }
    }
  }
}

type Handshake = NonNullable<McpServerArtifact['handshake']>

function handshakeOf(result: unknown): Handshake | null {
  if (!isRecord(result)) return null
  return {
    protocolVersion: result.protocolVersion,
    ...(isRecord(result.capabilities) ? { capabilities: result.capabilities } : {}),
    ...(isRecord(result.serverInfo) ? { serverInfo: result.serverInfo } : {}),
    ...(result.instructions !== undefined ? { instructions: result.instructions } : {}),
  }
}

/** A `server/discover` result in the initialize result's shape (checks.md §6.2). */
export function handshakeOfDiscover(result: unknown): Handshake | null {
  if (!isRecord(result)) return null
  const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions : []
  const meta = isRecord(result._meta) ? result._meta : {}
  const serverInfo = meta['io.modelcontextprotocol/serverInfo'] ?? result.serverInfo
  return {
    protocolVersion: versions.includes(MCP_MODERN_VERSION) ? MCP_MODERN_VERSION : versions[0],
    ...(isRecord(result.capabilities) ? { capabilities: result.capabilities } : {}),
    ...(isRecord(serverInfo) ? { serverInfo } : {}),
    ...(result.instructions !== undefined ? { instructions: result.instructions } : {}),
  }
}

function isModernError(exchange: McpExchange): boolean {
  const code = exchange.response?.error?.code
  return exchange.status === 400 && code !== undefined && MODERN_ERROR_CODES.has(code)
}

interface Connection {
  era: McpServerArtifact['era']
  legacySseOnly: boolean
  initialize: McpExchange
  initialized: McpExchange | null
  handshake: Handshake | null
  handshakeError?: string
  /** How list pages are fetched: the SDK client, or raw requests when there is no SDK session. */
  call: Call
  close(): Promise<void>
}

const notSent = (method: string): McpExchange =>
  failedExchange({ method: 'POST', headers: {} }, `the SDK sent no ${method} request`, performance.now())

/**
 * The handshake (checks.md §6.2): the SDK's streamable HTTP client first; a modern error on initialize, or a failed
 * initialize that `server/discover` answers, makes the endpoint modern; 400/404/405 leads to the HTTP+SSE
 * transport; a JSON-RPC answer the SDK refused is used raw.
 */
async function connect(http: ScanSession, wire: McpWire, discover: Promise<McpExchange>, limits: Limits): Promise<Connection> {
  const recorder = new HandshakeRecorder(guardedFetch(http.asFetch()), limits)
  const client = newClient()
  const transport = new StreamableHTTPClientTransport(new URL(wire.url), { fetch: withoutListening(recorder.fetch), reconnectionOptions: NO_RECONNECT })
  const refused = await within(client.connect(transport, { timeout: limits.timeoutMs, signal: limits.budget }), limits.timeoutMs + 1_000).then(
    () => undefined,
    (error: unknown) => describeError(error),
  )
  // Closing aborts whatever the SDK still waits for, so that the recorded exchanges settle.
  if (refused !== undefined) await client.close()
  const initialize = (await recorder.get('initialize')) ?? notSent('initialize')
  const initialized = (await recorder.get('notifications/initialized')) ?? null
  const result = initialize.response?.result
  if (refused === undefined) {
    wire.adopt(transport.sessionId ?? null, isRecord(result) ? result.protocolVersion : undefined)
    const handshake = handshakeOf(result)
    return { era: 'legacy', legacySseOnly: false, initialize, initialized, handshake, call: sdkCall(client, limits), close: () => client.close() }
  }
  const failed: Connection = {
    era: 'legacy',
    legacySseOnly: false,
    initialize,
    initialized,
    handshake: null,
    handshakeError: refused,
    call: wire.call,
    close: async () => {},
  }
  if (isModernError(initialize)) return modern(wire, await discover, failed)
  if (isRecord(result)) {
    // A JSON-RPC result the SDK would not take (an unknown version, a missing field): the checks judge it; lists go raw.
    wire.adopt(initialize.headers['mcp-session-id'] ?? null, result.protocolVersion)
    return { ...failed, initialized: initialized ?? (await wire.notify('notifications/initialized')), handshake: handshakeOf(result) }
  }
  const discovered = await discover
  if (isRecord(discovered.response?.result)) return modern(wire, discovered, failed)
  if (!maySpeakSse(initialize)) return failed
  const sse = await openSse(recorder.fetch, wire.url, limits)
  if (sse.error !== undefined) return { ...failed, handshakeError: `${refused}; HTTP+SSE fallback: ${sse.error}` }
  const sseInitialized = (await recorder.get('notifications/initialized')) ?? null
  return { era: 'legacy', legacySseOnly: true, initialize, initialized: sseInitialized, handshake: sse.handshake, call: sse.call, close: sse.close }
}

/** A 2026-07-28 endpoint: the handshake is the discover result, and the legacy refusal was to be expected. */
function modern(wire: McpWire, discover: McpExchange, failed: Connection): Connection {
  wire.era = 'modern'
  const handshake = handshakeOfDiscover(discover.response?.result)
  const { handshakeError, ...rest } = failed
  return { ...rest, era: 'modern', initialized: null, handshake, ...(handshake ? {} : { handshakeError }) }
}

/** An endpoint answering initialize this way may still speak the deprecated HTTP+SSE transport (checks.md §6.3). */
export function maySpeakSse(initialize: McpExchange): boolean {
  return initialize.status !== null && SSE_FALLBACK_STATUSES.has(initialize.status) && !isModernError(initialize)
}

/** A session over the deprecated HTTP+SSE transport (2024-11-05): GET opens the stream, which names where to POST. */
export async function openSse(
  fetch: FetchLike,
  url: string,
  limits: Limits,
): Promise<{ handshake: Handshake; call: Call; close(): Promise<void>; error?: undefined } | { error: string }> {
  const client = newClient()
  const transport = new SseTransport(new URL(url), { fetch: guardedFetch(fetch) })
  try {
    // Two steps: the stream must name its message endpoint before initialize can be sent.
    await within(client.connect(transport, { timeout: limits.timeoutMs, signal: limits.budget }), limits.timeoutMs * 2)
  } catch (error) {
    await client.close()
    return { error: describeError(error) }
  }
  const capabilities = client.getServerCapabilities()
  const serverInfo = client.getServerVersion()
  const instructions = client.getInstructions()
  return {
    handshake: {
      protocolVersion: transport.negotiatedVersion,
      ...(capabilities ? { capabilities: { ...capabilities } } : {}),
      ...(serverInfo ? { serverInfo: { ...serverInfo } } : {}),
      ...(instructions !== undefined ? { instructions } : {}),
    },
    call: sdkCall(client, limits),
    close: () => client.close(),
  }
}

// ---------------------------------------------------------------------------------------------------------
// Lists

type ListMethod = 'tools/list' | 'resources/list' | 'prompts/list'

const optionalString = <K extends string>(key: K, value: unknown): { [P in K]?: string } =>
  (typeof value === 'string' ? { [key]: value } : {}) as { [P in K]?: string }
const optionalRecord = <K extends string>(key: K, value: unknown): { [P in K]?: Record<string, unknown> } =>
  (isRecord(value) ? { [key]: value } : {}) as { [P in K]?: Record<string, unknown> }

function toTool(raw: unknown): McpTool {
  const entry = isRecord(raw) ? raw : {}
  return {
    name: typeof entry.name === 'string' ? entry.name : '',
    ...optionalString('title', entry.title),
    ...optionalString('description', entry.description),
    ...('inputSchema' in entry ? { inputSchema: entry.inputSchema } : {}),
    ...('outputSchema' in entry ? { outputSchema: entry.outputSchema } : {}),
    ...optionalRecord('annotations', entry.annotations),
    ...optionalRecord('_meta', entry._meta),
    raw,
  }
}

function toResource(raw: unknown): McpResource {
  const entry = isRecord(raw) ? raw : {}
  return {
    uri: typeof entry.uri === 'string' ? entry.uri : '',
    ...optionalString('name', entry.name),
    ...optionalString('mimeType', entry.mimeType),
    ...optionalRecord('_meta', entry._meta),
    raw,
  }
}

function toPrompt(raw: unknown): McpPrompt {
  const entry = isRecord(raw) ? raw : {}
  return { name: typeof entry.name === 'string' ? entry.name : '', ...optionalString('description', entry.description), raw }
}

export const LISTS = {
  tools: { method: 'tools/list', toItem: toTool, keyOf: (tool: McpTool) => tool.name },
  resources: { method: 'resources/list', toItem: toResource, keyOf: (resource: McpResource) => resource.uri },
  prompts: { method: 'prompts/list', toItem: toPrompt, keyOf: (prompt: McpPrompt) => prompt.name },
} as const

/** Follows `nextCursor` for at most MAX_PAGES pages, noting a repeated cursor (a loop) and items repeated across pages. */
export async function collectList<T>(
  call: Call,
  field: keyof typeof LISTS,
  declared: boolean,
  spec: { method: ListMethod; toItem: (raw: unknown) => T; keyOf: (item: T) => string },
): Promise<McpList<T>> {
  const list: McpList<T> = { declared, items: [], pages: 0, cursorLoop: false, duplicatesAcrossPages: [] }
  const earlierPages = new Set<string>()
  const cursors = new Set<string>()
  let cursor: string | undefined
  for (;;) {
    const outcome = await call(spec.method, cursor === undefined ? {} : { cursor })
    if (outcome.error !== undefined) {
      list.error = outcome.error
      break
    }
    const page = isRecord(outcome.result) ? outcome.result[field] : undefined
    if (!Array.isArray(page)) {
      list.error = `the ${spec.method} result has no ${field} array`
      break
    }
    list.pages += 1
    const keys = new Set<string>()
    for (const raw of page) {
      const item = spec.toItem(raw)
      list.items.push(item)
      keys.add(spec.keyOf(item))
    }
    for (const key of keys) if (earlierPages.has(key) && !list.duplicatesAcrossPages.includes(key)) list.duplicatesAcrossPages.push(key)
    for (const key of keys) earlierPages.add(key)
    const next = isRecord(outcome.result) ? outcome.result.nextCursor : undefined
    if (typeof next !== 'string' || next === '') break
    if (cursors.has(next)) {
      list.cursorLoop = true
      break
    }
    if (list.pages >= MAX_PAGES) {
      list.truncated = true
      break
    }
    cursors.add(next)
    cursor = next
  }
  return list
}

// ---------------------------------------------------------------------------------------------------------
// MCP Apps (checks.md §9)

/** Every UI resource URI a tool names: the one hosts render and any other a different key names. */
function uiResourceUris(tool: McpTool): string[] {
  const link = uiLink(tool)
  return link ? [link.uri, ...link.conflicts.map((conflict) => conflict.uri)] : []
}

const isAppMimeType = (mimeType: string | undefined): boolean => mimeType?.replace(/\s+/g, '').toLowerCase() === MCP_APP_MIME_TYPE

/** checks.md §0 step 3: the UI extension declared, a tool linking a UI resource, or a resource of the MCP App type. */
export function isMcpApp(capabilities: Record<string, unknown> | undefined, tools: readonly McpTool[], resources: readonly McpResource[]): boolean {
  const extensions = capabilities?.extensions
  if (isRecord(extensions) && UI_EXTENSION_ID in extensions) return true
  return tools.some((tool) => uiResourceUris(tool).length > 0) || resources.some((resource) => isAppMimeType(resource.mimeType))
}

function contentsOf(exchange: McpExchange): McpServerArtifact['uiResources'][number]['contents'] {
  const result = exchange.response?.result
  const contents = isRecord(result) && Array.isArray(result.contents) ? result.contents : []
  return contents.filter(isRecord).map((content) => ({
    ...optionalString('uri', content.uri),
    ...optionalString('mimeType', content.mimeType),
    ...optionalString('text', content.text),
    ...optionalString('blob', content.blob),
    ...optionalRecord('_meta', content._meta),
  }))
}

async function readUiResources(wire: McpWire, tools: readonly McpTool[]): Promise<McpServerArtifact['uiResources']> {
  const byUri = new Map<string, string[]>()
  for (const tool of tools) for (const uri of uiResourceUris(tool)) byUri.set(uri, [...(byUri.get(uri) ?? []), tool.name])
  const entries = [...byUri].slice(0, MAX_UI_RESOURCES)
  return Promise.all(
    entries.map(async ([uri, toolNames]) => {
      const read = await wire.request('resources/read', { uri })
      return { uri, toolNames, read, contents: contentsOf(read) }
    }),
  )
}

// ---------------------------------------------------------------------------------------------------------
// Read-only tool calls

/** A tool the scanner may call: annotated readOnlyHint true and needing no argument. UI tools first (text fallback). */
function callableTools(tools: readonly McpTool[]): McpTool[] {
  const callable = tools.filter((tool) => {
    if (tool.annotations?.readOnlyHint !== true || !isRecord(tool.inputSchema)) return false
    const required = tool.inputSchema.required
    return required === undefined || (Array.isArray(required) && required.length === 0)
  })
  const ui = callable.filter((tool) => uiResourceUris(tool).length > 0)
  return [...ui, ...callable.filter((tool) => !ui.includes(tool))].slice(0, MAX_TOOL_CALLS)
}

async function callTools(wire: McpWire, tools: readonly McpTool[]): Promise<McpServerArtifact['toolCalls']> {
  return Promise.all(
    callableTools(tools).map(async (tool) => {
      const exchange = await wire.request('tools/call', { name: tool.name, arguments: {} })
      const result = exchange.response?.result
      if (!isRecord(result)) return { name: tool.name, exchange }
      return {
        name: tool.name,
        exchange,
        result: {
          ...(Array.isArray(result.content) ? { content: result.content } : {}),
          ...('structuredContent' in result ? { structuredContent: result.structuredContent } : {}),
          ...(typeof result.isError === 'boolean' ? { isError: result.isError } : {}),
        },
      }
    }),
  )
}

// ---------------------------------------------------------------------------------------------------------
// The collector

/** Conformance probes (checks.md §6.3, §6.4); the session ones only when the server issued a session id. */
async function probe(wire: McpWire, tools: readonly McpTool[]): Promise<Omit<McpServerArtifact['probes'], 'deleteSession'>> {
  const modern = wire.era === 'modern'
  // Legacy servers must answer ping; modern ones have dropped it for server/discover.
  const simple = (options: RequestOptions = {}): Promise<McpExchange> => (modern ? wire.discover(options) : wire.request('ping', {}, options))
  let unknownTool = UNKNOWN_TOOL
  while (tools.some((tool) => tool.name === unknownTool)) unknownTool += '-x'
  const session = wire.sessionId !== null && !modern
  const [
    bogusVersionHeader,
    correctVersionHeader,
    unknownMethod,
    unknownToolCall,
    unknownResource,
    malformedJson,
    invalidCursor,
    getStream,
    postWithoutAccept,
    withoutSession,
    withSession,
  ] = await Promise.all([
    simple({ version: '1999-01-01' }),
    simple(),
    wire.request('foo/bar'),
    wire.request('tools/call', { name: unknownTool, arguments: {} }),
    wire.request('resources/read', { uri: 'x-unknown://nope' }),
    wire.request('tools/list', {}, { rawBody: '{"jsonrpc":"2.0","id":"malformed","method":"tools/list"' }),
    wire.request('tools/list', { cursor: 'invalid!!' }),
    wire.openStream(),
    // What a generic HTTP client sends: the server must still not answer with an HTML page.
    simple({ accept: '*/*' }),
    session ? wire.request('ping', {}, { withoutSession: true }) : null,
    session ? wire.request('ping') : null,
  ])
  return {
    bogusVersionHeader,
    correctVersionHeader,
    unknownMethod,
    unknownTool: unknownToolCall,
    unknownResource,
    malformedJson,
    invalidCursor,
    getStream,
    postWithoutAccept,
    withoutSession,
    withSession,
  }
}

/** Every distinct `WWW-Authenticate` challenge: a public server that still challenges some requests is partly protected. */
function challengesIn(exchanges: readonly (McpExchange | null)[]): McpServerArtifact['challenges'] {
  const challenges: McpServerArtifact['challenges'] = []
  for (const exchange of exchanges) {
    if (exchange === null || exchange.status === null) continue
    const { status } = exchange
    const header = exchange.headers['www-authenticate']
    if (header !== undefined && !challenges.some((seen) => seen.header === header && seen.status === status)) challenges.push({ status, header })
  }
  return challenges
}

/** Everything read over an established connection: the lists, then probes, UI resources and read-only calls. */
async function gather(connection: Connection, wire: McpWire) {
  const capabilities = connection.handshake?.capabilities ?? {}
  const [tools, resources, prompts] = await Promise.all([
    collectList(connection.call, 'tools', 'tools' in capabilities, LISTS.tools),
    collectList(connection.call, 'resources', 'resources' in capabilities, LISTS.resources),
    collectList(connection.call, 'prompts', 'prompts' in capabilities, LISTS.prompts),
  ])
  const [probes, ping, uiResources, toolCalls] = await Promise.all([
    probe(wire, tools.items),
    wire.era === 'modern' ? null : wire.request('ping'),
    readUiResources(wire, tools.items),
    callTools(wire, tools.items),
  ])
  return { tools, resources, prompts, probes, ping, uiResources, toolCalls }
}

export const mcpCollector = defineCollector({
  key: 'mcp',
  async collect(ctx) {
    const url = ctx.target.mcpUrl
    if (!url) throw new CollectorError('no MCP endpoint: the target has no mcpUrl')
    const limits = { timeoutMs: Math.min(ctx.config.scanner.timeoutMs, MCP_EXCHANGE_TIMEOUT_MS), budget: AbortSignal.timeout(COLLECT_BUDGET_MS) }
    const wire = new McpWire(ctx.http, url, limits)
    // Always probed, and independent of the legacy session: a legacy server's -32601 (or 400) is expected.
    const discover = wire.discover()
    const connection = await connect(ctx.http, wire, discover, limits)
    // The SDK client is done before the session ends, so that it never sees the session vanish.
    const { probes, ...gathered } = await gather(connection, wire).finally(() => connection.close())
    const deleteSession = probes.withSession ? await wire.endSession() : null
    const discovered = await discover
    const exchanges = [
      connection.initialize,
      connection.initialized,
      discovered,
      gathered.ping,
      ...Object.values(probes),
      deleteSession,
      ...gathered.uiResources.map((resource) => resource.read),
      ...gathered.toolCalls.map((call) => call.exchange),
    ]
    return {
      url,
      era: connection.era,
      legacySseOnly: connection.legacySseOnly,
      initialize: connection.initialize,
      handshake: connection.handshake,
      requestedVersion: connection.era === 'modern' ? MCP_MODERN_VERSION : MCP_LEGACY_VERSION,
      ...(connection.handshakeError ? { handshakeError: connection.handshakeError } : {}),
      sessionId: wire.sessionId,
      initialized: connection.initialized,
      discover: discovered,
      ...gathered,
      probes: { ...probes, deleteSession },
      challenges: challengesIn(exchanges),
    }
  },
})
