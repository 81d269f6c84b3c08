import { randomUUID } from 'node:crypto'
import { and, asc, desc, isNull, ne } from 'drizzle-orm'
import type { Kernel } from '../../core/kernel.ts'
import type { ScanRepository } from '../scan/repository.ts'
import { patchReport, type ScanReport } from '../../core/engine/scan.ts'
import { competitorsFor, type CompetitorSet, latestPublishedScans } from '../scan/competitors.ts'
import type { ScanRow } from '../scan/repository.ts'
import { isStuck } from '../scan/shapes.ts'
import { journeyRuns } from '../journey/tables.ts'
import type { RecheckOutcome } from './model.ts'

/** A re-check result waits this long for the report that the redirect lands on. */
const RECHECK_TTL_MS = 10 * 60 * 1000
/** The sitemap protocol's limit per file. */
const SITEMAP_MAX_URLS = 50_000

export interface ReportView {
  row: ScanRow
  report: ScanReport
  /** complete, partial or stuck (a partial result whose analysis never finished). */
  analysisStatus: 'complete' | 'partial' | 'stuck'
  /** Oldest first. */
  history: { score: number; scannedAt: Date }[]
  competitors: CompetitorSet | null
}

type WebDeps = Pick<Kernel, 'database' | 'store' | 'registry'> & { scans: ScanRepository }

/** What the pages read, with no knowledge of HTTP. */
export class WebService {
  constructor(private readonly deps: WebDeps) {}

  /** The newest measured scan of a domain with its history and competitors; null when it was never scanned. */
  async report(domain: string): Promise<ReportView | null> {
    const row = await this.deps.scans.latest(domain)
    if (!row?.result) return null
    const [history, competitors] = await Promise.all([
      this.deps.scans.history(domain, 30),
      competitorsFor(this.deps.database.db, domain),
    ])
    return {
      row,
      report: row.result,
      analysisStatus: isStuck(row) ? 'stuck' : row.analysisStatus,
      history: history.map(({ score, scannedAt }) => ({ score, scannedAt })).reverse(),
      competitors,
    }
  }

  /** Domains with a published report (the leaderboard's pool), newest first, for the sitemap and llms.txt. */
  async publishedDomains(limit = SITEMAP_MAX_URLS): Promise<{ domain: string; scannedAt: Date }[]> {
    const { db } = this.deps.database
    const pool = latestPublishedScans(db)
    return db.select({ domain: pool.domain, scannedAt: pool.scannedAt }).from(pool).orderBy(desc(pool.scannedAt), asc(pool.domain)).limit(limit)
  }

  /**
   * The report as the re-check left it: the stored one when the re-check patched it, otherwise the stored one with
   * the new results laid over it and re-scored, shown but never saved (the page says so).
   */
  withRecheck(view: ReportView, outcome: RecheckOutcome): ReportView {
    if (outcome.storedScanUpdated) return view
    return { ...view, report: { ...view.report, ...patchReport(view.report, outcome.results, this.deps.registry) } }
  }

  /**
   * The newest journey runs for the journeys page: curated tasks started without a key only, because a partner's
   * free-text task or keyed run is theirs to share (its id is a capability), not ours to list.
   */
  async recentJourneys(limit: number): Promise<{ id: string; intentId: string; domain: string; status: string; outcome: string | undefined; createdAt: Date }[]> {
    const rows = await this.deps.database.db
      .select({ id: journeyRuns.id, intentId: journeyRuns.intentId, domain: journeyRuns.domain, status: journeyRuns.status, verdict: journeyRuns.verdict, createdAt: journeyRuns.createdAt })
      .from(journeyRuns)
      .where(and(isNull(journeyRuns.keyId), ne(journeyRuns.intentId, 'custom')))
      .orderBy(desc(journeyRuns.createdAt), desc(journeyRuns.id))
      .limit(limit)
    return rows.map(({ verdict, ...row }) => ({ ...row, outcome: verdict?.outcome }))
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
