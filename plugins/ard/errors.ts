/**
 * The ARD API's errors: ArdErrorResponse, the envelope the spec gives its routes (plugins/ard's and plugins/trust's,
 * under /api/ard) and the catalog's (plugins/catalog), and the one code only this feature throws.
 */

import { z } from 'zod'
import { type AppError, defineErrors, type EnvelopeClaim, type ErrorEnvelope } from '../../core/errors.ts'

export const ARD_ERRORS = defineErrors({
  INVALID_ARGUMENT: { status: 400, title: 'Invalid argument' },
})

/** ARD routes answer with `errorCode` from this closed set, derived from the status. */
const ARD_ERROR_CODES = [
  'INVALID_ARGUMENT',
  'UNAUTHENTICATED',
  'NOT_FOUND',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
] as const
type ArdErrorCode = (typeof ARD_ERROR_CODES)[number]

/** The spec's ArdErrorResponse (ARD routes and the catalog). */
export const ardErrorResponse = z.object({
  errorCode: z.enum(ARD_ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})

function ardErrorCode(status: number): ArdErrorCode {
  if (status === 401 || status === 403) return 'UNAUTHENTICATED'
  if (status === 404) return 'NOT_FOUND'
  if (status === 429) return 'RATE_LIMIT_EXCEEDED'
  if (status >= 500) return 'INTERNAL_ERROR'
  return 'INVALID_ARGUMENT'
}

export const ARD_ENVELOPE: ErrorEnvelope = {
  schemaName: 'ArdErrorResponse',
  schema: ardErrorResponse,
  head: (error: AppError) => ({ errorCode: ardErrorCode(error.status), message: error.message }),
  retryInBody: false,
}

/** The ARD API's paths, whichever of its two features (ard, trust) is composed. */
export const ARD_API_ENVELOPE: EnvelopeClaim = { prefixes: ['/api/ard'], envelope: ARD_ENVELOPE }
