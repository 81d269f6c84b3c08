/**
 * The one table that turns the engine's reasons for giving up (ScanError) into what the HTTP routes and the MCP
 * tools answer: an error code of core/errors.ts, hence a status and the spec's envelope. The engine never names an
 * HTTP status; an edge with answers of its own (the v2 entry) maps the code this table gives, and the CLI exits 2
 * on any of them (the target is at fault, not a gate).
 */

import { ScanError, type ScanErrorReason, type ScanFailure } from '../engine/scan-error.ts'
import { AppError, type AppErrorOptions, type ErrorCode } from '../errors.ts'

export const SCAN_ERROR_CODES: Readonly<Record<ScanErrorReason, ErrorCode>> = {
  'invalid-target': 'INVALID_DOMAIN',
  unreachable: 'DOMAIN_UNREACHABLE',
  'private-address': 'DOMAIN_UNREACHABLE',
  'mcp-unreachable': 'DOMAIN_UNREACHABLE',
  'mcp-auth-required': 'MCP_AUTH_REQUIRED',
}

/** The body fields the spec gives each reason: `details` for the ones a client debugs, top-level for the auth marker. */
function envelopeFields(failure: ScanFailure): Pick<AppErrorOptions, 'details' | 'extra'> {
  switch (failure.reason) {
    case 'invalid-target':
      return { details: { input: failure.input, reason: failure.problem } }
    case 'unreachable':
    case 'private-address':
      return { details: { origin: failure.origin, reason: failure.cause } }
    case 'mcp-unreachable':
      return { details: { mcpUrl: failure.mcpUrl, reason: failure.cause } }
    case 'mcp-auth-required':
      return { extra: { mcpAuthRequired: true, mcpUrl: failure.mcpUrl, urlKind: failure.urlKind } }
  }
}

/** The AppError an HTTP route or MCP tool answers for a ScanError. */
export function scanErrorToAppError(error: ScanError): AppError {
  return new AppError(SCAN_ERROR_CODES[error.reason], {
    message: error.message,
    ...envelopeFields(error.failure),
    cause: error,
  })
}

/** An error as the API answers it: AppErrors as they are, ScanErrors through the table, anything else null. */
export function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error
  if (error instanceof ScanError) return scanErrorToAppError(error)
  return null
}
