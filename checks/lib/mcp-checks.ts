/**
 * Pure helpers shared by the MCP checks (checks/mcp/*, docs/checks.md §6): reading the collector's raw exchanges,
 * gating on the tool list, and the known protocol revisions. Compiling tool JSON Schemas is checks/lib/json-schema.ts.
 */
import type {
  JsonRpcError,
  McpExchange,
  McpList,
  McpServerArtifact,
  McpTool,
} from '../../core/engine/collectors/mcp.ts'
import { na, type Outcome } from '../../core/engine/check.ts'
import { clip, listSome } from '../../core/engine/lib/describe.ts'
import { isRecord, parseJson } from '../../core/engine/snapshot.ts'
import { unreachable } from './outcomes.ts'

export const MCP_SPEC = 'https://modelcontextprotocol.io/specification/2025-11-25'
export const MCP_MODERN_SPEC = 'https://modelcontextprotocol.io/specification/2026-07-28'
const MODERN_VERSION = '2026-07-28'

/** Revisions an agent can rely on today (docs/checks.md §6.1); a later one is added here when it ships. */
export const CURRENT_VERSIONS: readonly string[] = ['2025-06-18', '2025-11-25', '2026-07-28']
/** Older revisions still spoken by SDKs: HTTP+SSE, no structured output, no mandatory version header. */
export const DEPRECATED_VERSIONS: readonly string[] = ['2024-10-07', '2024-11-05', '2025-03-26']

export const isModern = (mcp: Pick<McpServerArtifact, 'era'>): boolean => mcp.era === 'modern'

/**
 * The server speaks 2026-07-28: only that revision (`modern`), or next to the handshake-based ones (a legacy
 * handshake, and a `server/discover` result listing 2026-07-28 among its supportedVersions).
 */
export function speaksModern(mcp: Pick<McpServerArtifact, 'era' | 'discover'>): boolean {
  if (isModern(mcp)) return true
  const versions = resultOf(mcp.discover)?.supportedVersions
  return Array.isArray(versions) && versions.includes(MODERN_VERSION)
}

// ---------------------------------------------------------------------------------------------------------
// Exchanges

/**
 * The exchange did not complete (timeout, reset, body over the cap): no response, or an error note without a
 * JSON-RPC answer. Only this makes a check `error`; a completed exchange with a bad answer is judged.
 */
export function unfinished(exchange: McpExchange): boolean {
  return exchange.status === null || (exchange.error !== undefined && exchange.response === undefined)
}

export const is2xx = (exchange: McpExchange): boolean =>
  exchange.status !== null && exchange.status >= 200 && exchange.status < 300

/** The JSON-RPC result object of an exchange, when one came back. */
export function resultOf(exchange: McpExchange): Record<string, unknown> | undefined {
  const result = exchange.response?.result
  return isRecord(result) ? result : undefined
}

export function errorCode(exchange: McpExchange): number | undefined {
  return exchange.response?.error?.code
}

/** "HTTP 200 application/json with JSON-RPC error -32601", "no response (timed out)": an exchange in a few words. */
export function describeExchange(exchange: McpExchange): string {
  if (exchange.status === null) return `no response (${exchange.error ?? 'connection failed'})`
  const head = `HTTP ${exchange.status}${exchange.contentType ? ` ${exchange.contentType}` : ''}`
  const error = exchange.response?.error
  if (error) return `${head} with ${describeRpcError(error)}`
  if (exchange.response?.result !== undefined) return `${head} with a JSON-RPC result`
  if (exchange.html) return `HTTP ${exchange.status} with an HTML page`
  if (exchange.body.trim() === '') return `${head} with an empty body`
  if (exchange.error) return `${head}, then ${exchange.error}`
  return `${head} ("${clip(exchange.body.trim().replace(/\s+/g, ' '), 60)}")`
}

/** The request body was a JSON-RPC request (a method and an id), not a notification or a malformed probe. */
export function isRequest(exchange: McpExchange): boolean {
  const body = parseJson(exchange.request.body ?? '')
  return isRecord(body) && typeof body.method === 'string' && 'id' in body
}

/** `JSON-RPC error -32601 "Method not found"`; the collector records a missing code as NaN. */
export function describeRpcError(error: JsonRpcError): string {
  const code = Number.isNaN(error.code) ? 'without a numeric code' : String(error.code)
  return `JSON-RPC error ${code}${error.message ? ` "${clip(error.message, 80)}"` : ''}`
}

/**
 * A verdict from probes of which some did not finish: a fail stands (more evidence cannot lift it), anything
 * better is unproven and becomes a retryable `error` naming the unfinished probes.
 */
export function settle(outcome: Outcome, unfinishedProbes: readonly string[]): Outcome {
  if (unfinishedProbes.length === 0) return outcome
  const note = `${listSome(unfinishedProbes)} did not complete`
  if (outcome.status === 'fail') return { ...outcome, details: `${outcome.details}; ${note}` }
  const soFar = outcome.details ? ` (so far: ${outcome.details})` : ''
  return unreachable(`${note}, so this cannot be judged yet${soFar}; retry the scan`)
}

export interface ListFailure {
  /** unfinished: timeout or transport failure; rpc: a JSON-RPC error; invalid: an answer that is not a list. */
  kind: 'unfinished' | 'rpc' | 'invalid'
  detail: string
}

/** The SDK client's own timeout (McpError RequestTimeout): the server never answered. */
const SDK_REQUEST_TIMEOUT = -32001
/** Failures the collector records as text although the server did answer: an HTTP error, the wrong media type, no list. */
const ANSWERED_BADLY = /^Streamable HTTP error|^SSE error|^HTTP \d{3} |result has no \w+ array/

/** Why a list call stopped, telling a server that answered badly from one that never answered; null when it did not fail. */
export function listFailure(list: Pick<McpList<unknown>, 'error'>): ListFailure | null {
  const { error } = list
  if (error === undefined) return null
  if (typeof error !== 'string') {
    return { kind: error.code === SDK_REQUEST_TIMEOUT ? 'unfinished' : 'rpc', detail: describeRpcError(error) }
  }
  return { kind: ANSWERED_BADLY.test(error) ? 'invalid' : 'unfinished', detail: clip(error, 120) }
}

// ---------------------------------------------------------------------------------------------------------
// Handshake and discover

/** The `server/discover` result (modern servers; a legacy one answers -32601). */
export function discoverResult(mcp: Pick<McpServerArtifact, 'discover'>): Record<string, unknown> | undefined {
  return resultOf(mcp.discover)
}

/** What a `server/discover` result lacks of `supportedVersions[]` and `capabilities` (docs/checks.md §6.2). */
export function discoverProblems(result: Record<string, unknown>): string[] {
  const problems: string[] = []
  const versions = result.supportedVersions
  if (!Array.isArray(versions) || versions.length === 0 || !versions.every((version) => typeof version === 'string')) {
    problems.push('supportedVersions is not a non-empty array of version strings')
  }
  if (!isRecord(result.capabilities)) problems.push('capabilities is not an object')
  return problems
}

export const isVersionDate = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)

/** The trimmed string, or '' for anything that is not a string. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

/** Fixes joined into one sentence: "Set x; add y." */
export function sentence(parts: readonly string[]): string {
  const joined = parts.join('; ')
  if (!joined) return ''
  return `${joined.charAt(0).toUpperCase()}${joined.slice(1)}${joined.endsWith('.') ? '' : '.'}`
}

// ---------------------------------------------------------------------------------------------------------
// Tools

/** `"a", "b" and 3 more`: tool names for details and recommendations. */
export function quoted(names: readonly string[], max = 3): string {
  return listSome(
    [...new Set(names)].map((name) => `"${clip(name, 60)}"`),
    max,
  )
}

/**
 * The listed tools, or the outcome for a tool-quality check when there are none: `error` when the list could not
 * be fetched (transport), `na` otherwise (mcp-tools-list judges an empty or failing list).
 */
export function listedTools(mcp: Pick<McpServerArtifact, 'tools'>): { tools: McpTool[] } | { outcome: Outcome } {
  if (mcp.tools.items.length > 0) return { tools: mcp.tools.items }
  const failure = listFailure(mcp.tools)
  if (failure?.kind === 'unfinished')
    return { outcome: unreachable(`tools/list did not complete (${failure.detail}), so there are no tools to judge`) }
  const why = failure ? `tools/list failed with ${failure.detail}` : 'the server lists no tools'
  return { outcome: na(`No tools to judge: ${why} (mcp-tools-list reports this)`) }
}

/** The top-level `properties` of an object schema, as [name, schema] pairs. */
export function schemaProperties(schema: unknown): [string, unknown][] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return []
  return Object.entries(schema.properties)
}

/** An object schema: a JSON object whose `type` is "object" (MCP requires it for input and output schemas). */
export function isObjectSchema(schema: unknown): schema is Record<string, unknown> {
  return isRecord(schema) && schema.type === 'object'
}
