import { randomUUID } from 'node:crypto'
import { asc, desc } from 'drizzle-orm'
import type { Kernel } from '../../core/kernel.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { rescore } from '../../core/engine/scoring.ts'
import {
  competitorsFor,
  type CompetitorSet,
  isStuck,
  latestPublishedScans,
  reportPathFor,
  type ScanRepository,
  type ScanRow,
  type TargetKey,
  targetLabel,
} from '../scan/public.ts'
import type { RecheckOutcome } from './model.ts'
import type { PublishedReport } from './site-files.ts'

/** A re-check result waits this long for the report that the redirect lands on. */
const RECHECK_TTL_MS = 10 * 60 * 1000
/** The sitemap protocol's limit per file. */
const SITEMAP_MAX_URLS = 50_000

/** Another report of the same host, for the links between them. */
export interface SiblingReport {
  path: string
  urlKind: string
  /** The target as a person names it (targetLabel). */
  target: string
  score: number | null
  grade: string | null
  authRequired: boolean
}

export interface ReportView {
  row: ScanRow
  report: ScanReport
  /** This report's own address (plugins/scan/target.ts). */
  path: string
  /** The target as a person names it: `example.com`, `localhost:5160` or the MCP URL. */
  label: string
  /** The other reports of this host (a website's and its MCP servers'), newest scan of each. */
  siblings: SiblingReport[]
  /**
   * Checks that can only add to the score (bonus), are shown without counting (emerging) or cannot affect it at
   * all (beta): when not met they read "not met", not as failures.
   */
  extras: ReadonlySet<string>
  /** complete, partial or stuck (a partial result whose analysis never finished). */
  analysisStatus: 'complete' | 'partial' | 'stuck'
  /** Oldest first. */
  history: { score: number; scannedAt: Date }[]
  competitors: CompetitorSet | null
}

/** The failing or warning checks that lower the score, and the extras not met, which never do. */
export function splitExtras<T extends { id: string }>(
  issues: readonly T[],
  extras: ReadonlySet<string>,
): { counted: T[]; extras: T[] } {
  return {
    counted: issues.filter((check) => !extras.has(check.id)),
    extras: issues.filter((check) => extras.has(check.id)),
  }
}

type WebDeps = Pick<Kernel, 'database' | 'store' | 'registry'> & { scans: ScanRepository }

/** What the pages read, with no knowledge of HTTP. */
export class WebService {
  constructor(private readonly deps: WebDeps) {}

  /**
   * The newest measured scan of one target (a report) with its history, its host's other reports and (for a
   * published result) its competitors; null when the target was never measured.
   */
  async report(target: TargetKey): Promise<ReportView | null> {
    const row = await this.deps.scans.latestOf(target)
    if (!row?.result) return null
    const [history, competitors, siblings] = await Promise.all([
      this.deps.scans.history(row.domain, 30, target),
      row.ephemeral ? null : competitorsFor(this.deps.database.db, row.domain),
      this.siblings(row.domain, target),
    ])
    return {
      row,
      report: row.result,
      path: reportPathFor(row),
      label: targetLabel(row),
      siblings,
      extras: this.extrasOf(row.result),
      analysisStatus: isStuck(row) ? 'stuck' : row.analysisStatus,
      history: history.map(({ score, scannedAt }) => ({ score, scannedAt })).reverse(),
      competitors,
    }
  }

  /** The reports of a host other than `except`, newest first. */
  async siblings(domain: string, except?: TargetKey): Promise<SiblingReport[]> {
    const targets = await this.deps.scans.targetsOf(domain)
    return targets
      .filter((entry) => entry.target !== except)
      .sort((a, b) => b.scannedAt.getTime() - a.scannedAt.getTime())
      .map((entry) => ({
        path: reportPathFor(entry),
        urlKind: entry.urlKind,
        target: targetLabel(entry),
        score: entry.score,
        grade: entry.grade,
        authRequired: entry.authRequired,
      }))
  }

  private extrasOf(report: ScanReport): ReadonlySet<string> {
    const extras = new Set<string>()
    for (const check of report.layers.flatMap((layer) => layer.checks)) {
      if (check.bonus || check.maturity === 'emerging' || this.deps.registry.get(check.id)?.meta.beta)
        extras.add(check.id)
    }
    return extras
  }

  /** Published reports (the leaderboard's pool), newest first, for the sitemap and llms.txt. */
  async publishedReports(limit = SITEMAP_MAX_URLS): Promise<PublishedReport[]> {
    const { db } = this.deps.database
    const pool = latestPublishedScans(db, { perTarget: true })
    const rows = await db
      .select({ urlKind: pool.urlKind, url: pool.url, mcpUrl: pool.mcpUrl, scannedAt: pool.scannedAt })
      .from(pool)
      .orderBy(desc(pool.scannedAt), asc(pool.domain), asc(pool.target))
      .limit(limit)
    return rows.map((row) => ({ label: targetLabel(row), path: reportPathFor(row), scannedAt: row.scannedAt }))
  }

  /**
   * The report as the re-check left it: the stored one when the re-check patched it, otherwise the stored one with
   * the new results laid over it and re-scored, shown but never saved (the page says so).
   */
  withRecheck(view: ReportView, outcome: RecheckOutcome): ReportView {
    if (outcome.storedScanUpdated) return view
    return { ...view, report: rescore(view.report, { kind: 'results', results: outcome.results }, this.deps.registry) }
  }

  /** Keeps a re-check's results for the report the browser is redirected to; returns the token naming them. */
  async keepRecheck(outcome: RecheckOutcome): Promise<string> {
    const token = randomUUID()
    await this.deps.store.set(recheckKey(token), JSON.stringify(outcome), RECHECK_TTL_MS)
    return token
  }

  /** A kept re-check, or null once expired (or when the store is unavailable: the report still renders). */
  async recheck(token: string): Promise<RecheckOutcome | null> {
    const kept = await this.deps.store.get(recheckKey(token)).catch(() => null)
    return kept ? (JSON.parse(kept) as RecheckOutcome) : null
  }
}

const recheckKey = (token: string) => `web:recheck:${token}`
