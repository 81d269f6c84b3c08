/**
 * A guard for JSON and server-sent-event bodies read by code we do not control (the MCP SDK parses its responses
 * itself, with JSON.parse per message): the bytes pass through unchanged, and the stream errors with
 * ParseLimitError once a JSON value nests deeper than the bound or one SSE event grows past its size bound, before
 * the reader ever holds the whole thing. One pass over the bytes; UTF-8 never puts a brace, bracket, quote,
 * backslash or line break inside a multi-byte character, so bytes are scanned as they come.
 */
import { ParseLimitError } from './bounded.ts'
import { MAX_JSON_DEPTH } from './nesting.ts'

/** Bytes of one SSE event (its `data:` lines and the rest); the body cap bounds the whole stream. */
export const MAX_SSE_EVENT_BYTES = 1024 * 1024

export interface JsonStreamLimits {
  maxDepth?: number
  maxEventBytes?: number
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const LF = 0x0a
const CR = 0x0d

/**
 * `sse`: the body is an event stream, each event's JSON judged on its own (nesting restarts at every blank line,
 * and a string never spans lines, so a stray quote cannot hide what follows).
 */
export function jsonStreamGuard(
  sse: boolean,
  { maxDepth = MAX_JSON_DEPTH, maxEventBytes = MAX_SSE_EVENT_BYTES }: JsonStreamLimits = {},
): TransformStream<Uint8Array, Uint8Array> {
  let depth = 0
  let inString = false
  let escaped = false
  let eventBytes = 0
  let lineBytes = 0
  let afterCr = false
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      for (let index = 0; index < chunk.length; index++) {
        const byte = chunk[index]!
        if (sse && (byte === LF || byte === CR)) {
          const secondHalfOfCrLf = afterCr && byte === LF
          afterCr = byte === CR
          if (secondHalfOfCrLf) continue
          if (lineBytes === 0) {
            // A blank line ends the event.
            depth = 0
            eventBytes = 0
          }
          lineBytes = 0
          inString = false
          escaped = false
          continue
        }
        afterCr = false
        if (sse) {
          lineBytes++
          if (++eventBytes > maxEventBytes) {
            controller.error(new ParseLimitError('size', `an event of the stream passed ${maxEventBytes} bytes`))
            return
          }
        }
        if (inString) {
          if (escaped) escaped = false
          else if (byte === BACKSLASH) escaped = true
          else if (byte === QUOTE) inString = false
        } else if (byte === QUOTE) inString = true
        else if (byte === 0x7b || byte === 0x5b) {
          if (++depth > maxDepth) {
            controller.error(new ParseLimitError('depth', `a JSON message nests more than ${maxDepth} levels deep`))
            return
          }
        } else if (byte === 0x7d || byte === 0x5d) depth--
      }
      controller.enqueue(chunk)
    },
  })
}

/** A response whose body passes through jsonStreamGuard when it is JSON or an event stream; others as they are. */
export function guardJsonResponse(response: Response, limits?: JsonStreamLimits): Response {
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  const sse = type === 'text/event-stream'
  if (!response.body || !(sse || type === 'application/json' || type.endsWith('+json'))) return response
  const guarded = new Response(response.body.pipeThrough(jsonStreamGuard(sse, limits)), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
  // A constructed Response has an empty url; callers resolve relative URLs (the SSE endpoint event) against it.
  Object.defineProperties(guarded, { url: { value: response.url }, redirected: { value: response.redirected } })
  return guarded
}
