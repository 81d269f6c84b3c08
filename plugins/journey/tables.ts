import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import type { Comparison } from '../../journeys/compare.ts'
import type { RunUsage, TrajectoryStep, Verdict } from '../../journeys/types.ts'
import type { Insight, RunSignals } from '../../journeys/insights.ts'
import { apiKeys } from '../../core/keys/tables.ts'

export const JOURNEY_STATUSES = ['queued', 'running', 'completed', 'failed'] as const
/** A compare run's two halves: the agent identity, and the browser it is compared with. */
export const COMPARE_ROLES = ['agent', 'browser'] as const
export type JourneyStatus = (typeof JOURNEY_STATUSES)[number]

/** Why a run failed, as the run record and the stream's `error` event report it. */
export interface RunError {
  code: string
  message: string
}

/**
 * One journey run: the request (intent or a partner's free text, domain, agent) and, once finished, what the
 * runner found. The result columns stay null until the run ends; `contract_version` is the contract the record
 * was written under, so a reader can tell records of older releases apart.
 */
export const journeyRuns = pgTable(
  'journey_runs',
  {
    id: text('id').primaryKey(),
    intentId: text('intent_id').notNull(),
    /** A partner's free-text task; `intent_id` is then `custom`. */
    customIntent: text('custom_intent'),
    domain: text('domain').notNull(),
    agentId: text('agent_id').notNull(),
    harness: text('harness').notNull(),
    model: text('model').notNull(),
    /** Who the agent presented itself as: `self`, `browser`, or an AI assistant's product token. */
    identity: text('identity').notNull().default('self'),
    /** The other run of a compare request, and which half this one is. */
    compareRunId: text('compare_run_id'),
    compareRole: text('compare_role', { enum: COMPARE_ROLES }),
    /** Set on both runs of a compare request once both completed. */
    comparison: jsonb('comparison').$type<Comparison>(),
    status: text('status', { enum: JOURNEY_STATUSES }).notNull().default('queued'),
    verdict: jsonb('verdict').$type<Verdict>(),
    insight: jsonb('insight').$type<Insight>(),
    runSignals: jsonb('run_signals').$type<RunSignals>(),
    agentResponse: text('agent_response'),
    usage: jsonb('usage').$type<RunUsage>(),
    contentDigest: text('content_digest'),
    trajectoryDigest: text('trajectory_digest'),
    stepCount: integer('step_count').notNull().default(0),
    keyId: integer('key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    error: jsonb('error').$type<RunError>(),
    contractVersion: text('contract_version').notNull(),
  },
  (table) => [
    // The capped 200 reads the newest run of one target; the partner route reads a domain's runs newest first.
    index('journey_runs_target_idx').on(
      table.domain,
      table.intentId,
      table.harness,
      table.model,
      table.createdAt.desc(),
    ),
    index('journey_runs_domain_idx').on(table.domain, table.createdAt.desc()),
  ],
)

/** The trajectory, one row per step in the order the runner reported them; written as the run goes. */
export const journeySteps = pgTable(
  'journey_steps',
  {
    runId: text('run_id')
      .notNull()
      .references(() => journeyRuns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    step: jsonb('step').$type<TrajectoryStep>().notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.seq] })],
)
