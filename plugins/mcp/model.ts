import { z } from 'zod'
import { openApiSchema } from '../../core/openapi.ts'
import { CHECK_STATUSES, LAYER_IDS, SCAN_KINDS } from '../../core/engine/check.ts'
import { SERVER_CARD_SCHEMA } from '../../core/engine/lib/server-card.ts'
import { describeLimit } from '../../core/limits.ts'
import { SCAN_LIMITS } from '../scan/public.ts'
import { checkCatalog } from '../catalog/public.ts'
import { discoverQuery, discoverResponse } from '../discover/public.ts'
import {
  agentFeedbackInput,
  agentFeedbackList,
  agentFeedbackRecord,
  checkFeedbackBody,
  checkFeedbackResponse,
  feedbackDomainParams,
  feedbackListQuery,
  feedbackStats,
  verificationChallenge,
} from '../feedback/public.ts'
import { leaderboardQuery, leaderboardResponse } from '../leaderboard/public.ts'
import { auditScanResult, auditScoreResult, runChecksBody, runChecksResponse, scanBody } from '../scan/public.ts'

/**
 * Tool inputs and outputs of our MCP server, and its discovery documents. Every tool schema reuses the HTTP
 * models of the feature it fronts, so the MCP surface and the REST surface cannot drift apart.
 */

/** The scan family's limits as POST /api/scan applies them. */
export const SCAN_LIMITS_SENTENCE = `${describeLimit(SCAN_LIMITS.scanBurst)}, ${describeLimit(SCAN_LIMITS.scanDaily)}, forced scans ${describeLimit(SCAN_LIMITS.scanForced)}, per IP`

// ---------------------------------------------------------------------------------------------------------------
// Tools

/**
 * The schema with our MCP server's own argument descriptions: the constraints stay those of the HTTP model, the
 * wording is a few words, because every agent that connects reads every argument of every tool into its context.
 */
export function brief<S extends z.ZodObject>(schema: S, texts: { [K in keyof S['shape']]?: string }): S {
  const described = Object.entries(texts).map(([key, text]) => [
    key,
    (schema.shape[key] as z.ZodType).describe(text as string),
  ])
  return schema.extend(Object.fromEntries(described)) as unknown as S
}

/** How much of a report a score tool returns: agents pay for every token, so the summary is the default. */
export const detailInput = z.enum(['summary', 'full']).optional().describe('"full" adds the whole report')

/** One line of a check's details or fix: the summary is for deciding what to do, the full report for the rest. */
export const ONE_LINE = 160

/**
 * The compact result of the score tools: what an agent acts on (score, grade, whether analysis is done, the fixes
 * worth most, what fails and why), with links to the full report. `mcpUrl` names the server of a multi-server
 * bundle a fix or a failure is about.
 */
export const scoreSummary = z.object({
  contractVersion: z.string(),
  domain: z.string(),
  urlKind: auditScoreResult.shape.urlKind,
  score: z.number().int(),
  grade: z.string(),
  analysisStatus: auditScoreResult.shape.analysisStatus,
  scannedAt: z.string().nullable(),
  pendingChecks: z.array(z.string()).optional(),
  topFixes: z.array(z.object({ id: z.string(), gain: z.number(), fix: z.string(), mcpUrl: z.string().optional() })),
  failing: z.array(
    z.object({ id: z.string(), status: z.enum(CHECK_STATUSES), details: z.string(), mcpUrl: z.string().optional() }),
  ),
  bonusNotMet: z.array(z.string()),
  reportUrl: z.string(),
  nextAction: auditScoreResult.shape.nextAction,
})

export const scanDomainInput = z.object({
  url: scanBody.shape.url.describe('Domain or MCP URL'),
  mcpUrl: scanBody.shape.mcpUrl.describe('Pin this MCP endpoint'),
  force: z.boolean().optional().describe('Ignore stored results'),
  maxAgeSeconds: scanBody.shape.maxAgeSeconds.describe('Reuse a stored result this fresh'),
  ephemeral: scanBody.shape.ephemeral.describe('Do not publish the result'),
  pages: scanBody.shape.pages.describe('Pages to judge (max 25 without a key)'),
  detail: detailInput,
})

export const scanDomainOutput = scoreSummary.extend({
  servedFromCache: auditScanResult.shape.servedFromCache,
  resultAgeSeconds: auditScanResult.shape.resultAgeSeconds,
  scoreUrl: z.string().describe('The stored result over HTTP (audit shape)'),
  pagesIgnored: auditScanResult.shape.pagesIgnored,
  report: auditScanResult.optional(),
})

export const getScoreInput = z.object({
  domain: z.string().min(1).max(2048).describe('Domain or URL'),
  detail: detailInput,
})

export const getScoreOutput = scoreSummary.extend({ report: auditScoreResult.optional() })

export const listChecksInput = z.object({
  kind: z.enum(SCAN_KINDS).optional().describe('Only checks for this target kind'),
  layer: z.enum(LAYER_IDS).optional().describe('Only this layer'),
  essentials: z.boolean().optional().describe('Add the essentials fields'),
})

export const listChecksOutput = checkCatalog

/** Built from the registry, so an unknown id is an input error that lists the valid ones. */
export function runChecksInput(checkIds: readonly [string, ...string[]]) {
  return z.object({
    url: runChecksBody.shape.url.describe('Domain or URL'),
    checkIds: z.array(z.enum(checkIds)).min(1).describe('Check ids from list_checks'),
    mcpUrl: runChecksBody.shape.mcpUrl.describe('Pin this MCP endpoint'),
  })
}

export const runChecksOutput = runChecksResponse

export const getLeaderboardInput = brief(leaderboardQuery, {
  category: 'Only this market category',
  kind: 'Only this scan kind',
  page: 'Page, from 1',
  pageSize: 'Rows per page',
})
export const getLeaderboardOutput = leaderboardResponse

export const discoverProductsInput = brief(discoverQuery, {
  intent: 'What the user wants to do',
  limit: 'Most results to return',
})
export const discoverProductsOutput = discoverResponse

/** No arguments: `{ type: "object", additionalProperties: false }`, the form MCP recommends for argument-less tools. */
export const getVerificationChallengeInput = z.strictObject({})
export const getVerificationChallengeOutput = verificationChallenge

const VERIFICATION_TOKEN = 'From get_verification_challenge'
const VERIFICATION_ANSWER = 'Your solved answer'

/** The HTTP body with reporterType fixed to agent: an MCP caller is an agent, so the agent fields are required. */
export const submitCheckFeedbackInput = brief(
  checkFeedbackBody
    .omit({ reporterType: true, reporterEmail: true })
    .required({ agentId: true, verificationToken: true, verificationAnswer: true }),
  {
    domain: 'Domain',
    checkId: 'Check id',
    reason: 'What is wrong',
    message: 'Explanation',
    mcpUrl: 'Server of a bundle result',
    agentId: 'Your agent id',
    verificationToken: VERIFICATION_TOKEN,
    verificationAnswer: VERIFICATION_ANSWER,
  },
)
export const submitCheckFeedbackOutput = checkFeedbackResponse

export const submitFeedbackInput = brief(agentFeedbackInput, {
  domain: 'Domain',
  agent_id: 'Your agent id',
  user_intent: "The user's request",
  task_description: 'What you tried',
  outcome: 'How it went',
  content: 'Your report',
  friction_points: 'What got in the way',
  recommendation: 'Would you recommend it',
  layer_scores: 'Scores 1-5: discovery, identity, access, payments, experience',
  verificationToken: VERIFICATION_TOKEN,
  verificationAnswer: VERIFICATION_ANSWER,
})
export const submitFeedbackOutput = agentFeedbackRecord

export const getFeedbackInput = brief(feedbackDomainParams.extend(feedbackListQuery.shape), {
  domain: 'Domain',
  limit: 'Reports per page',
  offset: 'Reports to skip',
})
export const getFeedbackOutput = agentFeedbackList.extend({ stats: feedbackStats })

// ---------------------------------------------------------------------------------------------------------------
// Discovery documents

export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json'

/** SEP-2127 (docs/checks.md §7); cards do not list tools. */
export const serverCard = z
  .object({
    $schema: z.literal(SERVER_CARD_SCHEMA),
    name: z
      .string()
      .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/)
      .describe('Reverse-DNS namespace of the service host, then the server name reported in serverInfo'),
    version: z.string().describe('The contract version, identical to serverInfo.version'),
    title: z.string(),
    description: z.string(),
    websiteUrl: z.string(),
    remotes: z.array(
      z.object({
        type: z.literal('streamable-http'),
        url: z.string(),
        supportedProtocolVersions: z.array(z.string()),
      }),
    ),
  })
  .describe('MCP Server Card (SEP-2127)')

/** The SEP-1649 shape some scanners still probe at /.well-known/mcp.json. */
export const legacyMcpPointer = z
  .object({
    serverInfo: z.object({ name: z.string(), title: z.string(), version: z.string() }),
    description: z.string(),
    protocolVersion: z.string().describe('The newest protocol version the server speaks'),
    transport: z.object({
      type: z.literal('streamable-http'),
      endpoint: z.string().describe('Path of the MCP endpoint'),
    }),
    capabilities: z.object({ tools: z.object({}) }),
    authentication: z.object({
      required: z.literal(false),
      schemes: z.array(z.literal('bearer')).describe('An optional scan key, issued by the operators; never required'),
    }),
    serverCard: z.string().describe('The current (SEP-2127) server card'),
  })
  .describe('Legacy MCP discovery pointer (SEP-1649)')

export const openidDescriptor = z
  .object({
    mcp_endpoint: z.string().describe('The MCP server (streamable HTTP)'),
    mcp_server_card: z.string(),
    service_documentation: z.string(),
    issues_tokens: z.literal(false),
    grant_types_supported: z.array(z.never()).describe('Always empty: there is no authorization server'),
    response_types_supported: z.array(z.never()).describe('Always empty: there is no authorization endpoint'),
    description: z.string(),
  })
  .describe(
    'A pointer to the MCP endpoint for clients that look here first. Not an OpenID provider: no issuer, no authorization, token, registration or JWKS endpoints, and no tokens are issued.',
  )

/** OpenAPI responses of a discovery document: the routes answer with raw Responses (own media type, ETag). */
export function documentResponses(schema: z.ZodType, mediaType: string, description: string) {
  return {
    200: { description, content: { [mediaType]: { schema: openApiSchema(schema) } } },
    304: { description: 'Not modified (If-None-Match matched the ETag)' },
  }
}
