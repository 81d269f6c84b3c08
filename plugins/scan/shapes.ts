import type { Config } from '../../core/config.ts'
import { CONTRACT_VERSION } from '../../core/version.ts'
import type { CheckMeta } from '../../core/engine/check.ts'
import { computeEssentials } from '../../core/engine/essentials.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { type CheckResult, GRADE_COLORS, type Grade, type ScoringCatalog } from '../../core/engine/scoring.ts'
import { parseSiteType, siteTypeLens } from '../../core/engine/site-type.ts'
import { listValues } from '../../core/query.ts'
import { scanNextAction } from './model.ts'
import type { ScanRow } from './repository.ts'
import { STUCK_AFTER_MS } from './worker.ts'
import { reportPathFor } from './target.ts'

/**
 * Where a domain's report page is (plugins/web): its website's report, or (when the domain has none) the newest
 * report of the domain. A stored result's own report is `reportPathFor` (plugins/scan/target.ts).
 */
export const reportPath = (domain: string) => `/site/${encodeURIComponent(domain)}`

/** What the common query parameters ask for (format, include, siteType, competitors). */
export interface ShapeOptions {
  audit: boolean
  essentials: boolean
  siteType: boolean
  declaredSiteType: string | undefined
  competitors: boolean
}

export function shapeOptions(
  query: { format?: string; include?: string | string[]; siteType?: string; competitors?: string },
  bodySiteType?: string,
): ShapeOptions {
  const include = listValues(query.include)
  return {
    audit: query.format === 'audit',
    essentials: include.has('essentials'),
    siteType: include.has('siteType'),
    declaredSiteType: query.siteType ?? bodySiteType,
    competitors: query.competitors === '1',
  }
}

export interface ShapeContext {
  config: Pick<Config, 'publicBaseUrl' | 'serviceHost'>
  metas: ReadonlyMap<string, CheckMeta>
  /** The checks the siteType lens re-scores with (the engine's registry). */
  catalog: ScoringCatalog<CheckMeta>
  /** Resolved by the caller only when asked for (`competitors=1`). */
  competitors?: unknown
  cached?: { ageSeconds: number }
  /** The score route adds `next_action` to stuck results and answers with AuditScoreResult under audit. */
  route: 'scan' | 'score'
}

export function isStuck(row: Pick<ScanRow, 'analysisStatus' | 'scannedAt'>, now = Date.now()): boolean {
  return row.analysisStatus === 'partial' && now - row.scannedAt.getTime() > STUCK_AFTER_MS
}

/**
 * The scan request that measures a stored result's own target again: its URL, its MCP endpoint pinned (so that a
 * failing endpoint is scanned as itself, never replaced by a discovered one or by the domain) and its ephemerality.
 */
export function rescanRequest(row: Pick<ScanRow, 'url' | 'mcpUrl' | 'ephemeral'>): {
  url: string
  mcpUrl?: string
  ephemeral?: true
} {
  return {
    url: row.url,
    ...(row.mcpUrl ? { mcpUrl: row.mcpUrl } : {}),
    ...(row.ephemeral ? { ephemeral: true as const } : {}),
  }
}

/** Internal bookkeeping and evidence on a result never go on the wire. */
function wireCheck(check: CheckResult): CheckResult {
  const { fraction: _fraction, occurrences: _occurrences, evidence: _evidence, ...rest } = check
  return rest
}

/** A multi-page scan's sample, and why `pages` was ignored for an MCP target; nothing on a one-page scan. */
const sampleOf = (report: ScanReport) => ({
  ...(report.pages ? { pages: report.pages, pageSample: report.pageSample } : {}),
  ...(report.pagesIgnored ? { pagesIgnored: report.pagesIgnored } : {}),
})

/** Results stored before contract 1.28.0 carry no block fields: they are left out rather than invented. */
const blocking = (report: ScanReport) =>
  report.blockedBy !== undefined ? { blockedBy: report.blockedBy, blockFactor: report.blockFactor } : {}

function readings(report: ScanReport, options: ShapeOptions, context: ShapeContext) {
  return {
    ...(options.essentials ? { essentials: computeEssentials(report.layers, context.metas) } : {}),
    ...(options.siteType
      ? {
          siteType: siteTypeLens({
            layers: report.layers,
            classification: report.siteClassification ?? null,
            declared: parseSiteType(options.declaredSiteType),
            catalog: context.catalog,
          }),
        }
      : {}),
    ...(options.competitors ? { competitors: context.competitors ?? null } : {}),
  }
}

/** Renders a stored scan in the shape the query asked for. */
export function renderScan(
  row: ScanRow & { result: ScanReport },
  options: ShapeOptions,
  context: ShapeContext,
): Record<string, unknown> {
  const report = row.result
  const stuck = isStuck(row)
  const analysisStatus = stuck ? 'stuck' : row.analysisStatus
  const urlKind = row.ephemeral ? 'ephemeral' : report.urlKind
  const summary = row.analysisStatus === 'complete' && row.agenticSummary ? { agenticSummary: row.agenticSummary } : {}
  const cache = context.cached ? { servedFromCache: true as const, resultAgeSeconds: context.cached.ageSeconds } : {}
  const nextAction =
    stuck && context.route === 'score'
      ? scanNextAction(
          rescanRequest(row),
          'The analysis of this scan did not finish; scan the same target again to recover.',
        )
      : undefined

  if (!options.audit) {
    return {
      domain: report.domain,
      url: report.url,
      finalUrl: report.finalUrl,
      score: report.score,
      maxScore: report.maxScore,
      ...blocking(report),
      grade: report.grade,
      analysisStatus,
      pendingChecks: report.pendingChecks,
      ctaMessage: report.ctaMessage,
      ctaTier: report.ctaTier,
      layers: report.layers.map((layer) => ({ ...layer, checks: layer.checks.map(wireCheck) })),
      topFixes: report.topFixes,
      scannedAt: report.scannedAt,
      durationMs: report.durationMs,
      ...summary,
      urlKind,
      ...cache,
      ...(nextAction ? { next_action: nextAction } : {}),
      ...sampleOf(report),
      ...readings(report, options, context),
    }
  }

  const audit: Record<string, unknown> = {
    domain: report.domain,
    name: report.name ?? report.domain,
    score: report.score,
    scoreMax: 100,
    ...blocking(report),
    grade: report.grade,
    gradeColor: GRADE_COLORS[report.grade as Grade],
    ...(context.route === 'scan' ? { ctaMessage: report.ctaMessage ?? null } : {}),
    scannedAt: report.scannedAt,
    durationMs: report.durationMs ?? null,
    layers: report.layers.map((layer) => ({
      id: layer.id,
      name: layer.name,
      score: layer.score,
      maxScore: layer.maxScore,
      ...(layer.applicable !== undefined
        ? { applicable: layer.applicable, weight: layer.weight, maxPoints: layer.maxPoints, points: layer.points }
        : {}),
      checks: layer.checks.map((check) => {
        const { description: _description, ...rest } = wireCheck(check)
        return rest
      }),
    })),
    topFixes: report.topFixes,
    url: `${context.config.publicBaseUrl}${reportPathFor(row)}`,
    generatedAt: new Date().toISOString(),
    source: context.config.serviceHost,
    contractVersion: report.contractVersion ?? CONTRACT_VERSION,
    analysisStatus,
    pendingChecks: report.pendingChecks,
    urlKind,
    ...(report.category ? { category: report.category } : {}),
    ...summary,
    finalUrl: report.finalUrl,
    ...(context.route === 'scan' ? cache : {}),
    ...(nextAction ? { nextAction } : {}),
    ...sampleOf(report),
    ...readings(report, options, context),
  }
  return audit
}
