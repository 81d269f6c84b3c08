/**
 * Errors as a mechanism: an error is a definition (code, status, short title); routes throw `AppError` built from
 * one; the single `onError` mapper (core/request/error-mapping.ts) writes it in the envelope of the request's path.
 * ERRORS holds the codes the kernel throws or several features share; a code only one feature throws is declared by
 * that feature (`defineErrors` in its errors.ts, listed in its definition's `errors`), and so is an envelope other
 * than ErrorResponse for its routes. The boot check (core/feature.ts) refuses a code declared twice.
 * The engine never throws an AppError: it throws ScanError, which core/request/scan-error-response.ts maps at the edge.
 */

import { z } from 'zod'

export interface ErrorDefinition<Code extends string = string> {
  readonly code: Code
  readonly status: number
  readonly title: string
}

/** A `defineErrors` table: each entry a definition named by its key. */
type ErrorTable<Table> = { readonly [Code in Extract<keyof Table, string>]: ErrorDefinition<Code> }

/** Each entry as a definition named by its key, so that the key written where the error is thrown is checked. */
export function defineErrors<const Table extends Record<string, { status: number; title: string }>>(
  table: Table,
): ErrorTable<Table> {
  const entries = Object.entries(table).map(([code, { status, title }]) => [code, { code, status, title }])
  return Object.fromEntries(entries) as ErrorTable<Table>
}

export const ERRORS = defineErrors({
  VALIDATION_FAILED: { status: 400, title: 'Invalid request' },
  INVALID_JSON: { status: 400, title: 'Malformed JSON body' },
  INVALID_DOMAIN: { status: 400, title: 'Invalid domain' },
  DOMAIN_UNREACHABLE: { status: 400, title: 'Domain unreachable' },
  UNKNOWN_CHECK_IDS: { status: 400, title: 'Unknown check ids' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  ENDPOINT_NOT_FOUND: { status: 404, title: 'Endpoint not found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  MCP_AUTH_REQUIRED: { status: 422, title: 'MCP server requires authentication' },
  RATE_LIMIT_EXCEEDED: { status: 429, title: 'Rate limit exceeded' },
  INTERNAL_ERROR: { status: 500, title: 'Internal error' },
  DATABASE_UNAVAILABLE: { status: 500, title: 'Database unavailable' },
  NOT_READY: { status: 503, title: 'Service not ready' },
})

/** A code of the kernel's, which AppError takes by name. */
export type ErrorCode = keyof typeof ERRORS

/** The spec's ErrorResponse, as routes declare it for validation and OpenAPI. */
export const errorResponse = z.object({
  error: z.string(),
  message: z.string().optional(),
  code: z.string().optional(),
  retry_after_ms: z.number().int().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
})

export interface AppErrorOptions {
  message?: string
  details?: Record<string, unknown>
  /** Set on durable (daily) rate-limit denials: the 429 body carries `retry_after_ms` and `Retry-After`. */
  retryAfterSeconds?: number
  /** Whether `retry_after_ms` is included in the body (durable denials) or only the header is sent (bursts). */
  durableRetry?: boolean
  /** Extra top-level body fields the spec requires for this error (e.g. `domain`, `next_action`). */
  extra?: Record<string, unknown>
  headers?: Record<string, string>
  cause?: unknown
}

export class AppError extends Error {
  readonly code: string
  readonly status: number
  readonly title: string
  readonly details?: Record<string, unknown>
  readonly retryAfterSeconds?: number
  readonly durableRetry: boolean
  readonly extra: Record<string, unknown>
  readonly headers: Record<string, string>

  /** `error` is a kernel code by name, or a definition from a feature's `defineErrors` table. */
  constructor(error: ErrorCode | ErrorDefinition, options: AppErrorOptions = {}) {
    const definition = typeof error === 'string' ? ERRORS[error] : error
    super(options.message ?? definition.title, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.code = definition.code
    this.status = definition.status
    this.title = definition.title
    this.details = options.details
    this.retryAfterSeconds = options.retryAfterSeconds
    this.durableRetry = options.durableRetry ?? false
    this.extra = options.extra ?? {}
    this.headers = options.headers ?? {}
  }
}

/** How an error's body is written. ErrorResponse is the kernel's; a feature may declare another for its routes. */
export interface ErrorEnvelope {
  /** The name of its schema under components.schemas in /openapi.json. */
  readonly schemaName: string
  readonly schema: z.ZodType
  /** The fields the body opens with; `retry_after_ms` (when `retryInBody`), `details` and extra fields follow. */
  head(error: AppError): Record<string, unknown>
  /** Whether a denial of a daily budget carries `retry_after_ms` in the body, besides the `Retry-After` header. */
  readonly retryInBody: boolean
}

/** ErrorResponse: the envelope of every error but those of the paths a feature claims for another. */
export const ERROR_ENVELOPE: ErrorEnvelope = {
  schemaName: 'ErrorResponse',
  schema: errorResponse,
  head: (error) => ({ error: error.title, code: error.code, message: error.message }),
  retryInBody: true,
}

/** Builds the response body and headers for an AppError in the given envelope. */
export function renderError(
  error: AppError,
  envelope: ErrorEnvelope,
): { body: Record<string, unknown>; headers: Record<string, string> } {
  const headers: Record<string, string> = { ...error.headers }
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds)
  const body = envelope.head(error)
  if (envelope.retryInBody && error.durableRetry && error.retryAfterSeconds !== undefined)
    body.retry_after_ms = error.retryAfterSeconds * 1000
  if (error.details) body.details = error.details
  return { body: { ...body, ...error.extra }, headers }
}

/** An envelope a feature writes its routes' errors in, and the path prefixes of those routes. */
export interface EnvelopeClaim {
  readonly prefixes: readonly string[]
  readonly envelope: ErrorEnvelope
}

/** The errors of a composed app, as core/feature.ts collects them: every code, and the envelope of each path. */
export class AppErrors {
  constructor(
    /** Every code, the kernel's then each feature's, with its definition. */
    readonly codes: ReadonlyMap<string, ErrorDefinition>,
    private readonly claims: readonly EnvelopeClaim[],
  ) {}

  /** Every envelope in use, ErrorResponse first. */
  get envelopes(): ErrorEnvelope[] {
    return [...new Set([ERROR_ENVELOPE, ...this.claims.map(({ envelope }) => envelope)])]
  }

  /**
   * The envelope of an HTTP path's errors: that of the longest prefix a feature claims, ErrorResponse when none
   * does. Only answers to an HTTP request ask: the scan stream and the MCP tools write ErrorResponse.
   */
  envelopeFor(pathname: string): ErrorEnvelope {
    let found: { prefix: string; envelope: ErrorEnvelope } | undefined
    for (const { prefixes, envelope } of this.claims) {
      for (const prefix of prefixes) {
        if (!isUnder(pathname, prefix) || (found && found.prefix.length >= prefix.length)) continue
        found = { prefix, envelope }
      }
    }
    return found?.envelope ?? ERROR_ENVELOPE
  }
}

/** Whether a path is the prefix or below it (`/a` covers `/a/b`, not `/ab`). */
function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`)
}

/** postgres.js socket and connection codes: the server cannot be reached or dropped the connection. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // SQLSTATE: too_many_connections, admin_shutdown, crash_shutdown, cannot_connect_now.
  '53300',
  '57P01',
  '57P02',
  '57P03',
])

/**
 * Whether an error (or one it wraps: drizzle puts the driver's error in `cause`) means the database cannot be
 * reached, as opposed to a query it refused. Covers postgres.js connection failures, SQLSTATE class 08
 * (connection exception) and a closed PGlite.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true
    if (current.message === 'PGlite is closed') return true
  }
  return false
}
