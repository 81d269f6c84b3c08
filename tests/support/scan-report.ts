import type { CheckStatus } from '../../core/engine/check.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { type CheckResult, ctaFor, gradeFor, type LayerResult } from '../../core/engine/scoring.ts'

/** What a test must say about a scan: its domain and score; every other field has a default and can be overridden. */
export type ScanReportSeed = Partial<ScanReport> & Pick<ScanReport, 'domain' | 'score'>

/**
 * A valid, complete ScanReport of a domain: grade and call to action follow the score, the name is the domain,
 * no layers or fixes, scanned at 2025-06-01T12:00:00.000Z in 1000 ms with 10 requests. Overrides win.
 */
export function scanReport(overrides: ScanReportSeed): ScanReport {
  const { domain, score } = overrides
  return {
    name: domain,
    category: null,
    url: `https://${domain}/`,
    finalUrl: `https://${domain}/`,
    urlKind: 'domain',
    scannedAt: '2025-06-01T12:00:00.000Z',
    durationMs: 1000,
    requestCount: 10,
    siteClassification: null,
    maxScore: 100,
    grade: gradeFor(score),
    ...ctaFor(score),
    layers: [],
    topFixes: [],
    analysisStatus: 'complete',
    pendingChecks: [],
    ...overrides,
  }
}

/** One check result: named and described by its id, 0 of 10 points, no details, a verified required check. */
export function checkResult(id: string, status: CheckStatus, overrides: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    name: id,
    description: id,
    status,
    score: 0,
    maxScore: 10,
    details: '',
    bonus: false,
    maturity: 'verified',
    tier: 'required',
    ...overrides,
  }
}

/** The discovery layer holding the given checks (layer score 0 of 0: the tests using it read the checks only). */
export function discoveryLayer(checks: CheckResult[]): LayerResult {
  return { id: 'discovery', name: 'Discovery', description: 'Can agents find it', score: 0, maxScore: 0, checks }
}
