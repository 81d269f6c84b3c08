import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm'
import type { Db } from '../../core/db/index.ts'
import type { Executor } from '../../core/jobs/queue.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { scans, scoreHistory } from './tables.ts'
import { mcpKey, targetKey, type TargetKey } from './target.ts'

export type ScanRow = typeof scans.$inferSelect

/**
 * Told of every scan result the repository stores or replaces, inside the writing transaction (the ARD index follows the scans
 * table this way): what a listener writes commits with the row, and its failure rolls the row back.
 */
export type ScanStoredListener = (tx: Db, row: ScanRow) => Promise<void>

/** Ephemeral results are deleted after this long (spec: "after a few days"). */
export const EPHEMERAL_RETENTION_MS = 3 * 24 * 60 * 60 * 1000

/**
 * The scans table, as the scan routes and the worker need it. No HTTP here. Built once by the scan feature; a
 * feature that follows every stored scan (the ARD index) registers its listener with `follow` as the app is
 * composed, before anything is stored.
 */
export class ScanRepository {
  private readonly onStored: ScanStoredListener[]

  constructor(
    private readonly db: Db,
    onStored: readonly ScanStoredListener[] = [],
  ) {
    this.onStored = [...onStored]
  }

  follow(listener: ScanStoredListener): void {
    this.onStored.push(listener)
  }

  /** `beforeCommit` runs inside the insert's transaction: what it writes (a queued job) commits with the row. */
  async insert(
    report: ScanReport,
    options: { ephemeral: boolean; beforeCommit?: (tx: Executor, row: ScanRow) => Promise<void> },
  ): Promise<ScanRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(scans)
        .values({
          domain: report.domain,
          target: targetKey(report),
          url: report.url,
          finalUrl: report.finalUrl,
          urlKind: report.urlKind,
          mcpUrl: report.mcpUrl ?? null,
          score: report.score,
          grade: report.grade,
          category: report.category,
          analysisStatus: report.analysisStatus,
          ephemeral: options.ephemeral,
          scannedAt: new Date(report.scannedAt),
          completedAt: report.analysisStatus === 'complete' ? new Date() : null,
          durationMs: report.durationMs,
          result: report,
        })
        .returning()
      if (!options.ephemeral && report.analysisStatus === 'complete') {
        await tx.insert(scoreHistory).values({
          scanId: row!.id,
          domain: report.domain,
          target: row!.target,
          score: report.score,
          grade: report.grade,
          scannedAt: new Date(report.scannedAt),
        })
      }
      await this.notifyStored(tx, row!)
      await options.beforeCommit?.(tx, row!)
      return row!
    })
  }

  /** Records that an MCP server required authentication, without touching any measured scan. */
  async insertAuthMarker(input: {
    domain: string
    url: string
    mcpUrl: string
    urlKind: 'mcp' | 'mcp-app'
    ephemeral: boolean
  }): Promise<void> {
    await this.db.insert(scans).values({
      domain: input.domain,
      target: mcpKey(input.mcpUrl),
      url: input.url,
      urlKind: input.urlKind,
      mcpUrl: input.mcpUrl,
      analysisStatus: 'complete',
      ephemeral: input.ephemeral,
      authRequired: true,
      scannedAt: new Date(),
      completedAt: new Date(),
    })
  }

  /** Replaces a scan's result (deep resolution, relevance, summary, selective patch) and its indexed columns. */
  async update(id: number, report: ScanReport, agenticSummary?: string): Promise<ScanRow | null> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ ephemeral: scans.ephemeral, target: scans.target })
        .from(scans)
        .where(eq(scans.id, id))
      if (!before) return null
      const [row] = await tx
        .update(scans)
        .set({
          score: report.score,
          grade: report.grade,
          analysisStatus: report.analysisStatus,
          completedAt: report.analysisStatus === 'complete' ? new Date() : null,
          result: report,
          ...(agenticSummary !== undefined ? { agenticSummary } : {}),
          updatedAt: new Date(),
        })
        .where(eq(scans.id, id))
        .returning()
      if (!before.ephemeral && report.analysisStatus === 'complete') {
        // One history point per scan: the final score replaces any earlier point of the same scan.
        await tx.delete(scoreHistory).where(eq(scoreHistory.scanId, id))
        await tx.insert(scoreHistory).values({
          scanId: id,
          domain: report.domain,
          target: before.target,
          score: report.score,
          grade: report.grade,
          scannedAt: new Date(report.scannedAt),
        })
      }
      if (row) await this.notifyStored(tx, row)
      return row ?? null
    })
  }

  private async notifyStored(tx: Db, row: ScanRow): Promise<void> {
    for (const listener of this.onStored) await listener(tx, row)
  }

  async byId(id: number): Promise<ScanRow | null> {
    const [row] = await this.db.select().from(scans).where(eq(scans.id, id))
    return row ?? null
  }

  /**
   * The newest measured scan of a domain (partial or complete): real scans first, an ephemeral one only when
   * the domain has no real scan. Auth markers are never returned here.
   */
  async latest(domain: string): Promise<ScanRow | null> {
    const [row] = await this.db
      .select()
      .from(scans)
      .where(and(eq(scans.domain, domain), eq(scans.authRequired, false)))
      .orderBy(scans.ephemeral, desc(scans.scannedAt), desc(scans.id))
      .limit(1)
    return row ?? null
  }

  /** The newest measured scan of one target (a report): real scans first, like `latest`. */
  async latestOf(target: TargetKey): Promise<ScanRow | null> {
    const [row] = await this.db
      .select()
      .from(scans)
      .where(and(eq(scans.target, target), eq(scans.authRequired, false)))
      .orderBy(scans.ephemeral, desc(scans.scannedAt), desc(scans.id))
      .limit(1)
    return row ?? null
  }

  /** The newest auth-required marker of a domain, or of one target when `target` is given. */
  async authMarker(domain: string, target?: TargetKey): Promise<ScanRow | null> {
    const [row] = await this.db
      .select()
      .from(scans)
      .where(
        and(
          eq(scans.domain, domain),
          target === undefined ? undefined : eq(scans.target, target),
          eq(scans.authRequired, true),
        ),
      )
      .orderBy(desc(scans.scannedAt))
      .limit(1)
    return row ?? null
  }

  /**
   * Every target of a domain with its newest row (a measured scan, or an auth marker when that is all there is),
   * for a report to link the other reports of its host. Without the result: only what a link needs.
   */
  async targetsOf(
    domain: string,
  ): Promise<
    Pick<ScanRow, 'target' | 'url' | 'urlKind' | 'mcpUrl' | 'score' | 'grade' | 'authRequired' | 'scannedAt'>[]
  > {
    return this.db
      .selectDistinctOn([scans.target], {
        target: scans.target,
        url: scans.url,
        urlKind: scans.urlKind,
        mcpUrl: scans.mcpUrl,
        score: scans.score,
        grade: scans.grade,
        authRequired: scans.authRequired,
        scannedAt: scans.scannedAt,
      })
      .from(scans)
      .where(eq(scans.domain, domain))
      .orderBy(scans.target, scans.authRequired, scans.ephemeral, desc(scans.scannedAt), desc(scans.id))
  }

  /**
   * The newest result for the same target (URL, and MCP endpoint), when it is complete and younger than the
   * freshness window, for serving without scanning. Keyed by target, not domain: a domain's fresh result must not
   * answer a request for an MCP endpoint on that domain, nor a pinned MCP result a request for the bare domain
   * (a bare host without a pin is always a domain scan, so its results have no MCP endpoint; a URL with a path is
   * whatever its detection found). An older complete result never hides a newer partial or stuck one: that one is
   * what the score route publishes, and a stuck one is recovered only by scanning.
   */
  async fresh(
    target: { domain: string; url: string; mcpUrl: string | null; hasPath: boolean },
    maxAgeSeconds: number,
    options: { ephemeral: boolean },
  ): Promise<ScanRow | null> {
    const [row] = await this.db
      .select()
      .from(scans)
      .where(
        and(
          eq(scans.domain, target.domain),
          eq(scans.url, target.url),
          target.mcpUrl !== null ? eq(scans.mcpUrl, target.mcpUrl) : target.hasPath ? undefined : isNull(scans.mcpUrl),
          eq(scans.authRequired, false),
          eq(scans.ephemeral, options.ephemeral),
        ),
      )
      .orderBy(desc(scans.scannedAt), desc(scans.id))
      .limit(1)
    const since = Date.now() - maxAgeSeconds * 1000
    return row && row.analysisStatus === 'complete' && row.scannedAt.getTime() >= since ? row : null
  }

  async hasRealScan(domain: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: scans.id })
      .from(scans)
      .where(and(eq(scans.domain, domain), eq(scans.ephemeral, false), eq(scans.authRequired, false)))
      .limit(1)
    return row !== undefined
  }

  async deleteExpiredEphemeral(now = Date.now()): Promise<number> {
    const rows = await this.db
      .delete(scans)
      .where(and(eq(scans.ephemeral, true), lt(scans.scannedAt, new Date(now - EPHEMERAL_RETENTION_MS))))
      .returning({ id: scans.id })
    return rows.length
  }

  /** The score history of a domain, or of one of its targets (a report) when `target` is given. */
  async history(
    domain: string,
    limit = 50,
    target?: TargetKey,
  ): Promise<{ score: number; grade: string; scannedAt: Date }[]> {
    return this.db
      .select({ score: scoreHistory.score, grade: scoreHistory.grade, scannedAt: scoreHistory.scannedAt })
      .from(scoreHistory)
      .where(and(eq(scoreHistory.domain, domain), target === undefined ? undefined : eq(scoreHistory.target, target)))
      .orderBy(desc(scoreHistory.scannedAt))
      .limit(limit)
  }

  /** For tests and operators: how many rows a domain has. */
  async count(domain: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(scans)
      .where(eq(scans.domain, domain))
    return row?.count ?? 0
  }
}
