import { z } from 'zod'
import type { Kernel } from '../../core/kernel.ts'
import { defineJob } from '../../core/jobs/queue.ts'
import { compareRuns } from '../../journeys/compare.ts'
import { customIntent } from '../../journeys/custom-intent.ts'
import { availableAgents } from '../../journeys/agents/index.ts'
import { intentPrompt, type TrajectoryStep } from '../../journeys/types.ts'
import { intentById } from '../../journeys/intents/index.ts'
import { runJourney } from '../../journeys/runner.ts'
import { DEFAULT_BUDGET } from '../../journeys/session.ts'
import type { JourneyRepository, JourneyRunRow } from './repository.ts'
import type { RunError } from './tables.ts'

/**
 * Runs one journey. Sent in the transaction that inserts the run. One retry exists only to notice a death: an
 * attempt that stops heartbeating (its process died) is retried, and the retry ends the run as interrupted.
 */
export const JOURNEY_RUN_JOB = defineJob({
  name: 'journey-run',
  data: z.object({ runId: z.string().min(1).max(100) }),
  retryLimit: 1,
  retryDelaySeconds: 2,
  // The runner's own wall-clock budget plus room for its last fetches and the writes that follow.
  expireInSeconds: Math.ceil(DEFAULT_BUDGET.maxMs / 1000) + 90,
  heartbeatSeconds: 15,
  // A run is watched live: its first step should follow the 201 at once, not a poll later.
  notify: true,
})

export const journeyChannel = (runId: string) => `journey:${runId}:events`

/** What the worker publishes on a run's channel; the stream route turns these into SSE frames. */
export type JourneyEvent =
  | { type: 'step'; seq: number; step: TrajectoryStep }
  | { type: 'processing'; step_count: number }
  | { type: 'result' }
  | { type: 'error'; error: RunError }

export type JourneyWorkerDeps = Pick<Kernel, 'config' | 'outbound' | 'browser' | 'store' | 'log' | 'jobs'> & {
  journeyRuns: JourneyRepository
}

class RunFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Works queued journey runs: queued -> running -> completed | failed. Every step is stored, then published, as
 * it happens; the final row is written before `result` or `error` is published, so no reader who has seen the
 * outcome can read the run as running. Runs in the API process and in `agent-readiness worker`.
 */
/** How long stop() waits for interrupted runs to record their end. */
const STOP_WAIT_MS = 5_000
/** How a run ends when its process stops under it: by a shutdown now, or found running by the retry later. */
const INTERRUPTED: RunError = {
  code: 'RUN_INTERRUPTED',
  message: 'The process running this journey stopped before it finished.',
}

export class JourneyWorker {
  private readonly repository: JourneyRepository
  /** Runs in progress in this process, to interrupt on stop. */
  private readonly running = new Map<string, AbortController>()
  private stopping = false

  constructor(private readonly deps: JourneyWorkerDeps) {
    this.repository = deps.journeyRuns
  }

  async start(concurrency: number): Promise<void> {
    await this.deps.jobs.declare(JOURNEY_RUN_JOB)
    if (concurrency <= 0) return
    await this.deps.jobs.work(JOURNEY_RUN_JOB, concurrency, ({ runId }) => this.process(runId))
  }

  /**
   * Ends the runs this process is working as interrupted, now, instead of leaving them to the retry that notices
   * a dead process a heartbeat later: a reader of the stream learns it at once. A run cut short is not judged,
   * since a verdict on half a walk would blame the site for the restart.
   */
  async stop(): Promise<void> {
    this.stopping = true
    for (const controller of this.running.values()) controller.abort()
    for (let waited = 0; this.running.size > 0 && waited < STOP_WAIT_MS; waited += 25) await Bun.sleep(25)
  }

  /**
   * Throws only when this worker is stopping (the run stays queued for the retry) or when even recording the
   * failure failed (the database is gone): the retry then finds the run running and ends it as interrupted.
   */
  async process(runId: string): Promise<void> {
    const row = await this.repository.byId(runId)
    if (!row || row.status === 'completed' || row.status === 'failed') return
    if (row.status === 'running') {
      // Re-running would record a second trajectory under an id whose first one readers have already seen.
      const steps = await this.repository.steps(runId)
      await this.end(runId, INTERRUPTED, steps.length)
      return
    }
    // Failing the job leaves the run queued for the retry, which another worker (or this one restarted) takes.
    if (this.stopping) throw new Error('this worker is stopping')
    if (!(await this.repository.markRunning(runId))) return
    const controller = new AbortController()
    this.running.set(runId, controller)
    // A stop that began while the run was being marked running did not see it.
    if (this.stopping) controller.abort()
    try {
      await this.execute(row, controller.signal)
    } finally {
      this.running.delete(runId)
    }
  }

  private async execute(row: JourneyRunRow, signal: AbortSignal): Promise<void> {
    const runId = row.id
    let seq = 0
    // Steps arrive synchronously from the runner; writes are chained so that they land, and are published, in order.
    let written: Promise<void> = Promise.resolve()
    try {
      const agent = availableAgents(this.deps.config).find((candidate) => candidate.meta.id === row.agentId)
      if (!agent) throw new RunFailure('AGENT_UNAVAILABLE', `Agent ${row.agentId} is not available in this deployment.`)
      const intent = row.customIntent === null ? intentById(row.intentId) : customIntent(row.customIntent)
      if (!intent) throw new RunFailure('INTENT_UNAVAILABLE', `Intent ${row.intentId} no longer exists.`)
      const prompt =
        row.customIntent === null ? intentPrompt(intent.meta, row.domain) : `On ${row.domain}: ${row.customIntent}`
      const outcome = await runJourney({
        agent,
        intent,
        prompt,
        domain: row.domain,
        deps: this.deps,
        signal,
        onStep: (step) => {
          const current = seq++
          written = written.then(async () => {
            await this.repository.addStep(runId, current, step)
            await this.publish(runId, { type: 'step', seq: current, step })
          })
        },
      })
      await written
      if (signal.aborted) {
        await this.end(runId, INTERRUPTED, seq)
        return
      }
      await this.publish(runId, { type: 'processing', step_count: outcome.steps.length })
      if (await this.repository.complete(runId, outcome)) {
        await this.settleComparison(runId)
        await this.publish(runId, { type: 'result' })
      }
    } catch (error) {
      await written.catch(() => {})
      const failure =
        error instanceof RunFailure ? error : new RunFailure('RUN_FAILED', 'The journey failed unexpectedly.')
      if (!(error instanceof RunFailure)) this.deps.log.error({ err: error, runId }, 'journey run failed')
      await this.end(runId, { code: failure.code, message: failure.message }, seq)
    }
  }

  /**
   * Once both runs of a compare request completed, writes what they say together to both. Each run tries when it
   * completes, after its own row is written: whichever completes second sees both outcomes.
   */
  private async settleComparison(runId: string): Promise<void> {
    const row = await this.repository.byId(runId)
    const other = row?.compareRunId ? await this.repository.byId(row.compareRunId) : null
    if (!row || !other || !row.verdict || !other.verdict) return
    const [agent, browser] = row.compareRole === 'agent' ? [row, other] : [other, row]
    const comparison = compareRuns(
      { id: agent.id, identity: agent.identity, outcome: agent.verdict!.outcome },
      { id: browser.id, identity: browser.identity, outcome: browser.verdict!.outcome },
    )
    await this.repository.compare(agent.id, browser.id, comparison)
  }

  private async end(runId: string, error: RunError, stepCount: number): Promise<void> {
    if (await this.repository.fail(runId, error, stepCount)) await this.publish(runId, { type: 'error', error })
  }

  /** A lost message only delays a stream: it also polls the run (see stream.ts). */
  private async publish(runId: string, event: JourneyEvent): Promise<void> {
    await this.deps.store.publish(journeyChannel(runId), JSON.stringify(event)).catch(() => {})
  }
}
