/**
 * The deprecated HTTP+SSE transport (2024-11-05), spoken raw so that every request and probe of a scan can travel
 * over it: GET opens the stream, whose `endpoint` event names where to POST, and answers come back as `message`
 * events on the stream. Bridges that put a stdio server on the network often write every answer to every open
 * stream, so answers are matched to requests by JSON-RPC id and anything else on the stream is ignored.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { CollectorError } from '../engine/check.ts'
import { isRecord, mediaType, parseJson, type HttpSnapshot } from '../engine/snapshot.ts'
import { OutboundError, type RequestOptions } from '../outbound/client.ts'
import type { ScanSession } from '../outbound/session.ts'
import { guardJsonResponse } from '../parse/stream.ts'
import { describeError, describeResponse, failedExchange, type Outgoing, responseTo, send } from './exchange.ts'
import type { Limits, McpExchange } from './types.ts'

export const SSE_ACCEPT = 'text/event-stream'

/**
 * How long an accepted malformed body may take to draw a parse error (id null) on the stream. A server that drops
 * it silently sends nothing at all, so the wait is short rather than a whole exchange timeout.
 */
const PARSE_ERROR_GRACE_MS = 2_000

type Message = Record<string, unknown>
/** What a POST waits for on the stream: its id, or null for a body the server cannot read an id from. */
type Awaited = string | number | null

export type SseOpening = { channel: SseChannel; error?: undefined } | { error: string; opening: McpExchange }

export class SseChannel {
  private readonly waiting = new Map<Awaited, (message: Message | string) => void>()
  private ended: string | null = null

  private constructor(
    private readonly http: ScanSession,
    /** The GET that opened the stream, as far as its headers. */
    readonly opening: McpExchange,
    /** Where requests are POSTed: the `endpoint` event's URL. */
    readonly messageUrl: string,
    private readonly limits: Limits,
    private readonly stop: AbortController,
  ) {}

  /** GET with `Accept: text/event-stream`, then the `endpoint` event within the exchange timeout. */
  static async open(http: ScanSession, url: string, limits: Limits): Promise<SseOpening> {
    const outgoing: Outgoing = { method: 'GET', headers: { accept: SSE_ACCEPT } }
    const started = performance.now()
    const stop = new AbortController()
    const streamSignal = AbortSignal.any([limits.budget, stop.signal])
    const deadline = AbortSignal.any([streamSignal, AbortSignal.timeout(limits.timeoutMs)])
    let response: Response
    try {
      response = await http.stream(url, { ...outgoing, timeoutMs: limits.timeoutMs, signal: streamSignal })
    } catch (error) {
      return {
        error: describeError(error, deadline),
        opening: failedExchange(outgoing, describeError(error, deadline), started),
      }
    }
    const isStream =
      response.status >= 200 && response.status < 300 && mediaType(response.headers.get('content-type')) === SSE_ACCEPT
    if (!isStream) {
      const opening = await describeResponse(outgoing, response, deadline, started)
      return {
        error: `GET with Accept: ${SSE_ACCEPT} got HTTP ${response.status}${opening.contentType ? ` ${opening.contentType}` : ''}, not an event stream`,
        opening,
      }
    }
    const opening = await describeResponse(
      outgoing,
      { status: response.status, headers: response.headers, body: null },
      deadline,
      started,
    )
    const base = response.url || url
    let announce: (endpoint: string) => void = () => {}
    const announced = new Promise<string>((resolve) => (announce = resolve))
    let channel: SseChannel | undefined
    const events = readEvents(guardJsonResponse(response).body, (event, data) => {
      if (event === 'endpoint') announce(data)
      else if (event === 'message') channel?.deliver(data)
    })
    const endpoint = await Promise.race([
      announced.then((data) => ({ data })),
      events.then((why) => ({ failed: why })),
      new Promise<{ failed: string }>((resolve) =>
        deadline.addEventListener(
          'abort',
          () => resolve({ failed: `no endpoint event within ${limits.timeoutMs} ms` }),
          { once: true },
        ),
      ),
    ])
    const messageUrl = 'data' in endpoint ? sameOrigin(endpoint.data, base) : null
    if (messageUrl === null) {
      stop.abort()
      const why =
        'data' in endpoint
          ? `the endpoint event names ${JSON.stringify(endpoint.data.slice(0, 200))}, not a URL on the stream's origin`
          : endpoint.failed
      return { error: why, opening }
    }
    channel = new SseChannel(http, opening, messageUrl, limits, stop)
    const opened = channel
    void events.then((why) => opened.end(why))
    return { channel }
  }

  /**
   * POSTs to the message endpoint. The POST's own answer (202, or an error status) is the exchange's HTTP part; a
   * request's JSON-RPC response is the stream message carrying its id.
   */
  async post(outgoing: Outgoing): Promise<McpExchange> {
    const started = performance.now()
    const awaited = awaitedFor(outgoing)
    const answer = awaited === undefined ? undefined : this.expect(awaited)
    const exchange = await send(this.http, this.messageUrl, outgoing, this.limits)
    const accepted = exchange.status !== null && exchange.status >= 200 && exchange.status < 300
    if (answer === undefined || exchange.response || !accepted) {
      if (awaited !== undefined) this.waiting.delete(awaited)
      return exchange
    }
    const wait = awaited === null ? Math.min(PARSE_ERROR_GRACE_MS, this.limits.timeoutMs) : this.limits.timeoutMs
    const timer = delay(Math.max(0, wait - (performance.now() - started)), this.limits.budget)
    const message = await Promise.race([answer, timer.elapsed]).finally(timer.cancel)
    this.waiting.delete(awaited!)
    const durationMs = Math.round(performance.now() - started)
    if (isRecord(message))
      return { ...exchange, messages: [message], response: responseTo([message], outgoing.id), durationMs }
    // Nothing drawn by a malformed body: accepted without a word, which the checks judge as such.
    if (awaited === null) return exchange
    return {
      ...exchange,
      durationMs,
      error: typeof message === 'string' ? message : `no answer on the SSE stream within ${wait} ms`,
    }
  }

  /** Ends the stream: the server sees the session go. */
  close(): Promise<void> {
    this.stop.abort()
    this.end('the stream was closed')
    return Promise.resolve()
  }

  private expect(awaited: Awaited): Promise<Message | string> {
    if (this.ended !== null) return Promise.resolve(this.ended)
    return new Promise((resolve) => this.waiting.set(awaited, resolve))
  }

  private deliver(data: string): void {
    const value = parseJson(data)
    for (const message of Array.isArray(value) ? value : [value]) {
      if (!isRecord(message) || !('result' in message || 'error' in message)) continue
      const id = message.id
      if (typeof id !== 'string' && typeof id !== 'number' && id !== null) continue
      // Not ours (another session's answer on a shared stream, or a duplicate): ignored.
      const resolve = this.waiting.get(id)
      if (!resolve) continue
      this.waiting.delete(id)
      resolve(message)
    }
  }

  private end(why: string): void {
    this.ended ??= why
    for (const resolve of this.waiting.values()) resolve(`the SSE stream ended before the answer (${this.ended})`)
    this.waiting.clear()
  }
}

/** A request waits for its id; a body that is not JSON for a parse error (id null); a notification for nothing. */
function awaitedFor(outgoing: Outgoing): Awaited | undefined {
  if (outgoing.id !== undefined) return outgoing.id
  return outgoing.body !== undefined && parseJson(outgoing.body) === undefined ? null : undefined
}

function sameOrigin(endpoint: string, base: string): string | null {
  try {
    const resolved = new URL(endpoint.trim(), base)
    return resolved.origin === new URL(base).origin ? resolved.href : null
  } catch {
    return null
  }
}

function delay(ms: number, signal: AbortSignal): { elapsed: Promise<undefined>; cancel(): void } {
  let cancel = (): void => {}
  const elapsed = new Promise<undefined>((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve(undefined)
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    cancel = done
  })
  return { elapsed, cancel }
}

/** Reads the stream event by event until it ends; resolves with why it ended. */
async function readEvents(
  body: ReadableStream<BufferSource> | null,
  onEvent: (event: string, data: string) => void,
): Promise<string> {
  if (!body) return 'the stream had no body'
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return 'the server ended the stream'
      onEvent(value.event ?? 'message', value.data)
    }
  } catch (error) {
    return describeError(error)
  } finally {
    reader.cancel().catch(() => {})
  }
}

/**
 * The GET that opens a stream, as a snapshot for probes that compare answers (bot challenges, CORS): an event stream
 * is left unread (it never ends by itself), anything else is read up to `maxBytes`. Outbound failures become a
 * CollectorError, as fetchSnapshot's do.
 */
export async function streamHead(
  http: ScanSession,
  url: string,
  options: Omit<RequestOptions, 'method' | 'maxBytes'>,
  maxBytes: number,
): Promise<HttpSnapshot> {
  const started = performance.now()
  try {
    const response = await http.stream(url, { ...options, method: 'GET' })
    const contentType = mediaType(response.headers.get('content-type'))
    const { text, truncated } =
      contentType === SSE_ACCEPT ? { text: '', truncated: true } : await readUpTo(response.body, maxBytes)
    if (contentType === SSE_ACCEPT) await response.body?.cancel().catch(() => {})
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value
    })
    return {
      requestedUrl: url,
      url: response.url || url,
      status: response.status,
      headers,
      contentType,
      body: text,
      truncated,
      redirects: [],
      durationMs: Math.round(performance.now() - started),
    }
  } catch (error) {
    if (error instanceof OutboundError) throw new CollectorError(`${url}: ${error.message}`, { cause: error })
    throw error
  }
}

async function readUpTo(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  if (!body) return { text: '', truncated: false }
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read()
      if (done) return { text: new TextDecoder().decode(Buffer.concat(chunks)), truncated: false }
      chunks.push(value)
      size += value.byteLength
    }
    return { text: new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes)), truncated: true }
  } finally {
    reader.cancel().catch(() => {})
  }
}
