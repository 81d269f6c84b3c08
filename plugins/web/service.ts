import { randomUUID } from 'node:crypto'
import { asc, desc } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { competitorsFor, type CompetitorSet, latestPublishedScans } from '../scan/competitors.ts'
import type { ScanRow } from '../scan/repository.ts'
import { isStuck } from '../scan/shapes.ts'
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

type WebDeps = Pick<AppDeps, 'database' | 'scans' | 'store'>

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
