/**
 * The SDK client over Streamable HTTP, wrapped for a scanner: responses pass the stream guards, the handshake is
 * recorded raw, nothing listens or reconnects. (The deprecated HTTP+SSE transport is spoken raw: sse.ts.)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { isRecord, parseJson } from '../engine/snapshot.ts'
import type { FetchLike } from '../outbound/client.ts'
import { guardJsonResponse } from '../parse/stream.ts'
import { describeError, describeResponse, failedExchange, lowerHeaders, type Outgoing } from './exchange.ts'
import { CLIENT_CAPABILITIES, CLIENT_INFO } from './protocol.ts'
import type { Call, Limits, McpExchange } from './types.ts'

const RECORDED_METHODS = new Set(['initialize', 'notifications/initialized'])

/**
 * The SDK's fetch, wrapped: the handshake requests the SDK sends are recorded as raw exchanges (the SDK keeps
 * status, headers and body to itself), reading a tee of the body so that the SDK reads its own copy untouched.
 */
export class HandshakeRecorder {
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
    // First come only: the handshake's first attempt is what the endpoint answered.
    if (method === undefined || !RECORDED_METHODS.has(method) || this.recorded.has(method))
      return this.inner(input, init)
    const id =
      isRecord(message) && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined
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
        ({ response, mine }) =>
          describeResponse(
            outgoing,
            { status: response.status, headers: response.headers, body: mine },
            signal,
            started,
          ),
        (error: unknown) => failedExchange(outgoing, describeError(error, signal), started),
      ),
    )
    const { response, theirs } = await split
    const copy = new Response(theirs, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
    Object.defineProperty(copy, 'url', { value: response.url })
    return copy
  }
}

/**
 * The SDK reads and JSON-parses its responses itself: their bodies pass through the JSON stream guard, so a message
 * nested past MAX_JSON_DEPTH or an SSE event past MAX_SSE_EVENT_BYTES errors the stream (the SDK reports a failed
 * request) before the SDK holds it. The outbound client's byte cap bounds each body as a whole.
 */
export function guardedFetch(fetch: FetchLike): FetchLike {
  return async (input, init) => guardJsonResponse(await fetch(input, init))
}

/** A stream the SDK would resume is not reopened: a scan reads, it does not listen. */
export const NO_RECONNECT = {
  initialReconnectionDelay: 1_000,
  maxReconnectionDelay: 1_000,
  reconnectionDelayGrowFactor: 1,
  maxRetries: 0,
}

/**
 * Keeps the streamable client from opening its listening GET stream after the handshake: a scan does not listen,
 * and SDK servers allow one such stream per session, which would turn the scanner's own GET probe into a 409.
 * The SDK takes 405 as "this server offers no stream"; nothing is sent.
 */
export function withoutListening(fetch: FetchLike): FetchLike {
  return (input, init) =>
    (init?.method ?? 'GET').toUpperCase() === 'GET'
      ? Promise.resolve(new Response(null, { status: 405 }))
      : fetch(input, init)
}

export function newClient(): Client {
  return new Client(CLIENT_INFO, { capabilities: CLIENT_CAPABILITIES })
}

/** Rejects after `ms`: the SDK's own timeouts cover requests, not a transport that never starts. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no handshake within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

export function sdkCall(client: Client, limits: Limits): Call {
  return async (method, params) => {
    try {
      // Results are taken as they come: the checks judge malformed lists, which the SDK's schemas would reject.
      return {
        result: await client.request({ method, params }, z.unknown(), {
          timeout: limits.timeoutMs,
          signal: limits.budget,
        }),
      }
    } catch (error) {
      if (error instanceof McpError) {
        const message = error.message.replace(/^MCP error -?\d+: /, '')
        return { error: { code: error.code, message, ...(error.data !== undefined ? { data: error.data } : {}) } }
      }
      // Without an auth provider the SDK throws a 401 as is, keeping the challenge to itself.
      if (error instanceof StreamableHTTPError && error.code === 401)
        return { error: describeError(error), refused: { status: 401, challenge: null } }
      return { error: describeError(error) }
    }
  }
}
