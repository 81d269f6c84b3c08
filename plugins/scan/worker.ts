import { z } from 'zod'
import { defineJob, type JobQueue } from '../../core/jobs/queue.ts'
import { assessRelevance } from '../../core/engine/relevance.ts'
import { resolvePending } from '../../core/engine/scan.ts'
import { agenticSummary } from '../../core/engine/summary.ts'
import { type ScanDeps, scanChannel } from './service.ts'
import type { ScanRepository } from './repository.ts'

/** Partial scans older than this read as stuck (the scan routes say so); their job has long been given up. */
export const STUCK_AFTER_MS = 30 * 60 * 1000

/** Finishes a partial scan: its deep checks, relevance and summary. Sent in the transaction that stores the scan. */
export const DEEP_SCAN_JOB = defineJob({
  name: 'scan-deep',
  data: z.object({ scanId: z.number().int().positive() }),
  retryLimit: 3,
  retryDelaySeconds: 5,
  // Rendering every deep check of a slow site stays well inside this; a hung attempt is failed and retried.
  expireInSeconds: 10 * 60,
  heartbeatSeconds: 15,
})

/** Deletes ephemeral results past their retention, hourly, once across every process. */
export const EPHEMERAL_CLEANUP_JOB = defineJob({
  name: 'scan-ephemeral-cleanup',
  data: z.object({}).strict() as z.ZodType<Record<string, never>>,
  retryLimit: 1,
  retryDelaySeconds: 60,
  expireInSeconds: 5 * 60,
  heartbeatSeconds: 30,
})

/** Events the worker publishes on a scan's channel; the stream route relays them as SSE frames. */
export type WorkerEvent =
  | { type: 'relevance_assessed'; naCheckIds: string[]; reasons: Record<string, string>; score: number; grade: string }
  | { type: 'summary_ready'; agenticSummary: string }
  | { type: 'analysis_complete'; score: number; grade: string }
  | { type: 'analysis_failed'; message: string }

export type WorkerDeps = ScanDeps & { jobs: JobQueue }

/**
 * Finishes partial scans: resolves the pending deep checks, judges relevance, writes the one-sentence summary
 * and marks the scan complete. Runs in the API process by default and as `agent-readiness worker` elsewhere;
 * jobs come from the durable queue, so one interrupted here is retried by whichever worker is alive.
 */
export class ScanWorker {
  private readonly repository: ScanRepository

  constructor(private readonly deps: WorkerDeps) {
    this.repository = deps.scans
  }

  /** Declares the queues (an API process with no worker loops still sends to them), then works them. */
  async start(concurrency: number): Promise<void> {
    await this.deps.jobs.declare(DEEP_SCAN_JOB)
    await this.deps.jobs.schedule(EPHEMERAL_CLEANUP_JOB, '17 * * * *')
    if (concurrency <= 0) return
    await this.deps.jobs.work(DEEP_SCAN_JOB, concurrency, ({ scanId }, attempt) => this.process(scanId, attempt.final))
    await this.deps.jobs.work(EPHEMERAL_CLEANUP_JOB, 1, () => this.cleanupEphemeral())
  }

  /** Stops taking jobs; the job queue's own stop, after this, gives a running analysis its grace period. */
  async stop(): Promise<void> {
    await this.deps.jobs.unwork(DEEP_SCAN_JOB)
    await this.deps.jobs.unwork(EPHEMERAL_CLEANUP_JOB)
  }

  /**
   * Processes one scan. Throws when the attempt failed so that the queue retries it; users hear of a failure
   * (analysis_failed) only when no retry follows. A scan that is no longer partial is already done.
   */
  async process(scanId: number, finalAttempt: boolean): Promise<void> {
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
      this.deps.log.error({ err: error, scanId, finalAttempt }, 'worker: deep analysis failed')
      if (finalAttempt)
        await publish({ type: 'analysis_failed', message: 'The background analysis failed; the scan stays partial.' })
      throw error
    }
  }

  private async cleanupEphemeral(): Promise<void> {
    const deleted = await this.repository.deleteExpiredEphemeral()
    if (deleted > 0) this.deps.log.info({ deleted }, 'ephemeral scans deleted')
  }
}
