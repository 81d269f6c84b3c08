import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { pipeline, type Readable, type Transform } from 'node:stream'
import zlib from 'node:zlib'
import type { Config } from '../config.ts'
import type { RequestSigner } from '../crypto/web-bot-auth.ts'
import { parseBoundedJson } from '../parse/bounded.ts'
import { type CheckedDestination, checkDestination, EgressRefusal, errorText } from './egress-guard.ts'

/**
 * The only way the service reaches a scan target. Every hop of every request resolves DNS once, refuses
 * non-public addresses (unless SCANNER_ALLOW_PRIVATE), and connects to exactly the address it checked, so
 * a DNS answer that changes between check and connect (rebinding) cannot slip through. Bodies are decoded
 * here and capped after decoding, so a compression bomb stops at the cap.
 */

export type OutboundErrorCode =
  | 'INVALID_URL'
  | 'BLOCKED_ADDRESS'
  | 'DNS_FAILURE'
  | 'TIMEOUT'
  | 'TOO_MANY_REDIRECTS'
  | 'CONNECTION_FAILED'
  | 'TLS_FAILURE'
  | 'UNSUPPORTED_SCHEME'
  /** Only from `stream()`: a streamed body cannot be cut short silently, so passing the cap is an error. */
  | 'BODY_TOO_LARGE'

/** A byte allowance shared by several requests (see RequestOptions.budget). */
export interface ByteBudget {
  remaining: number
}

export interface RedirectHop {
  url: string
  status: number
}

export class OutboundError extends Error {
  override readonly name = 'OutboundError'
  /** The redirects followed before the failure; the whole chain for TOO_MANY_REDIRECTS. */
  readonly redirects: RedirectHop[]

  constructor(
    readonly code: OutboundErrorCode,
    readonly url: string,
    message: string,
    options: { cause?: unknown; redirects?: RedirectHop[] } = {},
  ) {
    super(message, { cause: options.cause })
    this.redirects = options.redirects ?? []
  }
}

export interface RequestOptions {
  method?: string
  headers?: Readonly<Record<string, string>>
  /**
   * Headers for the requested URL's origin only (a token the user gave for their own server): sent on every hop while
   * the redirects stay on that origin, dropped for good at the first hop that leaves it, whatever their names. `headers`
   * win over them, so a probe that sends its own credentials keeps them.
   */
  originHeaders?: Readonly<Record<string, string>>
  body?: string | Uint8Array
  /** For `request()`, the whole call (every hop and the body); for `stream()`, until the headers arrive. */
  timeoutMs?: number
  /** Cap on the decoded body; 0 reads none of it (a probe that judges the headers only). */
  maxBytes?: number
  /**
   * Bytes left to read across many requests (a scan's budget, shared by every request of the scan): each decoded
   * chunk is taken from it as it arrives; once it is spent, `request()` cuts the body (`truncated`) and `stream()`
   * fails with BODY_TOO_LARGE.
   */
  budget?: ByteBudget
  /** `follow` (default) follows up to 5 redirects, checking every hop; `manual` returns the 3xx itself. */
  redirect?: 'follow' | 'manual'
  /** Web Bot Auth signature on every hop; default true when the client has a signer. */
  sign?: boolean
  signal?: AbortSignal
}

export interface FetchResult {
  /** Final URL, after redirects. */
  url: string
  requestedUrl: string
  status: number
  /** As the server sent them (Content-Encoding included, although `body` is decoded). */
  headers: Headers
  /** Decoded body, at most `maxBytes`. */
  body: Uint8Array
  truncated: boolean
  redirects: RedirectHop[]
  /** The address the final response came from. */
  remoteAddress: string
  durationMs: number
  /** The body as text: BOM, then the declared charset, then UTF-8; malformed bytes become U+FFFD. */
  text(): string
  /** The body parsed as JSON; throws a SyntaxError naming the URL when it is not JSON or nests past MAX_JSON_DEPTH. */
  json<T = unknown>(): T
}

/** What `@modelcontextprotocol/sdk` transports accept as their `fetch` option. */
export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

export interface OutboundClient {
  /** Whether requests are signed (a SIGNING_KEY exists); without a signer, `sign` changes nothing. */
  readonly signs: boolean
  request(url: string | URL, options?: RequestOptions): Promise<FetchResult>
  /** A web Response whose body streams (SSE, MCP); the timeout covers connect and headers only. */
  stream(url: string | URL, options?: RequestOptions): Promise<Response>
  /** A `fetch` built on `stream()`, for libraries that take a custom fetch. */
  asFetch(): FetchLike
}

const MAX_REDIRECTS = 5
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])
/** Headers the caller cannot set: the client derives them from the URL and the body. */
const MANAGED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection'])
/** Credentials do not follow a redirect to another origin (as in the Fetch standard). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization']
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location', 'content-digest']

export function createOutboundClient(config: Pick<Config, 'scanner'>, signer: RequestSigner | null): OutboundClient {
  return new Outbound(config.scanner, signer)
}

/** Adapts a stream function to the `fetch` signature, accepting Request objects and every body type fetch does. */
export function fetchAdapter(stream: (url: string, options: RequestOptions) => Promise<Response>): FetchLike {
  return async (input, init) => {
    // Request normalises every input form (string, URL, Request + init) exactly as fetch would.
    const request = new Request(input, init)
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined
    const response = await stream(request.url, {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body,
      redirect: request.redirect === 'follow' ? 'follow' : 'manual',
      signal: request.signal,
    })
    if (request.redirect === 'error' && REDIRECT_STATUSES.has(response.status)) {
      await response.body?.cancel()
      throw new TypeError(`fetch ${request.url}: redirect refused (redirect: "error")`)
    }
    return response
  }
}

interface Hop {
  url: URL
  method: string
  headers: Record<string, string>
  body: Uint8Array | undefined
  /** Lower-cased names of the originHeaders still on this hop: removed together when a redirect leaves the origin. */
  originBound: string[]
}

/** A response whose headers have arrived; the body is decoded but not yet read. */
interface Exchange {
  status: number
  statusText: string
  headers: Headers
  /** Null for HEAD and null-body statuses. */
  body: Readable | null
  remoteAddress: string
  /** Releases the connection (destroying it when the body was not read to the end). */
  discard(): void
}

/** Where a URL's bytes go: the URL's own host, or a SCANNER_RESOLVE mapping (always plain http). */
class Outbound implements OutboundClient {
  // Per-client pools: every pooled socket was opened to an address this client checked.
  private readonly agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  }

  constructor(
    private readonly scanner: Config['scanner'],
    private readonly signer: RequestSigner | null,
  ) {}

  get signs(): boolean {
    return this.signer !== null
  }

  asFetch(): FetchLike {
    return fetchAdapter((url, options) => this.stream(url, options))
  }

  async request(url: string | URL, options: RequestOptions = {}): Promise<FetchResult> {
    const started = performance.now()
    const requestedUrl = String(url)
    const deadline = new Deadline(options.timeoutMs ?? this.scanner.timeoutMs, options.signal)
    try {
      const { exchange, finalUrl, redirects } = await this.follow(requestedUrl, options, deadline.signal)
      const maxBytes = options.maxBytes ?? this.scanner.maxBytes
      // maxBytes 0 asks for the headers only: the body is dropped unread (`truncated` says there was one).
      const { body, truncated } =
        exchange.body && maxBytes > 0
          ? await readCapped(exchange.body, maxBytes, deadline.signal, options.budget)
          : { body: new Uint8Array(), truncated: exchange.body !== null }
      exchange.discard()
      return fetchResult({
        url: finalUrl,
        requestedUrl,
        status: exchange.status,
        headers: exchange.headers,
        body,
        truncated,
        redirects,
        remoteAddress: exchange.remoteAddress,
        durationMs: Math.round(performance.now() - started),
      })
    } catch (error) {
      throw deadline.explain(error, requestedUrl)
    } finally {
      deadline.clear()
    }
  }

  async stream(url: string | URL, options: RequestOptions = {}): Promise<Response> {
    const requestedUrl = String(url)
    const deadline = new Deadline(options.timeoutMs ?? this.scanner.timeoutMs, options.signal)
    let result: { exchange: Exchange; finalUrl: string; redirects: RedirectHop[] }
    try {
      result = await this.follow(requestedUrl, options, deadline.signal)
    } catch (error) {
      throw deadline.explain(error, requestedUrl)
    } finally {
      // Headers are in: from here on only the caller's signal can end the stream.
      deadline.clear()
    }
    const { exchange, finalUrl, redirects } = result
    if (exchange.status < 200 || exchange.status > 599) {
      exchange.discard()
      throw new OutboundError(
        'CONNECTION_FAILED',
        finalUrl,
        `${finalUrl} answered with unusable status ${exchange.status}`,
      )
    }
    const body = exchange.body
      ? webStream(exchange, options.maxBytes ?? this.scanner.maxBytes, finalUrl, options.signal, options.budget)
      : null
    if (!body) exchange.discard()
    const response = new Response(body, {
      status: exchange.status,
      statusText: exchange.statusText,
      headers: exchange.headers,
    })
    // A constructed Response has an empty url; fetch users (OAuth discovery, relative links) need the real one.
    Object.defineProperties(response, {
      url: { value: finalUrl },
      redirected: { value: redirects.length > 0 },
    })
    return response
  }

  /** Sends the request and follows redirects, re-checking and re-signing every hop. */
  private async follow(
    requestedUrl: string,
    options: RequestOptions,
    signal: AbortSignal,
  ): Promise<{ exchange: Exchange; finalUrl: string; redirects: RedirectHop[] }> {
    const redirects: RedirectHop[] = []
    const originBound = Object.keys(options.originHeaders ?? {}).map((name) => name.toLowerCase())
    let hop: Hop = {
      url: targetUrl(requestedUrl, requestedUrl, redirects),
      method: (options.method ?? 'GET').toUpperCase(),
      headers: this.initialHeaders({ ...lowerCased(options.originHeaders), ...lowerCased(options.headers) }),
      body: typeof options.body === 'string' ? new TextEncoder().encode(options.body) : options.body,
      originBound: originBound.filter((name) => !Object.keys(lowerCased(options.headers)).includes(name)),
    }
    for (;;) {
      let exchange: Exchange
      try {
        exchange = await this.send(hop, options.sign ?? true, signal)
      } catch (error) {
        // The chain so far tells the caller where a redirect led before it failed.
        if (error instanceof OutboundError && redirects.length > 0) {
          throw new OutboundError(error.code, error.url, error.message, { cause: error.cause, redirects })
        }
        throw error
      }
      const location = exchange.headers.get('location')
      if (options.redirect === 'manual' || !REDIRECT_STATUSES.has(exchange.status) || location === null) {
        return { exchange, finalUrl: hop.url.href, redirects }
      }
      exchange.discard()
      redirects.push({ url: hop.url.href, status: exchange.status })
      if (redirects.length > MAX_REDIRECTS) {
        throw new OutboundError(
          'TOO_MANY_REDIRECTS',
          requestedUrl,
          `${requestedUrl}: more than ${MAX_REDIRECTS} redirects (${redirects.map((r) => `${r.status} ${r.url}`).join(' -> ')})`,
          { redirects },
        )
      }
      hop = redirectedHop(hop, exchange.status, targetUrl(location, hop.url.href, redirects))
    }
  }

  private initialHeaders(given: Readonly<Record<string, string>> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.scanner.userAgent,
      accept: '*/*',
      // Only what this client can decode; see decodedBody.
      'accept-encoding': 'gzip, deflate, br',
    }
    for (const [name, value] of Object.entries(given)) {
      const key = name.toLowerCase()
      if (!MANAGED_HEADERS.has(key)) headers[key] = value
    }
    return headers
  }

  /** One HTTP exchange: route, resolve and check, sign, connect to the checked address, await the headers. */
  private async send(hop: Hop, sign: boolean, signal: AbortSignal): Promise<Exchange> {
    const route = await this.route(hop.url, signal)
    const addresses = route.addresses
    const headers: Record<string, string> = { ...hop.headers, host: hop.url.host }
    if (this.signer && sign) {
      // Signed over the URL the target sees, even when SCANNER_RESOLVE sends the bytes elsewhere.
      Object.assign(headers, this.signer.sign({ method: hop.method, url: hop.url.href, body: hop.body }))
    }
    if (hop.body || !['GET', 'HEAD'].includes(hop.method)) headers['content-length'] = String(hop.body?.byteLength ?? 0)
    // The connection goes to the addresses checked above and nowhere else.
    const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all) callback(null, addresses)
      else callback(null, addresses[0]!.address, addresses[0]!.family)
    }
    signal.throwIfAborted()
    return new Promise<Exchange>((resolve, reject) => {
      const request = (route.tls ? https : http).request({
        host: route.connectHost,
        port: route.port,
        method: hop.method,
        path: `${hop.url.pathname}${hop.url.search}`,
        headers,
        lookup,
        agent: route.tls ? this.agents.https : this.agents.http,
      })
      const onAbort = (): void => {
        request.destroy(signal.reason)
        reject(signal.reason)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      request.on('error', (error) => {
        signal.removeEventListener('abort', onAbort)
        reject(connectionError(error, hop.url.href))
      })
      request.on('response', (response: IncomingMessage) => {
        signal.removeEventListener('abort', onAbort)
        const status = response.statusCode ?? 0
        const hasBody = hop.method !== 'HEAD' && !NULL_BODY_STATUSES.has(status)
        resolve({
          status,
          statusText: response.statusMessage ?? '',
          headers: responseHeaders(response.rawHeaders),
          body: hasBody ? decodedBody(response) : null,
          remoteAddress: response.socket?.remoteAddress ?? request.socket?.remoteAddress ?? addresses[0]!.address,
          discard: () => {
            if (response.complete) response.resume()
            else response.destroy()
          },
        })
      })
      request.end(hop.body)
    })
  }

  /**
   * Where a URL's bytes go, checked against the address policy. A host mapped by SCANNER_RESOLVE is served by a
   * local fixture or an intranet copy over plain http (docs/operations.md).
   */
  private async route(url: URL, signal: AbortSignal): Promise<CheckedDestination & { tls: boolean }> {
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80
    try {
      const destination = await checkDestination(this.scanner, url.hostname, port, signal)
      return { ...destination, tls: !destination.mapped && url.protocol === 'https:' }
    } catch (error) {
      if (error instanceof EgressRefusal) {
        throw new OutboundError(
          error.code === 'DNS_FAILURE' ? 'DNS_FAILURE' : 'BLOCKED_ADDRESS',
          url.href,
          error.message,
          { cause: error },
        )
      }
      throw error
    }
  }
}

/** Parses a request or redirect target, refusing what the client never fetches. */
function targetUrl(raw: string, base: string, redirects: RedirectHop[]): URL {
  let url: URL
  try {
    url = new URL(raw, base)
  } catch (error) {
    throw new OutboundError('INVALID_URL', raw, `"${raw}" is not a valid URL`, { cause: error, redirects })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError(
      'UNSUPPORTED_SCHEME',
      url.href,
      `${url.protocol} URLs are not fetched, only http: and https:`,
      {
        redirects,
      },
    )
  }
  // Credentials in a URL would be sent to whatever host the URL names; a scan has no business with them.
  if (url.username || url.password) {
    throw new OutboundError(
      'INVALID_URL',
      url.href.replace(/\/\/[^@/]*@/, '//'),
      'URLs with user:password@ are refused',
      {
        redirects,
      },
    )
  }
  url.hash = ''
  return url
}

/** The next hop after a redirect, with the Fetch standard's method and header rules. */
function redirectedHop(previous: Hop, status: number, url: URL): Hop {
  const headers = { ...previous.headers }
  let { method, body, originBound } = previous
  if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    method = 'GET'
    body = undefined
    for (const name of BODY_HEADERS) delete headers[name]
  }
  if (url.origin !== previous.url.origin) {
    for (const name of [...CREDENTIAL_HEADERS, ...originBound]) delete headers[name]
    originBound = []
  }
  return { url, method, headers, body, originBound }
}

function lowerCased(headers: Readonly<Record<string, string>> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
}

function responseHeaders(raw: string[]): Headers {
  const headers = new Headers()
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index]!, raw[index + 1]!)
    } catch {
      // A header the Fetch API cannot represent is dropped rather than failing the whole response.
    }
  }
  return headers
}

/**
 * Undoes Content-Encoding (applied in order, so decoded in reverse). Flushing like browsers do keeps what
 * a truncated compressed body did contain. An unknown coding leaves the body as sent.
 */
function decodedBody(response: IncomingMessage): Readable {
  const codings = (response.headers['content-encoding'] ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse()
  const decoders: Transform[] = []
  for (const coding of codings) {
    const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip(flush))
    else if (coding === 'deflate') decoders.push(zlib.createInflate(flush))
    else if (coding === 'br') {
      decoders.push(
        zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        }),
      )
    } else return response
  }
  if (decoders.length === 0) return response
  // pipeline destroys every stage when one fails or the consumer stops reading; errors surface on the last.
  pipeline([response, ...decoders], () => {})
  return decoders.at(-1)!
}

/**
 * Reads a decoded body up to `maxBytes` (and what is left of `budget`), then stops: breaking out of the iteration
 * destroys the decoder and, through the pipeline, the response and its socket, so nothing past the cap is read off
 * the wire or decompressed.
 */
async function readCapped(
  body: Readable,
  maxBytes: number,
  signal: AbortSignal,
  budget?: ByteBudget,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = []
  let size = 0
  let truncated = false
  // The deadline covers the body too: a server that trickles bytes forever is cut off.
  const onAbort = (): void => {
    body.destroy(signal.reason)
  }
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      const room = Math.max(0, Math.min(maxBytes - size, budget ? budget.remaining : Number.POSITIVE_INFINITY))
      if (chunk.byteLength > room) {
        // Stop reading at the cap: the rest is never decompressed.
        if (room > 0) chunks.push(chunk.subarray(0, room))
        size += room
        if (budget) budget.remaining -= room
        truncated = true
        break
      }
      chunks.push(chunk)
      size += chunk.byteLength
      if (budget) budget.remaining -= chunk.byteLength
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
  const result = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    result.set(chunk, offset)
    offset += chunk.byteLength
  }
  return { body: result, truncated }
}

function webStream(
  exchange: Exchange,
  maxBytes: number,
  url: string,
  signal: AbortSignal | undefined,
  budget: ByteBudget | undefined,
): ReadableStream<Uint8Array> {
  const body = exchange.body!
  const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
  const onAbort = (): void => {
    body.destroy(signal!.reason)
  }
  signal?.addEventListener('abort', onAbort, { once: true })
  const finish = (): void => {
    signal?.removeEventListener('abort', onAbort)
    exchange.discard()
  }
  let size = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next()
        if (done) {
          finish()
          controller.close()
          return
        }
        size += value.byteLength
        if (size > maxBytes) {
          finish()
          controller.error(
            new OutboundError('BODY_TOO_LARGE', url, `${url}: the response body passed ${maxBytes} bytes`),
          )
          return
        }
        if (budget) {
          if (value.byteLength > budget.remaining) {
            budget.remaining = 0
            finish()
            controller.error(
              new OutboundError('BODY_TOO_LARGE', url, `${url}: the byte budget shared with other requests is spent`),
            )
            return
          }
          budget.remaining -= value.byteLength
        }
        controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
      } catch (error) {
        finish()
        controller.error(signal?.aborted ? signal.reason : connectionError(error, url))
      }
    },
    cancel() {
      finish()
    },
  })
}

/**
 * One timer for a whole operation, merged with the caller's signal. `explain` turns whatever an abort
 * surfaced as (a destroyed socket, an AbortError) into TIMEOUT, or the caller's own abort reason.
 */
class Deadline {
  private readonly timer: AbortController = new AbortController()
  private readonly handle: ReturnType<typeof setTimeout>
  readonly signal: AbortSignal

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
  ) {
    this.handle = setTimeout(() => this.timer.abort(), timeoutMs)
    this.signal = callerSignal ? AbortSignal.any([callerSignal, this.timer.signal]) : this.timer.signal
  }

  clear(): void {
    clearTimeout(this.handle)
  }

  explain(error: unknown, url: string): unknown {
    if (this.callerSignal?.aborted) return this.callerSignal.reason
    if (this.timer.signal.aborted) {
      return new OutboundError('TIMEOUT', url, `${url}: no complete response within ${this.timeoutMs} ms`, {
        cause: error,
        redirects: error instanceof OutboundError ? error.redirects : [],
      })
    }
    return error
  }
}

const TLS_ERROR = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HANDSHAKE/i
const DNS_ERROR = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ENODATA'])

function connectionError(error: unknown, url: string): unknown {
  if (error instanceof OutboundError) return error
  const code = (error as { code?: unknown } | null)?.code
  const text = errorText(error)
  if (typeof code === 'string' && DNS_ERROR.has(code)) {
    return new OutboundError('DNS_FAILURE', url, `${url}: ${text}`, { cause: error })
  }
  if ((typeof code === 'string' && TLS_ERROR.test(code)) || TLS_ERROR.test(text)) {
    return new OutboundError('TLS_FAILURE', url, `${url}: TLS failed: ${text}`, { cause: error })
  }
  return new OutboundError('CONNECTION_FAILED', url, `${url}: ${text}`, { cause: error })
}

function fetchResult(fields: Omit<FetchResult, 'text' | 'json'>): FetchResult {
  let decoded: string | undefined
  const text = (): string => (decoded ??= decodeText(fields.body, fields.headers.get('content-type')))
  return {
    ...fields,
    text,
    json<T>(): T {
      const source = text()
      try {
        // Depth-checked first: a remote body nested past MAX_JSON_DEPTH is refused like one that is not JSON.
        return parseBoundedJson(source, { maxChars: Number.POSITIVE_INFINITY }) as T
      } catch (error) {
        const type = fields.headers.get('content-type') ?? 'no content type'
        throw new SyntaxError(
          `${fields.url} (status ${fields.status}, ${type}) is not valid JSON: ${errorText(error)}; it starts ${JSON.stringify(source.slice(0, 80))}`,
        )
      }
    },
  }
}

/** Encoding sniffing as browsers do it, minus content sniffing: BOM, declared charset, then UTF-8. */
function decodeText(body: Uint8Array, contentType: string | null): string {
  const [a, b, c] = body
  let label = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8'
  if (a === 0xef && b === 0xbb && c === 0xbf) label = 'utf-8'
  else if (a === 0xfe && b === 0xff) label = 'utf-16be'
  else if (a === 0xff && b === 0xfe) label = 'utf-16le'
  try {
    return new TextDecoder(label).decode(body)
  } catch {
    // An unknown charset label: UTF-8 is the web's default and the best guess.
    return new TextDecoder().decode(body)
  }
}
