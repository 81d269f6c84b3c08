import { defineErrors } from '../../core/errors.ts'

/**
 * The scan feature's codes (its v2 entry included). The MCP tools and the report pages answer some of them too,
 * through the feature's public module.
 */
export const SCAN_ERRORS = defineErrors({
  DOMAIN_NOT_SCANNED: { status: 404, title: 'Domain not scanned' },
  EPHEMERAL_CLOBBER: { status: 400, title: 'Domain already has a stored scan' },
  TARGET_UNREACHABLE: { status: 422, title: 'Target unreachable or unclassifiable' },
  SCAN_FAILED: { status: 500, title: 'Scan failed' },
  V2_SCAN_DISABLED: { status: 503, title: 'v2 scan is disabled in this deployment' },
})
