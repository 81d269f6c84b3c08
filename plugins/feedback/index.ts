import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import type { ScanRepository } from '../scan/public.ts'
import { FeedbackService } from './service.ts'
import { AgentVerification } from './verification.ts'
import { normalizeInput } from '../../core/engine/target.ts'
import {
  agentFeedbackList,
  checkFeedbackBody,
  checkFeedbackResponse,
  feedbackDomainParams,
  feedbackListQuery,
  feedbackStats,
  LEGACY_STAGES,
  MAX_FEEDBACK_MESSAGE,
  VERIFICATION_DESCRIPTION,
} from './model.ts'
import { errorResponse } from '../../core/errors.ts'
import { FEEDBACK_ERRORS } from './errors.ts'
import { wire } from '../../core/openapi.ts'
import { describeIpLimit, limitWindow } from '../../core/limits.ts'
import { FEEDBACK_LIMITS } from './limits.ts'
import { LEADERBOARD_LIMITS } from '../leaderboard/public.ts'
import { cacheLifetime, publicCache } from '../../core/caching.ts'

/** Reads change with every report; a minute of staleness keeps a popular domain's page off the database. */
const READ_CACHE_SECONDS = 60
const READ_CACHE_CONTROL = publicCache(READ_CACHE_SECONDS)
const LEGACY_NOTE = Object.entries(LEGACY_STAGES)
  .map(([legacy, stage]) => `\`${legacy}\` -> \`${stage}\``)
  .join(', ')

type FeedbackNeeds = Pick<KernelPieces, 'context' | 'database' | 'registry' | 'store' | 'secrets'> & {
  scans: ScanRepository
}

type FeedbackProvides = { verification: AgentVerification; feedbackService: FeedbackService }

export function feedbackPlugin({
  context,
  feedbackService: service,
}: Pick<FeedbackNeeds, 'context'> & FeedbackProvides) {
  return new Elysia({ name: 'feedback' })
    .use(context)
    .post('/api/feedback/check', ({ body }) => service.submitCheckFeedback(body), {
      limit: FEEDBACK_LIMITS.feedback,
      parse: 'json',
      body: checkFeedbackBody,
      response: {
        200: checkFeedbackResponse,
        400: errorResponse,
        401: errorResponse,
        404: errorResponse,
        429: errorResponse,
        500: errorResponse,
        503: errorResponse,
      },
      detail: {
        tags: ['Feedback'],
        summary: 'Report a wrong check result',
        description: `The check's status, score, maxScore and details are snapshotted from the domain's latest scan. \`reporterType\` human may add \`reporterEmail\`; \`reporterType\` agent must send \`agentId\`, \`verificationToken\` and \`verificationAnswer\` (and no email). ${VERIFICATION_DESCRIPTION} 400 invalid payload (\`VALIDATION_FAILED\`, message over ${MAX_FEEDBACK_MESSAGE} characters included) or unknown checkId (\`UNKNOWN_CHECK_IDS\`); 401 \`AGENT_VERIFICATION_FAILED\` (\`details.reason\`: malformed, expired, mismatch, replayed); 404 \`NOT_FOUND\` when the domain has no scan or the check is not in its latest scan; 429 after ${FEEDBACK_LIMITS.feedback.limit} reports per IP per ${limitWindow(FEEDBACK_LIMITS.feedback)}; 503 \`VERIFICATION_UNAVAILABLE\`.`,
      },
    })
    .get(
      '/api/feedback/:domain',
      async ({ params, query, set }) => {
        const { domain } = normalizeInput(params.domain)
        const page = await service.listAgentFeedback(domain, query)
        set.headers['cache-control'] = READ_CACHE_CONTROL
        return { domain, ...page, ...query }
      },
      {
        limit: LEADERBOARD_LIMITS.openRead,
        params: feedbackDomainParams,
        query: feedbackListQuery,
        response: { 200: agentFeedbackList, 400: errorResponse, 429: errorResponse, 500: errorResponse },
        detail: {
          ...wire({ answers: { 200: ['Cache-Control'] } }),
          tags: ['Feedback'],
          summary: "Agents' feedback on a domain",
          description: `AgentFeedback reports for the domain, newest first, paged with \`limit\` (1-100, default 20) and \`offset\`. \`layer_scores\` holds only current stage names (discovery, identity, access, payments, experience): legacy keys were mapped when stored (${LEGACY_NOTE}). A domain without reports is an empty page, not a 404. 400 \`INVALID_DOMAIN\`. Cached ${cacheLifetime(READ_CACHE_SECONDS)}. ${describeIpLimit(LEADERBOARD_LIMITS.openRead)}, shared with the other open reads.`,
        },
      },
    )
    .get(
      '/api/feedback/:domain/stats',
      async ({ params, set }) => {
        const stats = await service.agentFeedbackStats(params.domain)
        set.headers['cache-control'] = READ_CACHE_CONTROL
        return stats
      },
      {
        limit: LEADERBOARD_LIMITS.openRead,
        params: feedbackDomainParams,
        response: { 200: feedbackStats, 400: errorResponse, 429: errorResponse, 500: errorResponse },
        detail: {
          ...wire({ answers: { 200: ['Cache-Control'] } }),
          tags: ['Feedback'],
          summary: "Statistics of agents' feedback on a domain",
          description: `FeedbackStats over every AgentFeedback report of the domain: \`total\`; \`outcomes\` \`{ success, partial_failure, failure }\` and \`recommendations\` \`{ recommend, neutral, not_recommend }\` as counts; \`success_rate\` = success / total and \`recommend_rate\` = recommend / total, 0-1 with three decimals (0 when there are no reports). 400 \`INVALID_DOMAIN\`. Cached ${cacheLifetime(READ_CACHE_SECONDS)}. ${describeIpLimit(LEADERBOARD_LIMITS.openRead)}, shared with the other open reads.`,
        },
      },
    )
}

/** Feedback and the agent verification it needs (the MCP tools drive both too). */
export const feedbackFeature = defineFeature<FeedbackNeeds, FeedbackProvides>()({
  name: 'feedback',
  needs: ['context', 'database', 'registry', 'store', 'secrets', 'scans'],
  provides: ['verification', 'feedbackService'],
  limits: FEEDBACK_LIMITS,
  provide: (deps) => {
    const verification = new AgentVerification(deps)
    return { verification, feedbackService: new FeedbackService(deps, verification) }
  },
  routes: feedbackPlugin,
  errors: { codes: FEEDBACK_ERRORS },
})
