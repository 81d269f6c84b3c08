import { randomBytes } from 'node:crypto'
import { and, asc, desc, eq, gt, inArray, isNull, ne } from 'drizzle-orm'
import { CONTRACT_VERSION } from '../../core/version.ts'
import type { Db } from '../../core/db/index.ts'
import type { Executor } from '../../core/jobs/queue.ts'
import type { Comparison } from '../../journeys/compare.ts'
import type { TrajectoryStep } from '../../journeys/types.ts'
import type { JourneyOutcome } from '../../journeys/runner.ts'
import { journeyRuns, journeySteps, type RunError } from './tables.ts'

export type JourneyRunRow = typeof journeyRuns.$inferSelect
export type NewJourneyRun = Pick<
  JourneyRunRow,
  'intentId' | 'customIntent' | 'domain' | 'agentId' | 'harness' | 'model' | 'identity' | 'keyId'
>

/** Run ids are public and unguessable: knowing one id says nothing about any other run. */
export const RUN_ID_PATTERN = /^jr_[A-Za-z0-9_-]{22}$/

function newRunId(): string {
  return `jr_${randomBytes(16).toString('base64url')}`
}

export interface StoredStep {
  seq: number
  step: TrajectoryStep
}

/**
 * The journey tables, as the routes, the worker and the journeys page (plugins/web) need them. Status changes are
 * conditional on the status they leave, so a run ends exactly once even when an expired job's worker and its retry
 * both try to end it.
 */
export class JourneyRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts one run, or the two runs of a compare request (the agent's first, then the browser's), linked to each
   * other. `beforeCommit` runs inside the insert's transaction: the runs' jobs commit with their rows.
   */
  async insert(
    runs: readonly NewJourneyRun[],
    beforeCommit: (tx: Executor, rows: JourneyRunRow[]) => Promise<void>,
  ): Promise<JourneyRunRow[]> {
    const ids = runs.map(() => newRunId())
    const linked = runs.map((run, index) => ({
      ...run,
      id: ids[index]!,
      contractVersion: CONTRACT_VERSION,
      ...(runs.length === 2
        ? { compareRunId: ids[1 - index]!, compareRole: index === 0 ? ('agent' as const) : ('browser' as const) }
        : {}),
    }))
    return this.db.transaction(async (tx) => {
      const rows = await tx.insert(journeyRuns).values(linked).returning()
      // RETURNING follows the VALUES order in practice, but nothing promises it: order by the ids handed out.
      const ordered = ids.map((id) => rows.find((row) => row.id === id)!)
      await beforeCommit(tx, ordered)
      return ordered
    })
  }

  /** Writes the comparison to both runs of a compare request. */
  async compare(agentRunId: string, browserRunId: string, comparison: Comparison): Promise<void> {
    await this.db
      .update(journeyRuns)
      .set({ comparison })
      .where(inArray(journeyRuns.id, [agentRunId, browserRunId]))
  }

  async byId(id: string): Promise<JourneyRunRow | null> {
    if (!RUN_ID_PATTERN.test(id)) return null
    const [row] = await this.db.select().from(journeyRuns).where(eq(journeyRuns.id, id))
    return row ?? null
  }

  /** Steps after `afterSeq` (all with -1), in order. */
  async steps(runId: string, afterSeq = -1): Promise<StoredStep[]> {
    return this.db
      .select({ seq: journeySteps.seq, step: journeySteps.step })
      .from(journeySteps)
      .where(and(eq(journeySteps.runId, runId), gt(journeySteps.seq, afterSeq)))
      .orderBy(asc(journeySteps.seq))
  }

  /** The steps of several runs at once (the partner route's full view), keyed by run id. */
  async stepsOf(runIds: readonly string[]): Promise<Map<string, TrajectoryStep[]>> {
    const found = new Map<string, TrajectoryStep[]>(runIds.map((id) => [id, []]))
    if (runIds.length === 0) return found
    const rows = await this.db
      .select()
      .from(journeySteps)
      .where(inArray(journeySteps.runId, [...runIds]))
      .orderBy(asc(journeySteps.runId), asc(journeySteps.seq))
    for (const row of rows) found.get(row.runId)!.push(row.step)
    return found
  }

  async addStep(runId: string, seq: number, step: TrajectoryStep): Promise<void> {
    await this.db.insert(journeySteps).values({ runId, seq, step }).onConflictDoNothing()
  }

  /** queued -> running; false when the run is not queued (another attempt took it, or it ended). */
  async markRunning(id: string): Promise<boolean> {
    const rows = await this.db
      .update(journeyRuns)
      .set({ status: 'running', startedAt: new Date() })
      .where(and(eq(journeyRuns.id, id), eq(journeyRuns.status, 'queued')))
      .returning({ id: journeyRuns.id })
    return rows.length > 0
  }

  /** running -> completed with the outcome; false when the run was already ended (e.g. failed as interrupted). */
  async complete(id: string, outcome: JourneyOutcome): Promise<boolean> {
    const rows = await this.db
      .update(journeyRuns)
      .set({
        status: 'completed',
        verdict: outcome.verdict,
        insight: outcome.insight,
        runSignals: outcome.run_signals,
        agentResponse: outcome.agent_response,
        usage: outcome.usage,
        contentDigest: outcome.content_digest,
        trajectoryDigest: outcome.trajectory_digest,
        stepCount: outcome.steps.length,
        finishedAt: new Date(),
      })
      .where(and(eq(journeyRuns.id, id), eq(journeyRuns.status, 'running')))
      .returning({ id: journeyRuns.id })
    return rows.length > 0
  }

  /** queued or running -> failed; false when the run had already ended. */
  async fail(id: string, error: RunError, stepCount: number): Promise<boolean> {
    const rows = await this.db
      .update(journeyRuns)
      .set({ status: 'failed', error, stepCount, finishedAt: new Date() })
      .where(and(eq(journeyRuns.id, id), inArray(journeyRuns.status, ['queued', 'running'])))
      .returning({ id: journeyRuns.id })
    return rows.length > 0
  }

  /** The newest run of one per-target window's target: what an anonymous caller over the cap is served. */
  async latestForTarget(target: {
    domain: string
    intentId: string
    harness: string
    model: string
    agentId: string
  }): Promise<JourneyRunRow | null> {
    const [row] = await this.db
      .select()
      .from(journeyRuns)
      .where(
        and(
          eq(journeyRuns.domain, target.domain),
          eq(journeyRuns.intentId, target.intentId),
          eq(journeyRuns.harness, target.harness),
          eq(journeyRuns.model, target.model),
          eq(journeyRuns.agentId, target.agentId),
        ),
      )
      .orderBy(desc(journeyRuns.createdAt), desc(journeyRuns.id))
      .limit(1)
    return row ?? null
  }

  async forDomain(domain: string, limit: number): Promise<JourneyRunRow[]> {
    return this.db
      .select()
      .from(journeyRuns)
      .where(eq(journeyRuns.domain, domain))
      .orderBy(desc(journeyRuns.createdAt), desc(journeyRuns.id))
      .limit(limit)
  }

  /**
   * The newest journey runs for the journeys page: curated tasks started without a key only, because a partner's
   * free-text task or keyed run is theirs to share (its id is a capability), not ours to list.
   */
  async recentCurated(
    limit: number,
  ): Promise<
    { id: string; intentId: string; domain: string; status: string; outcome: string | undefined; createdAt: Date }[]
  > {
    const rows = await this.db
      .select({
        id: journeyRuns.id,
        intentId: journeyRuns.intentId,
        domain: journeyRuns.domain,
        status: journeyRuns.status,
        verdict: journeyRuns.verdict,
        createdAt: journeyRuns.createdAt,
      })
      .from(journeyRuns)
      .where(and(isNull(journeyRuns.keyId), ne(journeyRuns.intentId, 'custom')))
      .orderBy(desc(journeyRuns.createdAt), desc(journeyRuns.id))
      .limit(limit)
    return rows.map(({ verdict, ...row }) => ({ ...row, outcome: verdict?.outcome }))
  }
}
