/**
 * What other features may use of the scan feature: the stored scans' repository and row, the published pool every
 * ranking reads (the scans table is read only here, under plugins/scan/), report addresses and the request and
 * result schemas other surfaces reuse. Anything else under plugins/scan/ is the feature's own.
 */
export {
  type CompetitorSet,
  competitorsFor,
  latestPublishedScans,
  poolRank,
  publishedCheckStatusCounts,
} from './competitors.ts'
export {
  auditScanResult,
  auditScoreResult,
  competitor,
  MAX_AGE_DEFAULT,
  runChecksBody,
  runChecksResponse,
  runChecksResultEntry,
  scanBody,
} from './model.ts'
export { EPHEMERAL_RETENTION_MS, ScanRepository, type ScanRow, type ScanStoredListener } from './repository.ts'
export type { ScanService } from './service.ts'
export { isStuck, reportPath, shapeOptions } from './shapes.ts'
export {
  isMcpKind,
  mcpKey,
  mcpReportPath,
  mcpTargetOn,
  reportPathFor,
  siteKey,
  siteReportPath,
  type TargetKey,
  targetLabel,
} from './target.ts'
export { assertScanPages, SCAN_LIMITS } from './limits.ts'
export { SCAN_ERRORS } from './errors.ts'
