/**
 * The one table that turns the engine's reasons for giving up (ScanError) into what each edge answers: the HTTP
 * routes and the MCP tools an error code of core/errors.ts (hence a status and the spec's envelope), the gated v2
 * entry its own code, the CLI an exit code. The engine never names an HTTP status; nothing else maps its reasons.
 */

import { EXIT_USAGE } from './cli/usage.ts'
import { ScanError, type ScanErrorReason, type ScanFailure } from './engine/scan-error.ts'
import { AppError, type AppErrorOptions, type ErrorCode } from './errors.ts'

interface ScanErrorEdges {
  /** What the scan routes and the MCP tools answer. */
  code: ErrorCode
  /** What POST /api/v2/scan answers instead (its target "is unreachable or cannot be classified"), when it differs. */
  v2Code?: ErrorCode
  /** The CLI's exit code: the target is at fault, not a gate, so CI tells the two apart. */
  exitCode: number
}

export const SCAN_ERRORS: Readonly<Record<ScanErrorReason, ScanErrorEdges>> = {
  'invalid-target': { code: 'INVALID_DOMAIN', exitCode: EXIT_USAGE },
  unreachable: { code: 'DOMAIN_UNREACHABLE', v2Code: 'TARGET_UNREACHABLE', exitCode: EXIT_USAGE },
  'private-address': { code: 'DOMAIN_UNREACHABLE', v2Code: 'TARGET_UNREACHABLE', exitCode: EXIT_USAGE },
  'mcp-unreachable': { code: 'DOMAIN_UNREACHABLE', v2Code: 'TARGET_UNREACHABLE', exitCode: EXIT_USAGE },
  'mcp-auth-required': { code: 'MCP_AUTH_REQUIRED', v2Code: 'TARGET_UNREACHABLE', exitCode: EXIT_USAGE },
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
  return new AppError(SCAN_ERRORS[error.reason].code, {
    message: error.message,
    ...envelopeFields(error.failure),
    cause: error,
  })
}

/** The v2 entry's answer: its own code where the table gives one, the plain reason's code in `details.reason`. */
export function scanErrorToV2AppError(error: ScanError): AppError {
  const { code, v2Code } = SCAN_ERRORS[error.reason]
  if (!v2Code) return scanErrorToAppError(error)
  return new AppError(v2Code, { message: error.message, details: { reason: code }, cause: error })
}

/** An error as the API answers it: AppErrors as they are, ScanErrors through the table, anything else null. */
export function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error
  if (error instanceof ScanError) return scanErrorToAppError(error)
  return null
}
