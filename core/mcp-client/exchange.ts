/**
 * One raw HTTP exchange with an MCP endpoint, recorded as the checks see it (status, headers, the JSON-RPC messages of
 * a JSON or SSE body): the SDK keeps these to itself, and transport conformance is judged on them.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { isBearerChallenge } from '../engine/lib/mcp-wire.ts'
import { isRecord, looksLikeHtml, mediaType, parseJson } from '../engine/snapshot.ts'
import { OutboundError } from '../outbound/client.ts'
import type { ScanSession } from '../outbound/session.ts'
import type { AuthRefusal, JsonRpcError, Limits, McpExchange } from './types.ts'

/** Bodies kept in an exchange's record (characters). */
const STORED_BODY_CHARS = 16 * 1024
/**
 * Bodies read for parsing (characters): lists and UI documents are larger than what is stored. An MCP App's UI
 * document may be 2 MiB (the catalog design's cap, docs/checks.md), and it arrives JSON-escaped (every quote and newline
 * doubled) inside a resources/read answer: 3 MiB leaves room for that. The outbound client's per-request cap and the
 * scan's byte budget bound the bytes underneath.
 */
const READ_CHARS = 3 * 1024 * 1024
const MAX_MESSAGES = 50

export interface Outgoing {
  method: 'POST' | 'GET' | 'DELETE'
  headers: Record<string, string>
  body?: string
  /** The JSON-RPC id of the request: its response ends the read, since an SSE stream may stay open after it. */
  id?: string | number
}

type Headersish = ConstructorParameters<typeof Headers>[0]

export function lowerHeaders(headers: Headersish): Record<string, string> {
  const record: Record<string, string> = {}
  new Headers(headers).forEach((value, name) => {
    record[name.toLowerCase()] = value
  })
  return record
}

/** The exchange was refused for want of authorization (401, or 403 with a Bearer challenge); null otherwise. */
export function authRefusal(exchange: Pick<McpExchange, 'status' | 'headers'>): AuthRefusal | null {
  const challenge = exchange.headers['www-authenticate'] ?? null
  if (exchange.status === 401 || (exchange.status === 403 && isBearerChallenge(challenge ?? undefined)))
    return { status: exchange.status, challenge }
  return null
}

export function describeError(error: unknown, signal?: AbortSignal): string {
  if (signal?.aborted) return 'no complete answer in time (the exchange timed out, or the time budget ran out)'
  if (error instanceof OutboundError) return `${error.code}: ${error.message}`
  if (error instanceof McpError) return error.message
  return error instanceof Error ? error.message : String(error)
}

/**
 * The JSON-RPC messages of a JSON body or of the `data:` of each SSE event; `malformed` when an event's data is not
 * JSON. An SSE body read only in part (`ended` false) may stop inside an event, which is then left out.
 */
function parseMessages(
  text: string,
  sse: boolean,
  ended: boolean,
): { messages: Record<string, unknown>[]; malformed: boolean } {
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
export function responseTo(
  messages: Record<string, unknown>[],
  id: string | number | undefined,
): McpExchange['response'] {
  const message = messages.find(
    (candidate) =>
      ('result' in candidate || 'error' in candidate) &&
      (id === undefined || candidate.id === id || candidate.id === null),
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
      if (done)
        return signal.aborted
          ? { text, ended: false, error: describeError(signal.reason, signal) }
          : { text: text + decoder.decode(), ended: true }
      const searchFrom = Math.max(checked, text.length - 2)
      text += decoder.decode(value, { stream: true })
      if (text.length >= READ_CHARS)
        return {
          text: text.slice(0, READ_CHARS),
          ended: false,
          error: `body passed ${READ_CHARS} characters; read stopped`,
        }
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

export function failedExchange(outgoing: Outgoing, error: string, started: number): McpExchange {
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
export async function describeResponse(
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
export async function send(
  http: ScanSession,
  url: string,
  outgoing: Outgoing,
  limits: Limits,
  headersOnly = false,
): Promise<McpExchange> {
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
