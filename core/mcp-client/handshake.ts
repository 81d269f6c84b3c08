/**
 * The era handshake (checks.md §6.2): a legacy initialize through the SDK, else a 2026-07-28 `server/discover`, else
 * the deprecated HTTP+SSE transport, recording the raw exchanges whichever way the endpoint answers.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { isRecord } from '../engine/snapshot.ts'
import type { ScanSession } from '../http/session.ts'
import { describeError, failedExchange } from './exchange.ts'
import { MCP_MODERN_VERSION, MODERN_ERROR_CODES, SSE_FALLBACK_STATUSES } from './protocol.ts'
import { guardedFetch, HandshakeRecorder, NO_RECONNECT, newClient, openSse, sdkCall, within, withoutListening } from './transports.ts'
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

/** An endpoint as the handshake left it, whichever era and transport answered; `call` reads its lists. */
export interface Connection {
  era: McpEra
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
export async function connect(http: ScanSession, wire: McpWire, discover: Promise<McpExchange>, limits: Limits): Promise<Connection> {
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
