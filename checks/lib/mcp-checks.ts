import Ajv from 'ajv'
import Ajv2019 from 'ajv/dist/2019.js'
import Ajv2020 from 'ajv/dist/2020.js'
import type AjvCore from 'ajv/dist/core.js'
import type { Options, ValidateFunction } from 'ajv'
import AjvDraft04 from 'ajv-draft-04'
import type { JsonRpcError, McpExchange, McpList, McpServerArtifact, McpTool } from '../../core/engine/collectors/mcp.ts'
import { na, type Outcome } from '../../core/engine/check.ts'
import { isRecord, parseJson } from '../../core/engine/snapshot.ts'
import { cachedValidator } from '../../core/engine/lib/ajv-cache.ts'
import { unreachable } from './outcomes.ts'
import { listSome } from '../../core/engine/lib/describe.ts'

/**
 * Pure helpers shared by the MCP checks (checks/mcp/*, checks.md §6): reading the collector's raw exchanges,
 * gating on the tool list, the known protocol revisions, and compiling tool JSON Schemas.
 */

export const MCP_SPEC = 'https://modelcontextprotocol.io/specification/2025-11-25'
export const MCP_MODERN_SPEC = 'https://modelcontextprotocol.io/specification/2026-07-28'

/** Revisions an agent can rely on today (checks.md §6.1); a later one is added here when it ships. */
export const CURRENT_VERSIONS: readonly string[] = ['2025-06-18', '2025-11-25', '2026-07-28']
/** Older revisions still spoken by SDKs: HTTP+SSE, no structured output, no mandatory version header. */
export const DEPRECATED_VERSIONS: readonly string[] = ['2024-10-07', '2024-11-05', '2025-03-26']

export const isModern = (mcp: Pick<McpServerArtifact, 'era'>): boolean => mcp.era === 'modern'

// ---------------------------------------------------------------------------------------------------------
// Exchanges

/**
 * The exchange did not complete (timeout, reset, body over the cap): no response, or an error note without a
 * JSON-RPC answer. Only this makes a check `error`; a completed exchange with a bad answer is judged.
 */
export function unfinished(exchange: McpExchange): boolean {
  return exchange.status === null || (exchange.error !== undefined && exchange.response === undefined)
}

export const is2xx = (exchange: McpExchange): boolean => exchange.status !== null && exchange.status >= 200 && exchange.status < 300

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

/** What a `server/discover` result lacks of `supportedVersions[]` and `capabilities` (checks.md §6.2). */
export function discoverProblems(result: Record<string, unknown>): string[] {
  const problems: string[] = []
  const versions = result.supportedVersions
  if (!Array.isArray(versions) || versions.length === 0 || !versions.every((version) => typeof version === 'string')) {
    problems.push('supportedVersions is not a non-empty array of version strings')
  }
  if (!isRecord(result.capabilities)) problems.push('capabilities is not an object')
  return problems
}

export const isVersionDate = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)

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

export function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`
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
  if (failure?.kind === 'unfinished') return { outcome: unreachable(`tools/list did not complete (${failure.detail}), so there are no tools to judge`) }
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

// ---------------------------------------------------------------------------------------------------------
// JSON Schema compilation (Ajv)

export type SchemaDialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-04'

export type CompiledSchema =
  | { ok: true; dialect: SchemaDialect; validate: ValidateFunction }
  | { ok: false; dialect: SchemaDialect | null; problem: string }

// Formats are not asserted (MCP SDKs differ on them) and unknown keywords are allowed, as the SDK's own validator does.
const AJV_OPTIONS = { strict: false, validateFormats: false, allErrors: true, logger: false } as const
const DIALECTS: Record<string, SchemaDialect> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': 'draft-07',
  'json-schema.org/draft-04/schema': 'draft-04',
}
/** Each dialect's meta-schema, under the id its Ajv registers it with. */
const META_SCHEMA_IDS: Record<SchemaDialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema',
  'draft-04': 'http://json-schema.org/draft-04/schema',
}
const instances = new Map<SchemaDialect, AjvCore>()
/** Compiled schemas by dialect and text, shared across scans: tool schemas repeat across servers built on one SDK. */
const compiled = new Map<string, CompiledSchema>()
const CACHE_LIMIT = 2000

function newAjv(dialect: SchemaDialect, options: Options): AjvCore {
  if (dialect === '2020-12') return new Ajv2020(options)
  if (dialect === '2019-09') return new Ajv2019(options)
  if (dialect === 'draft-07') return new Ajv(options)
  return new AjvDraft04(options)
}

function ajvFor(dialect: SchemaDialect): AjvCore {
  let ajv = instances.get(dialect)
  if (!ajv) {
    ajv = newAjv(dialect, AJV_OPTIONS)
    useCachedMetaSchema(ajv, dialect)
    instances.set(dialect, ajv)
  }
  return ajv
}

/**
 * Ajv compiles a meta-schema the first time a schema is checked against it (20-30 ms for 2020-12, on every CLI
 * run); the compiled code comes from the disk cache instead and is handed to Ajv as that meta-schema's validator.
 * It is compiled apart, by an Ajv that keeps its code (the one tool schemas go through need not).
 */
function useCachedMetaSchema(ajv: AjvCore, dialect: SchemaDialect): void {
  const id = META_SCHEMA_IDS[dialect]
  const meta = ajv.schemas[id]
  if (!meta || meta.validate) return
  // The vocabularies a meta-schema refers to are part of what its code was compiled from.
  const identity = { options: AJV_OPTIONS, schemas: Object.values(ajv.schemas).map((env) => env?.schema) }
  meta.validate = cachedValidator(`meta-schema-${dialect}`, identity, () => {
    const compiler = newAjv(dialect, { ...AJV_OPTIONS, code: { source: true } })
    return { ajv: compiler, validate: compiler.getSchema(id)! }
  })
}

/** The dialect a schema declares: 2020-12 when `$schema` is absent (MCP 2025-11-25), null when unsupported. */
export function schemaDialect(schema: Record<string, unknown>): SchemaDialect | null {
  if (schema.$schema === undefined) return '2020-12'
  if (typeof schema.$schema !== 'string') return null
  const key = schema.$schema
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/#$/, '')
    .replace(/\/$/, '')
  return DIALECTS[key] ?? null
}

/** Compiles a schema once per distinct text and dialect; the answer says why it does not compile. */
export function compileSchema(schema: Record<string, unknown>): CompiledSchema {
  const dialect = schemaDialect(schema)
  if (!dialect) return { ok: false, dialect: null, problem: `unsupported $schema dialect "${clip(String(schema.$schema), 80)}"` }
  const key = `${dialect}\n${JSON.stringify(schema)}`
  const known = compiled.get(key)
  if (known) return known
  const ajv = ajvFor(dialect)
  let answer: CompiledSchema
  try {
    // Checked against the meta-schema first, for one precise message instead of Ajv's summary of every branch.
    const invalid = ajv.validateSchema(schema) ? null : ajv.errors?.[0]
    answer = invalid
      ? { ok: false, dialect, problem: clip(`${invalid.instancePath || '/'} ${invalid.message ?? 'is invalid'}`, 160) }
      : { ok: true, dialect, validate: ajv.compile(schema) }
  } catch (error) {
    answer = { ok: false, dialect, problem: clip(error instanceof Error ? error.message : String(error), 160) }
  } finally {
    // Keep the instance's registry empty, so that two tools reusing one `$id` never collide.
    ajv.removeSchema(schema)
  }
  if (compiled.size >= CACHE_LIMIT) compiled.delete(compiled.keys().next().value!)
  compiled.set(key, answer)
  return answer
}

/** Why a value does not match a compiled schema ("/count must be integer"); null when it does. */
export function schemaMismatch(validate: ValidateFunction, value: unknown): string | null {
  if (validate(value)) return null
  const first = validate.errors?.[0]
  return first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'does not match'
}
