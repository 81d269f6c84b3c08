import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'

/** Reports that a check result is wrong, with the result as it was snapshotted from the latest scan. */
export const checkFeedback = pgTable(
  'check_feedback',
  {
    id: serial('id').primaryKey(),
    domain: text('domain').notNull(),
    checkId: text('check_id').notNull(),
    reason: text('reason', { enum: ['false_pass', 'false_fail', 'wrong_details', 'outdated', 'other'] }).notNull(),
    message: text('message').notNull(),
    reporterType: text('reporter_type', { enum: ['human', 'agent'] }).notNull(),
    reporterEmail: text('reporter_email'),
    agentId: text('agent_id'),
    scanId: integer('scan_id'),
    /** The check's status, score, maxScore and details in the scan the report is about. */
    snapshot: jsonb('snapshot')
      .$type<{ status: string; score: number; maxScore: number; details: string; mcpUrl?: string }>()
      .notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('check_feedback_domain_idx').on(table.domain, table.checkId)],
)

/** Agents' reports of how a task on a domain went (AgentFeedback in the spec). */
export const agentFeedback = pgTable(
  'agent_feedback',
  {
    id: serial('id').primaryKey(),
    domain: text('domain').notNull(),
    agentId: text('agent_id').notNull(),
    userIntent: text('user_intent').notNull(),
    taskDescription: text('task_description').notNull(),
    outcome: text('outcome', { enum: ['success', 'partial_failure', 'failure'] }).notNull(),
    content: text('content').notNull(),
    frictionPoints: text('friction_points').array().notNull(),
    recommendation: text('recommendation', { enum: ['recommend', 'neutral', 'not_recommend'] }).notNull(),
    /** Per-stage scores 1-5 under the current stage names (legacy keys are mapped on the way in). */
    layerScores: jsonb('layer_scores').$type<Record<string, number>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('agent_feedback_domain_idx').on(table.domain, table.createdAt.desc())],
)
