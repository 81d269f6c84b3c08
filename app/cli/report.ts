import type { PageVerdict } from '../../core/engine/page-verdict.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import type { PageSampleSummary, SampledPage } from '../../core/engine/site-sample.ts'
import type { ReportCheckInput, ReportLayerInput } from '../../core/report/index.ts'

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
  /** The check catalog the scan ran against: a baseline from another one is compared with care. */
  contractVersion?: string
  /** Failing checks that stop agents outright; each multiplies the score by `blockFactor` (contract 1.28.0). */
  blockedBy?: string[]
  blockFactor?: number
  /** The scan sent the user's headers (`--header`, `--header-env`) to the MCP origin: their names, never values. */
  authenticated?: { headers: string[] }
  /** A multi-page scan (`--pages`): the pages judged, the homepage first, and how the sample came about. */
  pages?: SampledPage[]
  pageSample?: PageSampleSummary
}

/** A layer as the report model reads it, holding the CLI's checks. */
export interface CliLayer extends Omit<ReportLayerInput, 'checks'> {
  checks: CliCheck[]
}

/** The check fields the report model reads (core/report), plus what only the CLI's gates and JUnit need. */
export interface CliCheck extends ReportCheckInput {
  /** verified checks count toward the score; emerging ones are shown only. */
  maturity?: string
  /** A beta check runs but cannot affect any score (the catalog's flag; absent from older reports). */
  beta?: boolean
  /** A page-level check of a multi-page scan: pages judged and passed, and the failing ones with their fix. */
  pages?: PageVerdict
}

export interface CliFix {
  id: string
  name: string
  estScoreGain: number
  recommendation?: string
  mcpUrl?: string
}

/**
 * Whether a check that is not met lowers the score: only verified, non-bonus, non-beta checks do (the engine's
 * own rule). The others are extras: shown, never held against the site.
 */
export function countsAgainst(check: Pick<CliCheck, 'bonus' | 'maturity' | 'beta'>): boolean {
  return check.bonus !== true && check.maturity !== 'emerging' && check.beta !== true
}

/** What kind of extra a check is, for the reader: `bonus`, `emerging` or `beta`; null for a scored check. */
export function extraKind(check: Pick<CliCheck, 'bonus' | 'maturity' | 'beta'>): 'bonus' | 'emerging' | 'beta' | null {
  return check.beta ? 'beta' : check.bonus ? 'bonus' : check.maturity === 'emerging' ? 'emerging' : null
}

/** The check fields rendered; anything else the source carries (evidence, bookkeeping) is dropped. */
export function toCheck(check: CliCheck, isBeta: (id: string) => boolean = () => false): CliCheck {
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
    ...(check.tier ? { tier: check.tier } : {}),
    ...(check.bonus !== undefined ? { bonus: check.bonus } : {}),
    ...(check.maturity ? { maturity: check.maturity } : {}),
    ...(isBeta(check.id) ? { beta: true } : {}),
    ...(check.pages ? { pages: check.pages } : {}),
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
  layers: {
    id: string
    name: string
    score: number
    maxScore: number
    applicable?: boolean
    points?: number
    maxPoints?: number
    checks: CliCheck[]
  }[]
  topFixes: CliFix[]
  contractVersion?: string
  blockedBy?: string[]
  blockFactor?: number
  pages?: SampledPage[]
  pageSample?: PageSampleSummary
}

/** Which checks the catalog marks beta: the scan results do not carry the flag. */
export type BetaLookup = (id: string) => boolean

function fromScored(
  shape: ScoredShape,
  target: string,
  source: string,
  partial: boolean,
  isBeta: BetaLookup,
): CliReport {
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
        ...(!partial && layer.applicable !== undefined ? { applicable: layer.applicable } : {}),
        ...(!partial && layer.points !== undefined && layer.maxPoints !== undefined
          ? { points: layer.points, maxPoints: layer.maxPoints }
          : {}),
        checks: layer.checks.map((check) => toCheck(check, isBeta)),
      })),
    topFixes: partial
      ? []
      : shape.topFixes.map((fix) => ({
          id: fix.id,
          name: fix.name,
          estScoreGain: fix.estScoreGain,
          ...(fix.recommendation ? { recommendation: fix.recommendation } : {}),
          ...(fix.mcpUrl ? { mcpUrl: fix.mcpUrl } : {}),
        })),
    source,
    ...(shape.contractVersion ? { contractVersion: shape.contractVersion } : {}),
    ...(shape.pages && shape.pageSample ? { pages: shape.pages, pageSample: shape.pageSample } : {}),
    ...(!partial && shape.blockedBy
      ? { blockedBy: shape.blockedBy, ...(shape.blockFactor !== undefined ? { blockFactor: shape.blockFactor } : {}) }
      : {}),
  }
}

export function fromScanReport(report: ScanReport, options: { partial: boolean; isBeta: BetaLookup }): CliReport {
  const cli = fromScored(report, report.url, 'in-process', options.partial, options.isBeta)
  return report.authenticated ? { ...cli, authenticated: report.authenticated } : cli
}

/** An AuditScanResult or AuditScoreResult; its `url` is the report page on the service's own site. */
export function fromAudit(
  audit: ScoredShape & { url: string },
  target: string,
  server: string,
  isBeta: BetaLookup,
): CliReport {
  return { ...fromScored(audit, target, server, false, isBeta), reportUrl: audit.url }
}
