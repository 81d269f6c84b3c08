import { defineErrors } from '../../core/errors.ts'

/** The codes only the scan feature throws (its v2 entry included). */
export const SCAN_ERRORS = defineErrors({
  EPHEMERAL_CLOBBER: { status: 400, title: 'Domain already has a stored scan' },
  TARGET_UNREACHABLE: { status: 422, title: 'Target unreachable or unclassifiable' },
  V2_SCAN_DISABLED: { status: 503, title: 'v2 scan is disabled in this deployment' },
})
