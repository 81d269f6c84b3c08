/**
 * Whether a URL is an MCP endpoint, and of which era, for the price of a few raw requests (docs/checks.md §0 step 2):
 * what kind detection asks before a scan, where `connect` is the full, recorded handshake a collection makes.
 */
import { isRecord } from '../engine/snapshot.ts'
import type { ScanSession } from '../outbound/session.ts'
import { authRefusal } from './exchange.ts'
import { connectSse, handshakeOfDiscover, maySpeakSse } from './handshake.ts'
import type { Call, Limits } from './types.ts'
import { McpWire } from './wire.ts'

/** How the endpoint showed itself to be MCP: each way names the transport and era that answered. */
export type McpAnswer = 'initialize' | 'discover' | 'sse'

export type EndpointReach =
  /** An open conversation to read lists through; `close` ends it (a legacy session is deleted, politely). */
  | {
      state: 'mcp'
      answer: McpAnswer
      capabilities: Record<string, unknown> | undefined
      call: Call
      close(): Promise<void>
    }
  /** A JSON-RPC error to initialize or discover: an MCP server, but nothing to read. */
  | { state: 'mcp-error' }
  | { state: 'auth'; status: number; challenge: string | null }
  | { state: 'not-mcp' | 'unreachable'; reason: string }

/**
 * A legacy initialize; a 401 (or 403 with a Bearer challenge) is an MCP server requiring auth; a JSON-RPC result is
 * a legacy server; otherwise `server/discover` (a 2026-07-28 server answers it); a JSON-RPC error body to either
 * still marks an MCP server; after a 400/404/405, the deprecated HTTP+SSE transport (§6.3 back-compat) may answer.
 */
export async function reachEndpoint(http: ScanSession, url: string, limits: Limits): Promise<EndpointReach> {
  const wire = new McpWire(http, url, limits)
  const initialize = await wire.initialize()
  if (initialize.status === null) return { state: 'unreachable', reason: initialize.error ?? 'no answer' }
  const refused = authRefusal(initialize)
  if (refused) return { state: 'auth', ...refused }
  const result = initialize.response?.result
  if (isRecord(result)) {
    wire.adopt(initialize.headers['mcp-session-id'] ?? null, result.protocolVersion)
    await wire.notify('notifications/initialized')
    const capabilities = isRecord(result.capabilities) ? result.capabilities : undefined
    const close = async (): Promise<void> => {
      if (wire.sessionId) await wire.endSession()
    }
    return { state: 'mcp', answer: 'initialize', capabilities, call: wire.call, close }
  }
  const discover = await wire.discover()
  const discovered = handshakeOfDiscover(discover.response?.result)
  if (discovered) {
    wire.era = 'modern'
    return {
      state: 'mcp',
      answer: 'discover',
      capabilities: discovered.capabilities,
      call: wire.call,
      close: async () => {},
    }
  }
  if (initialize.response || discover.response) return { state: 'mcp-error' }
  if (maySpeakSse(initialize)) {
    const sse = await connectSse(http, wire, limits)
    if (sse.error === undefined)
      return {
        state: 'mcp',
        answer: 'sse',
        capabilities: sse.handshake.capabilities,
        call: wire.call,
        close: sse.close,
      }
  }
  return {
    state: 'not-mcp',
    reason: `initialize got ${initialize.status}${initialize.html ? ' with an HTML page' : ''}`,
  }
}
