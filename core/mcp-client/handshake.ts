/**
 * The era handshake (docs/checks.md §6.2): a legacy initialize through the SDK, else a 2026-07-28 `server/discover`, else
 * the deprecated HTTP+SSE transport, recording the raw exchanges whichever way the endpoint answers.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { isRecord } from '../engine/snapshot.ts'
import type { ScanSession } from '../outbound/session.ts'
import { describeError, failedExchange } from './exchange.ts'
import { INITIALIZE, MCP_MODERN_VERSION, MODERN_ERROR_CODES, SSE_FALLBACK_STATUSES } from './protocol.ts'
import { SseChannel } from './sse.ts'
import {
  guardedFetch,
  HandshakeRecorder,
  NO_RECONNECT,
  newClient,
  sdkCall,
  within,
  withoutListening,
} from './transports.ts'
import type { Call, Handshake, Limits, McpEra, McpExchange } from './types.ts'
import type { McpWire } from './wire.ts'

function handshakeOf(result: unknown): Handshake | null {
  if (!isRecord(result)) return null
  return {
    protocolVersion: result.protocolVersion,
    ...(isRecord(result.capabilities) ? { capabilities: result.capabilities } : {}),
    ...(isRecord(result.serverInfo) ? { serverInfo: result.serverInfo } : {}),
    ...(result.instructions !== undefined ? { instructions: result.instructions } : {}),
  }
}

/** A `server/discover` result in the initialize result's shape (docs/checks.md §6.2). */
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

/** An endpoint as the handshake left it, whichever era and transport answered; `call` reads its lists. */
export interface Connection {
  era: McpEra
  legacySseOnly: boolean
  initialize: McpExchange
  initialized: McpExchange | null
  handshake: Handshake | null
  handshakeError?: string
  /** How list pages are fetched: the SDK client, or raw requests when there is no SDK session (always over HTTP+SSE). */
  call: Call
  close(): Promise<void>
}

const notSent = (method: string): McpExchange =>
  failedExchange({ method: 'POST', headers: {} }, `the SDK sent no ${method} request`, performance.now())

/**
 * The handshake (docs/checks.md §6.2): the SDK's streamable HTTP client first; a modern error on initialize, or a failed
 * initialize that `server/discover` answers, makes the endpoint modern; 400/404/405 leads to the HTTP+SSE
 * transport; a JSON-RPC answer the SDK refused is used raw.
 */
export async function connect(
  http: ScanSession,
  wire: McpWire,
  discover: Promise<McpExchange>,
  limits: Limits,
): Promise<Connection> {
  const recorder = new HandshakeRecorder(guardedFetch(http.asFetch()), limits)
  const client = newClient()
  const transport = new StreamableHTTPClientTransport(new URL(wire.url), {
    fetch: withoutListening(recorder.fetch),
    reconnectionOptions: NO_RECONNECT,
  })
  const refused = await within(
    client.connect(transport, { timeout: limits.timeoutMs, signal: limits.budget }),
    limits.timeoutMs + 1_000,
  ).then(
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
    return {
      era: 'legacy',
      legacySseOnly: false,
      initialize,
      initialized,
      handshake,
      call: sdkCall(client, limits),
      close: () => client.close(),
    }
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
    return {
      ...failed,
      initialized: initialized ?? (await wire.notify('notifications/initialized')),
      handshake: handshakeOf(result),
    }
  }
  const discovered = await discover
  if (isRecord(discovered.response?.result)) return modern(wire, discovered, failed)
  if (!maySpeakSse(initialize)) return failed
  const sse = await connectSse(http, wire, limits)
  if (sse.error !== undefined) return { ...failed, handshakeError: `${refused}; HTTP+SSE fallback: ${sse.error}` }
  return {
    era: 'legacy',
    legacySseOnly: true,
    initialize,
    initialized: sse.initialized,
    handshake: sse.handshake,
    call: wire.call,
    close: sse.close,
  }
}

/**
 * The handshake over the deprecated HTTP+SSE transport, raw: the wire then sends every request of the scan over
 * this one session (a second session at once would, on a bridge sharing one stream, see the other's answers).
 */
export async function connectSse(
  http: ScanSession,
  wire: McpWire,
  limits: Limits,
): Promise<
  { handshake: Handshake; initialized: McpExchange; close(): Promise<void>; error?: undefined } | { error: string }
> {
  const opened = await SseChannel.open(http, wire.url, limits)
  if (opened.error !== undefined) return { error: opened.error }
  const { channel } = opened
  wire.sse = channel
  const initialize = await wire.request('initialize', INITIALIZE.params)
  const handshake = handshakeOf(initialize.response?.result)
  if (!handshake) {
    wire.sse = null
    await channel.close()
    const error = initialize.response?.error
    return {
      error: error
        ? `initialize answered JSON-RPC error ${error.code} ${JSON.stringify(error.message)}`
        : `initialize got no result (${initialize.error ?? `HTTP ${initialize.status}`})`,
    }
  }
  wire.adopt(null, handshake.protocolVersion)
  const initialized = await wire.notify('notifications/initialized')
  return { handshake, initialized, close: () => channel.close() }
}

/** A 2026-07-28 endpoint: the handshake is the discover result, and the legacy refusal was to be expected. */
function modern(wire: McpWire, discover: McpExchange, failed: Connection): Connection {
  wire.era = 'modern'
  const handshake = handshakeOfDiscover(discover.response?.result)
  const { handshakeError, ...rest } = failed
  return { ...rest, era: 'modern', initialized: null, handshake, ...(handshake ? {} : { handshakeError }) }
}

/** An endpoint answering initialize this way may still speak the deprecated HTTP+SSE transport (docs/checks.md §6.3). */
export function maySpeakSse(initialize: McpExchange): boolean {
  return initialize.status !== null && SSE_FALLBACK_STATUSES.has(initialize.status) && !isModernError(initialize)
}
