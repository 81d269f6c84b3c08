/**
 * What the MCP client hands back: raw HTTP exchanges, list entries as the server sent them, and the handshake in one
 * shape for both eras. The scanner judges malformed answers, so every type keeps what the server sent.
 */

export interface JsonRpcError {
  code: number
  message: string
  data?: unknown
}

/** One raw HTTP exchange with the MCP endpoint. */
export interface McpExchange {
  request: { method: string; headers: Record<string, string>; body?: string }
  /** null when no response arrived (transport failure or timeout: see `error`). */
  status: number | null
  /** Lower-cased media type, '' when absent. */
  contentType: string
  /** Lower-cased header names. */
  headers: Record<string, string>
  /** Every JSON-RPC message read from a JSON body or from the `data:` lines of an SSE body. */
  messages: Record<string, unknown>[]
  /** The message answering the request's id, if one came back. */
  response?: { result?: unknown; error?: JsonRpcError }
  /** For SSE bodies: events were found but some `data:` line was not JSON. */
  sseMalformed?: boolean
  /** The body is an HTML page. */
  html: boolean
  /** Raw body, capped at 16 KiB. */
  body: string
  durationMs: number
  error?: string
}

export interface McpTool {
  name: string
  title?: string
  description?: string
  inputSchema?: unknown
  outputSchema?: unknown
  annotations?: Record<string, unknown>
  _meta?: Record<string, unknown>
  /** The raw entry, for checks that judge malformed tools. */
  raw: unknown
}

export interface McpResource {
  uri: string
  name?: string
  mimeType?: string
  _meta?: Record<string, unknown>
  raw: unknown
}

export interface McpPrompt {
  name: string
  description?: string
  raw: unknown
}

/** A paginated list call, followed through `nextCursor` (at most 20 pages). */
export interface McpList<T> {
  /** The capability was declared in initialize (or discover). */
  declared: boolean
  items: T[]
  pages: number
  /** A JSON-RPC error or transport failure on some page. */
  error?: JsonRpcError | string
  /** A `nextCursor` repeated: the chain loops. */
  cursorLoop: boolean
  /** Item keys (tool names, resource URIs) that appeared on more than one page. */
  duplicatesAcrossPages: string[]
  /** The chain still had a `nextCursor` after the 20th page: reading stopped there. */
  truncated?: boolean
  /** The first page was refused for want of authorization: the list exists, but not for an anonymous client. */
  refused?: AuthRefusal
  /** The first page's result envelope, as sent (2026-07-28 servers mark results complete and give cache hints). */
  envelope?: ResultEnvelope
}

/**
 * What a 2026-07-28 result says about itself (basic/versioning, server/utilities/caching): `resultType`, and on
 * server/discover, the list methods and resources/read the cache hints `ttlMs` and `cacheScope`. Kept as sent.
 */
export interface ResultEnvelope {
  resultType?: unknown
  ttlMs?: unknown
  cacheScope?: unknown
}

/**
 * A request refused for want of authorization: 401, or 403 with a Bearer challenge (RFC 6750 `insufficient_scope`).
 * `challenge` is the `WWW-Authenticate` header, null when the SDK kept it to itself.
 */
export interface AuthRefusal {
  status: number
  challenge: string | null
}

/** `legacy`: initialize handshake (2025-03-26 … 2025-11-25); `modern`: stateless 2026-07-28 (`server/discover`). */
export type McpEra = 'legacy' | 'modern'

/** The initialize result (legacy) or the discover result mapped to the same fields (modern). */
export interface Handshake {
  protocolVersion?: unknown
  capabilities?: Record<string, unknown>
  serverInfo?: Record<string, unknown>
  instructions?: unknown
}

/** Time bounds of a conversation: each exchange, and everything together. */
export interface Limits {
  timeoutMs: number
  budget: AbortSignal
}

export type ListMethod = 'tools/list' | 'resources/list' | 'prompts/list'

/** A call's outcome as list collection sees it: a result, or a JSON-RPC error, or why nothing usable came back. */
export type CallOutcome =
  | { result: unknown; error?: undefined }
  | { result?: undefined; error: JsonRpcError | string; refused?: AuthRefusal }
export type Call = (method: ListMethod, params: Record<string, unknown>) => Promise<CallOutcome>
