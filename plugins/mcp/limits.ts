import { defineLimits, MINUTE } from '../../core/limits.ts'

export const MCP_LIMITS = defineLimits({
  /**
   * Not in the spec. Every MCP JSON-RPC message is one HTTP request (a session opens with three); the scan tool
   * additionally spends the scan-family limits like the HTTP scan routes.
   */
  mcp: { limit: 60, windowMs: MINUTE, durable: false, per: 'ip', exempt: [] },
})
