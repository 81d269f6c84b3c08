/**
 * The one error registry: every error the API can answer has a code here with its status and a short title.
 * Routes throw `AppError`; the single `onError` mapper (core/request/error-mapping.ts) turns it into the spec's envelope.
 * The engine never throws one: it throws ScanError, which core/request/scan-error-response.ts maps to an AppError at the edge.
 */

import { z } from 'zod'

export const ERRORS = {
  VALIDATION_FAILED: { status: 400, title: 'Invalid request' },
  INVALID_JSON: { status: 400, title: 'Malformed JSON body' },
  INVALID_DOMAIN: { status: 400, title: 'Invalid domain' },
  DOMAIN_UNREACHABLE: { status: 400, title: 'Domain unreachable' },
  UNKNOWN_CHECK_IDS: { status: 400, title: 'Unknown check ids' },
  EPHEMERAL_CLOBBER: { status: 400, title: 'Domain already has a stored scan' },
  INVALID_ARGUMENT: { status: 400, title: 'Invalid argument' },
  CUSTOM_INTENT_REQUIRES_KEY: { status: 401, title: 'Custom intents require a partner key' },
  PARTNER_KEY_REQUIRED: { status: 401, title: 'Partner key required' },
  AGENT_VERIFICATION_FAILED: { status: 401, title: 'Agent verification failed' },
  HOST_NOT_ALLOWED: { status: 403, title: 'Host not allowed' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  DOMAIN_NOT_SCANNED: { status: 404, title: 'Domain not scanned' },
  ENDPOINT_NOT_FOUND: { status: 404, title: 'Endpoint not found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  MCP_AUTH_REQUIRED: { status: 422, title: 'MCP server requires authentication' },
  TARGET_UNREACHABLE: { status: 422, title: 'Target unreachable or unclassifiable' },
  RATE_LIMIT_EXCEEDED: { status: 429, title: 'Rate limit exceeded' },
  INTERNAL_ERROR: { status: 500, title: 'Internal error' },
  SCAN_FAILED: { status: 500, title: 'Scan failed' },
  DATABASE_UNAVAILABLE: { status: 500, title: 'Database unavailable' },
  MAIL_FAILED: { status: 500, title: 'Mail delivery failed' },
  V2_SCAN_DISABLED: { status: 503, title: 'v2 scan is disabled in this deployment' },
  VERIFICATION_UNAVAILABLE: { status: 503, title: 'Agent verification unavailable' },
  NOT_READY: { status: 503, title: 'Service not ready' },
} as const satisfies Record<string, { status: number; title: string }>

export type ErrorCode = keyof typeof ERRORS

/** The spec's ErrorResponse, as routes declare it for validation and OpenAPI. */
export const errorResponse = z.object({
  error: z.string(),
  message: z.string().optional(),
  code: z.string().optional(),
  retry_after_ms: z.number().int().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
})

/** ARD routes answer with `errorCode` from this closed set, derived from the status. */
export const ARD_ERROR_CODES = [
  'INVALID_ARGUMENT',
  'UNAUTHENTICATED',
  'NOT_FOUND',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
] as const
export type ArdErrorCode = (typeof ARD_ERROR_CODES)[number]

/** The spec's ArdErrorResponse (ARD routes and the catalog). */
export const ardErrorResponse = z.object({
  errorCode: z.enum(ARD_ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})

/** The body an error answers with: the spec's ErrorResponse, or ArdErrorResponse (ARD routes and the catalog). */
export type ErrorEnvelope = 'error' | 'ard'

/** Paths whose errors use ArdErrorResponse; the spec also gives the catalog route that envelope. */
export const ARD_ENVELOPE_PREFIXES = ['/api/ard', '/api/checks'] as const

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
  readonly status: number
  readonly details?: Record<string, unknown>
  readonly retryAfterSeconds?: number
  readonly durableRetry: boolean
  readonly extra: Record<string, unknown>
  readonly headers: Record<string, string>

  constructor(
    readonly code: ErrorCode,
    options: AppErrorOptions = {},
  ) {
    super(options.message ?? ERRORS[code].title, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.status = ERRORS[code].status
    this.details = options.details
    this.retryAfterSeconds = options.retryAfterSeconds
    this.durableRetry = options.durableRetry ?? false
    this.extra = options.extra ?? {}
    this.headers = options.headers ?? {}
  }
}

export function ardErrorCode(status: number): ArdErrorCode {
  if (status === 401 || status === 403) return 'UNAUTHENTICATED'
  if (status === 404) return 'NOT_FOUND'
  if (status === 429) return 'RATE_LIMIT_EXCEEDED'
  if (status >= 500) return 'INTERNAL_ERROR'
  return 'INVALID_ARGUMENT'
}

/**
 * The envelope the spec gives the errors of an HTTP path (ArdErrorResponse under ARD_ENVELOPE_PREFIXES). Only
 * answers to an HTTP request ask: the scan stream and the MCP tools name theirs (`error`) when they render.
 */
export function envelopeFor(pathname: string): ErrorEnvelope {
  return ARD_ENVELOPE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
    ? 'ard'
    : 'error'
}

/** Builds the response body and headers for an AppError in the given envelope. */
export function renderError(
  error: AppError,
  envelope: ErrorEnvelope,
): { body: Record<string, unknown>; headers: Record<string, string> } {
  const headers: Record<string, string> = { ...error.headers }
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds)
  if (envelope === 'ard') {
    const body: Record<string, unknown> = { errorCode: ardErrorCode(error.status), message: error.message }
    if (error.details) body.details = error.details
    return { body: { ...body, ...error.extra }, headers }
  }
  const body: Record<string, unknown> = { error: ERRORS[error.code].title, code: error.code, message: error.message }
  if (error.durableRetry && error.retryAfterSeconds !== undefined) body.retry_after_ms = error.retryAfterSeconds * 1000
  if (error.details) body.details = error.details
  return { body: { ...body, ...error.extra }, headers }
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
