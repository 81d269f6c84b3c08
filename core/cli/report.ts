import type { ScanReport } from '../engine/scan.ts'

/**
 * The one report every CLI format renders, whether the scan ran in-process or on a server (`--server`): the
 * fields both the engine's ScanReport and the API's audit shape carry, so that the two runs print the same thing.
 */
export interface CliReport {
  domain: string
  name: string
  /** The URL fetched after redirects (the audit shape's `url` is the service's report page: `reportUrl`). */
  url: string
  reportUrl?: string
  urlKind?: string
  /** Null for a partial run (`--only`): a subset of checks has no overall score. */
  score: number | null
  grade: string | null
  /** True when only some checks ran (`--only`); the output says so. */
  partial: boolean
  analysisStatus: string
  pendingChecks: string[]
  ctaMessage?: string | null
  scannedAt: string | null
  durationMs: number | null
  layers: CliLayer[]
  topFixes: CliFix[]
  /** `in-process`, or the server's base URL. */
  source: string
}

export interface CliLayer {
  id: string
  name: string
  score: number | null
  maxScore: number | null
  checks: CliCheck[]
}

export interface CliCheck {
  id: string
  name: string
  status: string
  score: number
  maxScore: number
  details?: string
  recommendation?: string
  naReason?: string
  specUrl?: string
  mcpUrl?: string
  estScoreGain?: number
}

export interface CliFix {
  id: string
  name: string
  estScoreGain: number
  recommendation?: string
}

/** The check fields rendered; anything else the source carries (evidence, bookkeeping) is dropped. */
export function toCheck(check: CliCheck): CliCheck {
  return {
    id: check.id,
    name: check.name,
    status: check.status,
    score: check.score,
    maxScore: check.maxScore,
    ...(check.details ? { details: check.details } : {}),
    ...(check.recommendation ? { recommendation: check.recommendation } : {}),
    ...(check.naReason ? { naReason: check.naReason } : {}),
    ...(check.specUrl ? { specUrl: check.specUrl } : {}),
    ...(check.mcpUrl ? { mcpUrl: check.mcpUrl } : {}),
    ...(check.estScoreGain !== undefined ? { estScoreGain: check.estScoreGain } : {}),
  }
}

/** The audit shape (POST /api/scan or GET /api/score under `format=audit`) and a ScanReport agree on these. */
interface ScoredShape {
  domain: string
  name?: string
  score: number
  grade: string
  analysisStatus?: string
  pendingChecks?: string[]
  ctaMessage?: string | null
  scannedAt: string | null
  durationMs: number | null
  urlKind?: string
  finalUrl?: string
  layers: { id: string; name: string; score: number; maxScore: number; checks: CliCheck[] }[]
  topFixes: CliFix[]
}

function fromScored(shape: ScoredShape, target: string, source: string, partial: boolean): CliReport {
  return {
    domain: shape.domain,
    name: shape.name ?? shape.domain,
    url: shape.finalUrl ?? target,
    ...(shape.urlKind ? { urlKind: shape.urlKind } : {}),
    score: partial ? null : shape.score,
    grade: partial ? null : shape.grade,
    partial,
    analysisStatus: shape.analysisStatus ?? 'complete',
    pendingChecks: shape.pendingChecks ?? [],
    ...(shape.ctaMessage !== undefined && !partial ? { ctaMessage: shape.ctaMessage } : {}),
    scannedAt: shape.scannedAt,
    durationMs: shape.durationMs,
    // A partial run shows only the layers it touched, without layer totals that would read as scores.
    layers: shape.layers
      .filter((layer) => !partial || layer.checks.length > 0)
      .map((layer) => ({
        id: layer.id,
        name: layer.name,
        score: partial ? null : layer.score,
        maxScore: partial ? null : layer.maxScore,
        checks: layer.checks.map(toCheck),
      })),
    topFixes: partial
      ? []
      : shape.topFixes.map((fix) => ({
          id: fix.id,
          name: fix.name,
          estScoreGain: fix.estScoreGain,
          ...(fix.recommendation ? { recommendation: fix.recommendation } : {}),
        })),
    source,
  }
}

export function fromScanReport(report: ScanReport, options: { partial: boolean }): CliReport {
  return fromScored(report, report.url, 'in-process', options.partial)
}

/** An AuditScanResult or AuditScoreResult; its `url` is the report page on the service's own site. */
export function fromAudit(audit: ScoredShape & { url: string }, target: string, server: string): CliReport {
  return { ...fromScored(audit, target, server, false), reportUrl: audit.url }
}
