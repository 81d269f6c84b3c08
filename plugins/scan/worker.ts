import { assessRelevance } from '../../core/engine/relevance.ts'
import { resolvePending } from '../../core/engine/scan.ts'
import { agenticSummary } from '../../core/engine/summary.ts'
import { DEEP_QUEUE, type ScanDeps, scanChannel } from './service.ts'
import { ScanRepository } from './repository.ts'

/** Partial scans older than this read as stuck; the worker does not pick them up again after a restart. */
export const STUCK_AFTER_MS = 30 * 60 * 1000
const DEQUEUE_WAIT_MS = 1000
const JOB_LOCK_MS = 5 * 60 * 1000
const CLEANUP_EVERY_MS = 60 * 60 * 1000

/** Events the worker publishes on a scan's channel; the stream route relays them as SSE frames. */
export type WorkerEvent =
  | { type: 'relevance_assessed'; naCheckIds: string[]; reasons: Record<string, string>; score: number; grade: string }
  | { type: 'summary_ready'; agenticSummary: string }
  | { type: 'analysis_complete'; score: number; grade: string }
  | { type: 'analysis_failed'; message: string }

/** The scan id of a queued job, or null for a payload that is not one (the queue is shared when Redis backs it). */
function jobScanId(payload: string): number | null {
  try {
    const scanId = Number((JSON.parse(payload) as { scanId?: unknown } | null)?.scanId)
    return Number.isInteger(scanId) ? scanId : null
  } catch {
    return null
  }
}

/**
 * Finishes partial scans: resolves the pending deep checks, judges relevance, writes the one-sentence summary
 * and marks the scan complete. Runs in the API process by default and as `agent-readiness worker` elsewhere;
 * jobs travel through the store's queue and each scan is locked while one worker processes it.
 */
export class ScanWorker {
  private running = false
  private loops: Promise<void>[] = []
  private cleanupTimer: ReturnType<typeof setInterval> | null = null
  private readonly repository: ScanRepository

  constructor(private readonly deps: ScanDeps) {
    this.repository = new ScanRepository(deps.database.db, deps.config)
  }

  async start(concurrency: number): Promise<void> {
    if (this.running || concurrency <= 0) return
    this.running = true
    // Partial scans interrupted by a restart are picked up again while they are not yet stuck.
    for (const { id } of await this.repository.partialSince(new Date(Date.now() - STUCK_AFTER_MS))) {
      await this.deps.store.enqueue(DEEP_QUEUE, JSON.stringify({ scanId: id }))
    }
    this.loops = Array.from({ length: concurrency }, () => this.loop())
    this.cleanupTimer = setInterval(() => void this.cleanupEphemeral(), CLEANUP_EVERY_MS)
    this.cleanupTimer.unref()
    void this.cleanupEphemeral()
  }

  async stop(): Promise<void> {
    this.running = false
    if (this.cleanupTimer) clearInterval(this.cleanupTimer)
    await Promise.allSettled(this.loops)
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let payload: string | null = null
      try {
        payload = await this.deps.store.dequeue(DEEP_QUEUE, DEQUEUE_WAIT_MS)
      } catch (error) {
        this.deps.log.warn({ err: error }, 'worker: queue unavailable')
        await Bun.sleep(DEQUEUE_WAIT_MS)
      }
      if (!payload || !this.running) continue
      const scanId = jobScanId(payload)
      if (scanId === null) this.deps.log.warn({ payload: payload.slice(0, 200) }, 'worker: malformed job dropped')
      else await this.process(scanId)
    }
  }

  /** Processes one scan; exported for tests and the CLI. Never throws. */
  async process(scanId: number): Promise<void> {
    const release = await this.deps.store.acquireLock(`lock:scan:${scanId}`, JOB_LOCK_MS).catch(() => null)
    if (!release) return
    const publish = (event: WorkerEvent) =>
      this.deps.store.publish(scanChannel(scanId), JSON.stringify(event)).catch(() => {})
    try {
      const row = await this.repository.byId(scanId)
      if (!row?.result || row.analysisStatus !== 'partial') return
      const resolved = await resolvePending(row.result, this.deps)
      const relevance = assessRelevance(resolved, this.deps.registry)
      if (relevance.naCheckIds.length > 0) {
        await publish({
          type: 'relevance_assessed',
          naCheckIds: relevance.naCheckIds,
          reasons: relevance.reasons,
          score: relevance.report.score,
          grade: relevance.report.grade,
        })
      }
      const summary = await agenticSummary(relevance.report, this.deps.config)
      const report = { ...relevance.report, analysisStatus: 'complete' as const, pendingChecks: [] }
      await this.repository.update(scanId, report, summary)
      await this.deps.readCache.invalidate(report.domain)
      await publish({ type: 'summary_ready', agenticSummary: summary })
      await publish({ type: 'analysis_complete', score: report.score, grade: report.grade })
    } catch (error) {
      this.deps.log.error({ err: error, scanId }, 'worker: deep analysis failed')
      await publish({ type: 'analysis_failed', message: 'The background analysis failed; the scan stays partial.' })
    } finally {
      await release().catch(() => {})
    }
  }

  private async cleanupEphemeral(): Promise<void> {
    const release = await this.deps.store.acquireLock('lock:ephemeral-cleanup', CLEANUP_EVERY_MS / 2).catch(() => null)
    if (!release) return
    try {
      const deleted = await this.repository.deleteExpiredEphemeral()
      if (deleted > 0) this.deps.log.info({ deleted }, 'ephemeral scans deleted')
    } catch (error) {
      this.deps.log.warn({ err: error }, 'ephemeral cleanup failed')
    }
  }
}
