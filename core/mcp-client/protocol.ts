/** Protocol constants shared by every part of the client: versions, the scanner's identity, era markers. */
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { MCP_INITIALIZE_BODY } from '../engine/lib/mcp-wire.ts'

/** What the SDK (and so the legacy handshake) asks for: 2025-11-25. */
export const MCP_LEGACY_VERSION: string = LATEST_PROTOCOL_VERSION
/** The stateless revision (docs/checks.md §6.2): no initialize, no session, `server/discover`, `_meta` per request. */
export const MCP_MODERN_VERSION = '2026-07-28'

/**
 * Every client of the scanner meets an endpoint as endpoint discovery does: the same client info and capabilities
 * (a host that renders MCP Apps, so that servers showing UI tools only to such hosts show them).
 */
export const INITIALIZE = JSON.parse(MCP_INITIALIZE_BODY) as {
  id: number
  params: { clientInfo: { name: string; version: string }; capabilities: { extensions?: Record<string, object> } }
}
export const CLIENT_INFO = INITIALIZE.params.clientInfo
export const CLIENT_CAPABILITIES = INITIALIZE.params.capabilities
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MCP_MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': CLIENT_CAPABILITIES,
}
/** UnsupportedProtocolVersion, HeaderMismatch, MissingRequiredClientCapability: only a 2026-07-28 server sends these. */
export const MODERN_ERROR_CODES = new Set([-32022, -32020, -32021])
/** Statuses after which a client may try the deprecated HTTP+SSE transport (docs/checks.md §6.3, back-compat). */
export const SSE_FALLBACK_STATUSES = new Set([400, 404, 405])

/**
 * One exchange (headers and body) at most: a server that hangs costs this much per exchange and no more. The
 * scanner's own timeout applies when shorter.
 */
export const MCP_EXCHANGE_TIMEOUT_MS = 8_000
