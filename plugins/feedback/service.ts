import { count, desc, eq, sql } from 'drizzle-orm'
import type { Kernel } from '../../core/kernel.ts'
import { normalizeInput } from '../../core/engine/target.ts'
import { AppError } from '../../core/errors.ts'
import type { ScanRepository } from '../scan/public.ts'
import {
  type AgentFeedback,
  type AgentFeedbackInput,
  type CheckFeedbackInput,
  FEEDBACK_STAGES,
  type FeedbackStage,
  type FeedbackStats,
  LEGACY_STAGES,
  type LayerScoresInput,
} from './model.ts'
import { agentFeedback, checkFeedback } from './tables.ts'
import type { AgentVerification } from './verification.ts'

type AgentFeedbackRow = typeof agentFeedback.$inferSelect

/**
 * Check feedback (reports that a check result is wrong) and agent feedback (how a task on a domain went). Used by
 * the HTTP routes and the MCP tools alike, so every rule lives here: the zod models only check shapes.
 */
export class FeedbackService {
  private readonly db: Kernel['database']['db']
  private readonly scans: ScanRepository

  constructor(
    private readonly deps: Pick<Kernel, 'database' | 'registry'> & { scans: ScanRepository },
    private readonly verification: AgentVerification,
  ) {
    this.db = deps.database.db
    this.scans = deps.scans
  }

  /**
   * Stores a report about one check of the domain's latest scan, with that result snapshotted. Agents are verified
   * last, after everything that could still fail with a 4xx, so that a correctable mistake does not use up a token.
   */
  async submitCheckFeedback(input: CheckFeedbackInput): Promise<{ ok: true; id: number }> {
    const reporter = reporterOf(input)
    const { domain } = normalizeInput(input.domain)
    if (!this.deps.registry.has(input.checkId)) {
      throw new AppError('UNKNOWN_CHECK_IDS', {
        message: `Unknown check id: ${input.checkId}`,
        details: { unknownIds: [input.checkId] },
      })
    }
    const scan = await this.scans.latest(domain)
    if (!scan?.result) throw new AppError('NOT_FOUND', { message: `${domain} has not been scanned` })
    const result = scan.result.layers
      .flatMap((layer) => layer.checks)
      .find((check) => check.id === input.checkId && (input.mcpUrl === undefined || check.mcpUrl === input.mcpUrl))
    if (!result) {
      throw new AppError('NOT_FOUND', {
        message: `The latest scan of ${domain} has no result for ${input.checkId}${input.mcpUrl ? ` on ${input.mcpUrl}` : ''}`,
      })
    }
    if (reporter.type === 'agent')
      await this.verification.verify(reporter.verificationToken, reporter.verificationAnswer)
    const [row] = await this.db
      .insert(checkFeedback)
      .values({
        domain,
        checkId: input.checkId,
        reason: input.reason,
        message: input.message,
        reporterType: reporter.type,
        reporterEmail: reporter.type === 'human' ? (reporter.email ?? null) : null,
        agentId: reporter.type === 'agent' ? reporter.agentId : null,
        scanId: scan.id,
        snapshot: {
          status: result.status,
          score: result.score,
          maxScore: result.maxScore,
          details: result.details,
          ...(result.mcpUrl ? { mcpUrl: result.mcpUrl } : {}),
        },
      })
      .returning({ id: checkFeedback.id })
    return { ok: true, id: row!.id }
  }

  async submitAgentFeedback(input: AgentFeedbackInput): Promise<AgentFeedback> {
    const { domain } = normalizeInput(input.domain)
    const layerScores = canonicalLayerScores(input.layer_scores)
    await this.verification.verify(input.verificationToken, input.verificationAnswer)
    const [row] = await this.db
      .insert(agentFeedback)
      .values({
        domain,
        agentId: input.agent_id,
        userIntent: input.user_intent,
        taskDescription: input.task_description,
        outcome: input.outcome,
        content: input.content,
        frictionPoints: input.friction_points,
        recommendation: input.recommendation,
        layerScores,
      })
      .returning()
    return toAgentFeedback(row!)
  }

  /** Newest first. */
  async listAgentFeedback(
    domain: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: AgentFeedback[]; total: number }> {
    const host = normalizeInput(domain).domain
    const [rows, [counted]] = await Promise.all([
      this.db
        .select()
        .from(agentFeedback)
        .where(eq(agentFeedback.domain, host))
        .orderBy(desc(agentFeedback.createdAt), desc(agentFeedback.id))
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ total: count() }).from(agentFeedback).where(eq(agentFeedback.domain, host)),
    ])
    return { items: rows.map(toAgentFeedback), total: counted?.total ?? 0 }
  }

  async agentFeedbackStats(domain: string): Promise<FeedbackStats> {
    const host = normalizeInput(domain).domain
    const tally = (column: typeof agentFeedback.outcome | typeof agentFeedback.recommendation, value: string) =>
      sql<number>`count(*) filter (where ${column} = ${value})::int`
    const [row] = await this.db
      .select({
        total: count(),
        success: tally(agentFeedback.outcome, 'success'),
        partial_failure: tally(agentFeedback.outcome, 'partial_failure'),
        failure: tally(agentFeedback.outcome, 'failure'),
        recommend: tally(agentFeedback.recommendation, 'recommend'),
        neutral: tally(agentFeedback.recommendation, 'neutral'),
        not_recommend: tally(agentFeedback.recommendation, 'not_recommend'),
      })
      .from(agentFeedback)
      .where(eq(agentFeedback.domain, host))
    const {
      total = 0,
      success = 0,
      partial_failure = 0,
      failure = 0,
      recommend = 0,
      neutral = 0,
      not_recommend = 0,
    } = row ?? {}
    return {
      domain: host,
      total,
      success_rate: share(success, total),
      recommend_rate: share(recommend, total),
      outcomes: { success, partial_failure, failure },
      recommendations: { recommend, neutral, not_recommend },
    }
  }
}

interface Issue {
  path: string
  message: string
}

type Reporter =
  | { type: 'human'; email: string | undefined }
  | { type: 'agent'; agentId: string; verificationToken: string; verificationAnswer: string }

/** The spec's per-reporter rules: agents must send their id and verification, and only humans leave an email. */
function reporterOf(input: CheckFeedbackInput): Reporter {
  const { reporterType, reporterEmail, agentId, verificationToken, verificationAnswer } = input
  const agentFields = { agentId, verificationToken, verificationAnswer }
  const issues: Issue[] = []
  if (reporterType === 'human') {
    for (const [path, value] of Object.entries(agentFields)) {
      if (value !== undefined) issues.push({ path, message: 'only for reporterType agent' })
    }
    if (issues.length === 0) return { type: 'human', email: reporterEmail }
  } else {
    if (reporterEmail !== undefined) issues.push({ path: 'reporterEmail', message: 'only for reporterType human' })
    for (const [path, value] of Object.entries(agentFields)) {
      if (value === undefined) issues.push({ path, message: 'required for reporterType agent' })
    }
    if (
      issues.length === 0 &&
      agentId !== undefined &&
      verificationToken !== undefined &&
      verificationAnswer !== undefined
    ) {
      return { type: 'agent', agentId, verificationToken, verificationAnswer }
    }
  }
  throw invalid(issues)
}

/** Legacy stage names are stored under their current names; a legacy key next to its current name is ambiguous. */
function canonicalLayerScores(input: LayerScoresInput): Partial<Record<FeedbackStage, number>> {
  const scores: Partial<Record<FeedbackStage, number>> = {}
  for (const stage of FEEDBACK_STAGES) if (input[stage] !== undefined) scores[stage] = input[stage]
  const problems: Issue[] = []
  for (const [legacy, stage] of Object.entries(LEGACY_STAGES) as [keyof typeof LEGACY_STAGES, FeedbackStage][]) {
    const value = input[legacy]
    if (value === undefined) continue
    if (scores[stage] !== undefined)
      problems.push({ path: `layer_scores.${legacy}`, message: `legacy name of ${stage}, which is also given` })
    scores[stage] = value
  }
  if (problems.length > 0) throw invalid(problems)
  return scores
}

/** The same 400 shape as a schema failure (core/context.ts), for rules a schema cannot state. */
function invalid(issues: Issue[]): AppError {
  return new AppError('VALIDATION_FAILED', {
    message: `Invalid body: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
    details: { in: 'body', issues },
  })
}

function share(part: number, total: number): number {
  return total === 0 ? 0 : Math.round((part / total) * 1000) / 1000
}

function toAgentFeedback(row: AgentFeedbackRow): AgentFeedback {
  return {
    id: row.id,
    domain: row.domain,
    agent_id: row.agentId,
    user_intent: row.userIntent,
    task_description: row.taskDescription,
    outcome: row.outcome,
    content: row.content,
    friction_points: row.frictionPoints,
    recommendation: row.recommendation,
    // Written only through canonicalLayerScores, so the keys are current stage names.
    layer_scores: row.layerScores as AgentFeedback['layer_scores'],
    created_at: row.createdAt.toISOString(),
  }
}
