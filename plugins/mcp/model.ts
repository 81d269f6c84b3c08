import { z } from 'zod'
import { openApiSchema } from '../../core/openapi.ts'
import { LAYER_IDS, SCAN_KINDS } from '../../core/engine/contract.ts'
import { SERVER_CARD_SCHEMA } from '../../core/engine/lib/discovery.ts'
import { LIMITS, type LimitName } from '../../core/limits.ts'
import { checkCatalog } from '../checks/model.ts'
import { discoverQuery, discoverResponse } from '../discover/model.ts'
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
} from '../feedback/model.ts'
import { leaderboardQuery, leaderboardResponse } from '../leaderboard/model.ts'
import { auditScanResult, auditScoreResult, runChecksBody, runChecksResponse, scanBody } from '../scan/model.ts'

/**
 * Tool inputs and outputs of our MCP server, and its discovery documents. Every tool schema reuses the HTTP
 * models of the feature it fronts, so the MCP surface and the REST surface cannot drift apart.
 */

/** "10 per minute", "30 per rolling 24 hours": descriptions quote LIMITS rather than restate numbers that could drift. */
export function describeLimit(name: LimitName): string {
  const { limit, windowMs } = LIMITS[name]
  const minutes = windowMs / 60_000
  const window = minutes === 1 ? 'minute' : minutes === 24 * 60 ? 'rolling 24 hours' : `${minutes} minutes`
  return `${limit} per ${window}`
}

/** The scan family's limits as POST /api/scan applies them. */
export const SCAN_LIMITS = `${describeLimit('scanBurst')}, ${describeLimit('scanDaily')}, forced scans ${describeLimit('scanForced')}, per IP`

// ---------------------------------------------------------------------------------------------------------------
// Tools

export const scanDomainInput = z.object({
  url: scanBody.shape.url,
  mcpUrl: scanBody.shape.mcpUrl,
  force: z
    .boolean()
    .optional()
    .describe(`Always scan live, skipping the freshness window; forced scans have their own budget (${describeLimit('scanForced')} per IP)`),
  maxAgeSeconds: scanBody.shape.maxAgeSeconds,
  ephemeral: scanBody.shape.ephemeral,
})

export const scanDomainOutput = auditScanResult.extend({
  scoreUrl: z
    .string()
    .describe('The stored result over HTTP (audit shape); while analysisStatus is partial, poll it or call get_score until it is complete'),
})

export const getScoreInput = z.object({
  domain: z.string().min(1).max(2048).describe('A domain, or a full URL (normalised to its hostname)'),
})

export const getScoreOutput = auditScoreResult

export const listChecksInput = z.object({
  kind: z.enum(SCAN_KINDS).optional().describe('Only checks that apply to this kind of target'),
  layer: z.enum(LAYER_IDS).optional().describe('Only checks of this scoring layer'),
  essentials: z
    .boolean()
    .optional()
    .describe('Add essentialsTier, essentialsBonusOnly and essentialsExcluded to every check'),
})

export const listChecksOutput = checkCatalog

/** Built from the registry, so the schema lists the valid ids and an unknown one is an input error. */
export function runChecksInput(checkIds: readonly [string, ...string[]]) {
  return z.object({
    url: runChecksBody.shape.url,
    checkIds: z
      .array(z.enum(checkIds))
      .min(1)
      .describe('Catalog check ids (see list_checks); duplicates are removed'),
    mcpUrl: runChecksBody.shape.mcpUrl,
  })
}

export const runChecksOutput = runChecksResponse

export const getLeaderboardInput = leaderboardQuery
export const getLeaderboardOutput = leaderboardResponse

export const discoverProductsInput = discoverQuery
export const discoverProductsOutput = discoverResponse

/** No arguments: `{ type: "object", additionalProperties: false }`, the form MCP recommends for argument-less tools. */
export const getVerificationChallengeInput = z.strictObject({})
export const getVerificationChallengeOutput = verificationChallenge

/** The HTTP body with reporterType fixed to agent: an MCP caller is an agent, so the agent fields are required. */
export const submitCheckFeedbackInput = checkFeedbackBody
  .omit({ reporterType: true, reporterEmail: true })
  .required({ agentId: true, verificationToken: true, verificationAnswer: true })
export const submitCheckFeedbackOutput = checkFeedbackResponse

export const submitFeedbackInput = agentFeedbackInput
export const submitFeedbackOutput = agentFeedbackRecord

export const getFeedbackInput = feedbackDomainParams.extend(feedbackListQuery.shape)
export const getFeedbackOutput = agentFeedbackList.extend({ stats: feedbackStats })

// ---------------------------------------------------------------------------------------------------------------
// Discovery documents

export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json'

/** SEP-2127 (checks.md §7); cards do not list tools. */
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
    transport: z.object({ type: z.literal('streamable-http'), endpoint: z.string().describe('Path of the MCP endpoint') }),
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
