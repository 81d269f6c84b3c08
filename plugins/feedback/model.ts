import { z } from 'zod'
import { agentFeedback, checkFeedback } from './tables.ts'

/**
 * HTTP models of the feedback routes, reused as-is by the MCP tools (`get_verification_challenge`,
 * `submit_check_feedback`, `submit_feedback`, `get_feedback`) so that both surfaces validate one way.
 * Everything here is a plain `z.object` (no refinements): MCP tool inputs must be JSON Schema objects, and the MCP
 * side may `.omit()`/`.extend()` them. Cross-field rules (which reporter sends which fields, legacy layer keys) are
 * enforced by FeedbackService, which every caller goes through.
 */

export const MAX_FEEDBACK_MESSAGE = 1000
export const DEFAULT_FEEDBACK_PAGE = 20
export const MAX_FEEDBACK_PAGE = 100
/** Deep offsets cost the database a sort for nothing anyone reads; a domain with more reports is paged by recency. */
export const MAX_FEEDBACK_OFFSET = 10_000

/** How long a verification token is valid (spec: at most 5 minutes). */
export const VERIFICATION_TTL_MS = 5 * 60 * 1000

/** What a caller needs to know about the reverse challenge; the challenge repeats the steps it applies. */
export const VERIFICATION_DESCRIPTION = `Agent verification is a reverse challenge: trivial for software, tedious for a person. \`get_verification_challenge\` returns \`{ token, expiresAt, challenge: { instructions, data: { items, modulus }, steps } }\`: 40 random items (lower-case words and decimal integers) and a modulus, with exact steps whose results are joined as \`A:B:C:D\` — A the first 16 hex characters of the SHA-256 of the reversed words sorted and joined with commas, B the sum of the integers modulo \`modulus\`, C the sum of the character codes of the words modulo \`modulus\`, D the standard base64 of the first three sorted reversed words joined with "-". Send the token and that answer as \`verificationToken\` and \`verificationAnswer\` within ${VERIFICATION_TTL_MS / 60_000} minutes. A token is accepted once; a wrong answer does not use it up. Failure is 401 AGENT_VERIFICATION_FAILED; 503 VERIFICATION_UNAVAILABLE when verification cannot be checked right now.`

export const verificationChallenge = z
  .object({
    token: z.string().describe('Opaque, signed, expiring token; send it back as `verificationToken`'),
    expiresAt: z.string().describe('When the token stops being accepted (ISO 8601)'),
    challenge: z.object({
      instructions: z.string().describe('What to compute and how to submit it'),
      data: z.object({
        items: z
          .array(z.string())
          .describe('40 items in random order: lower-case words (a-z only) and decimal integers'),
        modulus: z.number().int().describe('The modulus of steps B and C'),
      }),
      steps: z.array(z.string()).describe('The exact transformations, in order'),
    }),
  })
  .describe(VERIFICATION_DESCRIPTION)

export type VerificationChallenge = z.infer<typeof verificationChallenge>

const domain = z.string().trim().min(1).max(2048).describe('Product domain (a URL is accepted and reduced to its host)')
const agentId = z.string().trim().min(1).max(200).describe('Agent identifier, e.g. product name and version')
const verificationToken = z.string().min(1).max(256).describe('Token from the `get_verification_challenge` tool')
const verificationAnswer = z.string().min(1).max(512).describe('The solved challenge answer (`A:B:C:D`)')

export const checkFeedbackBody = z.object({
  reporterType: z
    .enum(checkFeedback.reporterType.enumValues)
    .describe('`human` or `agent`; agents must pass agent verification'),
  domain,
  checkId: z.string().trim().min(1).max(100).describe('Check id from the catalog (GET /api/checks)'),
  reason: z.enum(checkFeedback.reason.enumValues).describe('What is wrong with the result'),
  message: z
    .string()
    .trim()
    .min(1)
    .max(MAX_FEEDBACK_MESSAGE)
    .describe(`What is wrong, at most ${MAX_FEEDBACK_MESSAGE} characters`),
  mcpUrl: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .optional()
    .describe(
      'MCP bundles report one result per server: the server the report is about (default: the first result of the check)',
    ),
  reporterEmail: z
    .email()
    .max(254)
    .optional()
    .describe('Humans only, optional: where to tell you about the fix. Rejected for agents'),
  agentId: agentId.optional().describe('Agents only, required: agent identifier'),
  verificationToken: verificationToken
    .optional()
    .describe('Agents only, required: token from the `get_verification_challenge` MCP tool'),
  verificationAnswer: verificationAnswer.optional().describe('Agents only, required: the solved challenge answer'),
})

export type CheckFeedbackInput = z.infer<typeof checkFeedbackBody>

export const checkFeedbackResponse = z.object({
  ok: z.literal(true),
  id: z.number().int().describe('Id of the stored report'),
})

/** The journey taxonomy's stages: AgentFeedback scores the same five (spec, Journey run). */
export const FEEDBACK_STAGES = ['discovery', 'identity', 'access', 'payments', 'experience'] as const
export type FeedbackStage = (typeof FEEDBACK_STAGES)[number]

/**
 * Stage names of the earlier four-stage taxonomy, still accepted on the way in. `integration` covered connecting to
 * and operating the product's interfaces (API, MCP, auth handshakes), which the current taxonomy calls `access`;
 * `in-agent-experience` is what is now `experience`.
 */
export const LEGACY_STAGES = { integration: 'access', 'in-agent-experience': 'experience' } as const satisfies Record<
  string,
  FeedbackStage
>

const stageScore = z.number().int().min(1).max(5)

export const layerScoresInput = z
  .strictObject({
    discovery: stageScore.optional(),
    identity: stageScore.optional(),
    access: stageScore.optional(),
    payments: stageScore.optional(),
    experience: stageScore.optional(),
    integration: stageScore.optional().describe('Legacy name of `access`; stored as `access`'),
    'in-agent-experience': stageScore.optional().describe('Legacy name of `experience`; stored as `experience`'),
  })
  .describe(
    'Per-stage scores 1-5 (integers), any subset of discovery, identity, access, payments, experience. Legacy keys `integration` (-> access) and `in-agent-experience` (-> experience) are accepted and stored under the current name; sending a legacy key together with its current name is a 400.',
  )

export type LayerScoresInput = z.infer<typeof layerScoresInput>

const outcome = z.enum(agentFeedback.outcome.enumValues)
const recommendation = z.enum(agentFeedback.recommendation.enumValues)

export const agentFeedbackInput = z.object({
  domain,
  agent_id: agentId,
  user_intent: z.string().trim().min(1).max(MAX_FEEDBACK_MESSAGE).describe("The user's original request"),
  task_description: z
    .string()
    .trim()
    .min(1)
    .max(MAX_FEEDBACK_MESSAGE)
    .describe('What the agent tried to do on the domain'),
  outcome: outcome.describe('How the task went'),
  content: z
    .string()
    .trim()
    .min(1)
    .max(MAX_FEEDBACK_MESSAGE)
    .describe(`The report, at most ${MAX_FEEDBACK_MESSAGE} characters`),
  friction_points: z
    .array(z.string().trim().min(1).max(300))
    .max(20)
    .default([])
    .describe('Short descriptions of what got in the way, at most 20'),
  recommendation: recommendation.describe('Would the agent recommend the product for such tasks'),
  layer_scores: layerScoresInput.default({}),
  verificationToken,
  verificationAnswer,
})

export type AgentFeedbackInput = z.infer<typeof agentFeedbackInput>

export const agentFeedbackRecord = z
  .object({
    id: z.number().int(),
    domain: z.string(),
    agent_id: z.string(),
    user_intent: z.string().describe('Original request'),
    task_description: z.string(),
    outcome,
    content: z.string(),
    friction_points: z.array(z.string()),
    recommendation,
    layer_scores: z
      .partialRecord(z.enum(FEEDBACK_STAGES), stageScore)
      .describe('Per-stage scores 1-5 under the current stage names (legacy keys were mapped when stored)'),
    created_at: z.string().describe('ISO 8601'),
  })
  .describe("AgentFeedback: one agent's report of how a task on the domain went")

export type AgentFeedback = z.infer<typeof agentFeedbackRecord>

export const feedbackDomainParams = z.object({
  domain: z.string().min(1).max(2048).describe('Product domain; a URL-encoded URL is reduced to its host'),
})

export const feedbackListQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_FEEDBACK_PAGE)
    .default(DEFAULT_FEEDBACK_PAGE)
    .describe(`Reports per page, 1-${MAX_FEEDBACK_PAGE}, default ${DEFAULT_FEEDBACK_PAGE}`),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_FEEDBACK_OFFSET)
    .default(0)
    .describe(`Reports to skip, at most ${MAX_FEEDBACK_OFFSET}`),
})

export const agentFeedbackList = z.object({
  domain: z.string(),
  items: z.array(agentFeedbackRecord).describe('Newest first'),
  total: z.number().int().describe('Reports for the domain, across all pages'),
  limit: z.number().int(),
  offset: z.number().int(),
})

const count = z.number().int().min(0)
const rate = z.number().min(0).max(1)

export const feedbackStats = z
  .object({
    domain: z.string(),
    total: count.describe('Agent feedback reports for the domain'),
    success_rate: rate.describe('outcomes.success / total, three decimals; 0 when there are no reports'),
    recommend_rate: rate.describe('recommendations.recommend / total, three decimals; 0 when there are no reports'),
    outcomes: z.object({ success: count, partial_failure: count, failure: count }).describe('Reports per outcome'),
    recommendations: z
      .object({ recommend: count, neutral: count, not_recommend: count })
      .describe('Reports per recommendation'),
  })
  .describe('FeedbackStats over every agent feedback report of the domain')

export type FeedbackStats = z.infer<typeof feedbackStats>
