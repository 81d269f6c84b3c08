import { z } from 'zod'
import { CHECK_STATUSES, LAYER_IDS, MATURITIES, TIERS } from '../../core/engine/check.ts'
import { SITE_TYPES } from '../../core/engine/collectors/site-classification.ts'
import { commaList } from '../../core/query.ts'
import { MAX_PAGES } from '../../core/engine/sample-size.ts'
import { ANONYMOUS_SCAN_PAGES } from './limits.ts'

const grade = z.enum(['A+', 'A', 'B', 'C', 'D', 'F'])
const urlKind = z.enum(['domain', 'mcp', 'mcp-app', 'ephemeral'])
const analysisStatus = z.enum(['complete', 'partial', 'stuck'])

export const MAX_AGE_DEFAULT = 21_600
export const MAX_AGE_MIN = 3_600
export const MAX_AGE_MAX = 86_400

/** maxAgeSeconds is clamped, never rejected (spec: POST /api/scan). */
export function clampMaxAge(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return MAX_AGE_DEFAULT
  return Math.min(MAX_AGE_MAX, Math.max(MAX_AGE_MIN, Math.trunc(value)))
}

const siteTypeParam = z
  .string()
  .optional()
  .describe(`Read-time lens for include=siteType: ${SITE_TYPES.join(', ')}; an unrecognised value is ignored`)

export const commonQuery = z.object({
  competitors: z.string().optional().describe('`1` adds `competitors` (null for unclassified or unranked domains)'),
  format: z.string().optional().describe('`audit` returns the versioned audit shape carrying contractVersion'),
  include: commaList.optional().describe('Comma list: `essentials`, `siteType`'),
  siteType: siteTypeParam,
})

/** The score route's query: the common options, and optionally one MCP server of the domain (its own report). */
export const scoreQuery = commonQuery.extend({
  mcp: z
    .string()
    .max(2048)
    .optional()
    .describe(
      "An MCP server's URL on this domain: that server's own stored result instead of the domain's newest (a host's website and MCP server are stored apart)",
    ),
})

export const scanBody = z.object({
  url: z.string().min(1).max(2048).describe('Domain, MCP server URL or MCP App URL'),
  mcpUrl: z
    .string()
    .max(2048)
    .optional()
    .describe('Sole MCP target; a failing endpoint is never replaced by a discovered one'),
  maxAgeSeconds: z
    .number()
    .optional()
    .describe(`Freshness window; default ${MAX_AGE_DEFAULT}, clamped to [${MAX_AGE_MIN}, ${MAX_AGE_MAX}]`),
  force: z
    .union([z.boolean(), z.literal(1), z.literal('1')])
    .optional()
    .describe('Always run live'),
  ephemeral: z.boolean().optional().describe('Store as disposable (excluded from leaderboard, history, statistics)'),
  siteType: siteTypeParam,
  pages: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGES)
    .optional()
    .describe(
      `Domain scans: judge page-level checks on a sample of this many pages (the homepage included); 1 or absent is the homepage alone. Anonymous callers up to ${ANONYMOUS_SCAN_PAGES}, scan keys up to ${MAX_PAGES}; ignored (and said so) for MCP targets`,
    ),
})

/** A page-level check's reading over a multi-page scan's sample (absent on one-page scans). */
const pageVerdict = z.object({
  checked: z.number().int(),
  passed: z.number().int(),
  failing: z
    .array(
      z.object({
        url: z.string(),
        status: z.enum(CHECK_STATUSES),
        details: z.string(),
        recommendation: z.string().optional(),
      }),
    )
    .describe('At most 10, worst first'),
})

/** The sample of a multi-page scan (absent on one-page scans). */
const sampleFields = {
  pages: z
    .array(
      z.object({
        url: z.string(),
        source: z.enum(['home', 'sitemap', 'llms', 'link']),
        httpStatus: z.number().int().nullable(),
        durationMs: z.number().int(),
      }),
    )
    .optional()
    .describe('Pages judged, the homepage first'),
  pageSample: z
    .object({
      requested: z.number().int(),
      candidates: z.number().int(),
      robotsSkipped: z.number().int().describe('Disallowed by robots.txt: never fetched'),
      renderedPages: z.array(z.string()),
      note: z.string().optional().describe('Why the sample is short'),
    })
    .optional(),
  pagesIgnored: z.string().optional().describe('Why `pages` was ignored'),
}

export const checkResult = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.enum(CHECK_STATUSES),
  score: z.number().int(),
  maxScore: z.number().int(),
  details: z.string(),
  recommendation: z.string().optional(),
  bonus: z.boolean(),
  maturity: z.enum(MATURITIES),
  tier: z.enum(TIERS),
  naReason: z.string().optional(),
  estScoreGain: z.number().optional(),
  specUrl: z.string().optional(),
  mcpKind: z.string().optional(),
  mcpUrl: z.string().optional(),
  pages: pageVerdict.optional(),
})

/**
 * A layer's reading in 0-100 points beside its within-layer `score`/`maxScore` (contract 1.28.0; absent on results
 * stored before it): the same numbers every page and the README show.
 */
const layerShare = {
  applicable: z
    .boolean()
    .optional()
    .describe('False when no check of the layer counted (maxScore 0): the layer drops out of the score'),
  weight: z.number().optional().describe('The layer weight out of 100, as GET /api/checks publishes it'),
  maxPoints: z
    .number()
    .optional()
    .describe('0-100 points this layer carries in this result: its weight re-normalised over the applicable layers'),
  points: z.number().optional().describe('0-100 points the layer earned; score = round(sum of points × blockFactor)'),
}

/** Why a score is held down (contract 1.28.0; absent on results stored before it). */
const blocking = {
  blockedBy: z
    .array(z.string())
    .optional()
    .describe('Failing checks that stop agents outright; each multiplies the score by 0.65'),
  blockFactor: z
    .number()
    .optional()
    .describe("What the layers' points are multiplied by (1 when nothing blocks agents)"),
}

export const layerResult = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  checks: z.array(checkResult),
  score: z.number().int(),
  maxScore: z.number().int(),
  ...layerShare,
})

export const topFix = z.object({
  id: z.string(),
  name: z.string(),
  layer: z.enum(LAYER_IDS),
  status: z.enum(['fail', 'warning']),
  estScoreGain: z.number(),
  bonus: z.boolean(),
  tier: z.enum(TIERS),
  recommendation: z.string().optional(),
  specUrl: z.string().optional(),
  mcpUrl: z.string().optional(),
})

export const nextAction = z.object({
  method: z.literal('POST'),
  endpoint: z.string(),
  body: z.record(z.string(), z.unknown()),
  description: z.string(),
})

/**
 * The recovery pointer of a stuck or missing score: a POST /api/scan body (scanBody) naming the target to measure,
 * so that following it scans that target and nothing else.
 */
export function scanNextAction(
  body: Pick<z.infer<typeof scanBody>, 'url' | 'mcpUrl' | 'ephemeral'>,
  description: string,
): z.infer<typeof nextAction> {
  return { method: 'POST', endpoint: '/api/scan', body, description }
}

export const competitor = z.object({
  rank: z.number().int(),
  domain: z.string(),
  name: z.string(),
  score: z.number().int(),
  grade,
  isSelf: z.boolean(),
})

export const competitorSet = z.object({
  category: z.string(),
  leaders: z.array(competitor),
  neighbors: z.array(competitor),
})

export const siteTypeLens = z.object({
  type: z.enum(SITE_TYPES).nullable(),
  source: z.enum(['declared', 'self-declared', 'classified', 'default', 'blocked', 'unavailable']),
  confidence: z.enum(['high', 'low']),
  basis: z.string(),
  score: z.number().int().nullable(),
  layers: z.array(z.object({ id: z.string(), score: z.number().int(), maxScore: z.number().int() })),
  states: z.record(z.string(), z.enum(['req', 'bonus', 'gated', 'emerging'])),
  gatedOut: z.array(z.object({ id: z.string(), gate: z.string() })),
})

export const essentials = z
  .object({
    score: z.number().int().nullable(),
    checks: z.record(
      z.string(),
      z.object({
        tier: z.enum(['required', 'recommended', 'signal']),
        bonus: z.boolean(),
        fraction: z.number(),
        occurrences: z.number().int(),
        essentialsGain: z.number(),
      }),
    ),
    issues: z.array(z.string()),
    scoreEvidence: z.array(z.string()),
  })
  .loose()
  .describe(
    'Alternate reading of the same scan; buckets, label copy, surface sub-scores and access signals are advisory',
  )

/** Default response shape; every field optional in the schema (spec: ScanResult). */
export const scanResult = z
  .object({
    domain: z.string(),
    url: z.string(),
    finalUrl: z.string(),
    score: z.number().int(),
    maxScore: z.number().int(),
    ...blocking,
    grade,
    analysisStatus,
    pendingChecks: z.array(z.string()),
    ctaMessage: z.string(),
    ctaTier: z.enum(['top', 'high', 'mid', 'low']),
    layers: z.array(layerResult),
    topFixes: z.array(topFix),
    scannedAt: z.string(),
    durationMs: z.number().int(),
    agenticSummary: z.string(),
    urlKind,
    mcpAuthRequired: z.boolean(),
    servedFromCache: z.literal(true),
    resultAgeSeconds: z.number().int(),
    competitors: competitorSet.nullable(),
    next_action: nextAction,
    essentials,
    siteType: siteTypeLens.nullable(),
    ...sampleFields,
  })
  .partial()

const auditCheck = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(CHECK_STATUSES),
  score: z.number().int(),
  maxScore: z.number().int(),
  estScoreGain: z.number().optional(),
  bonus: z.boolean().optional(),
  maturity: z.enum(MATURITIES).optional(),
  tier: z.enum(TIERS).optional(),
  specUrl: z.string().optional(),
  mcpKind: z.string().optional(),
  mcpUrl: z.string().optional(),
  details: z.string().optional(),
  recommendation: z.string().optional(),
  naReason: z.string().optional(),
  pages: pageVerdict.optional(),
})

const auditLayer = z.object({
  id: z.string(),
  name: z.string(),
  score: z.number().int(),
  maxScore: z.number().int(),
  ...layerShare,
  checks: z.array(auditCheck),
})

const auditCommon = {
  domain: z.string(),
  name: z.string(),
  score: z.number().int(),
  scoreMax: z.number(),
  ...blocking,
  grade: z.string(),
  gradeColor: z.string(),
  layers: z.array(auditLayer),
  topFixes: z.array(topFix),
  url: z.string().describe('Canonical deep link for the domain on this service'),
  generatedAt: z.string(),
  source: z.string(),
  contractVersion: z.string(),
  essentials: essentials.optional(),
  analysisStatus: analysisStatus.optional(),
  pendingChecks: z.array(z.string()).optional(),
  mcpAuthRequired: z.boolean().optional(),
  urlKind: urlKind.optional(),
  category: z.string().optional(),
  agenticSummary: z.string().optional(),
  finalUrl: z.string().optional(),
  nextAction: nextAction.optional(),
  competitors: competitorSet.nullable().optional(),
  ...sampleFields,
  siteType: siteTypeLens.nullable().optional(),
}

export const auditScanResult = z.object({
  ...auditCommon,
  ctaMessage: z.string().nullable(),
  scannedAt: z.string(),
  durationMs: z.number().int().nullable(),
  servedFromCache: z.literal(true).optional(),
  resultAgeSeconds: z.number().int().optional(),
})

export const auditScoreResult = z.object({
  ...auditCommon,
  scannedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
})

export const notScannedResponse = z.object({
  error: z.string(),
  code: z.literal('DOMAIN_NOT_SCANNED'),
  domain: z.string(),
  message: z.string().optional(),
  next_action: nextAction.optional(),
  nextAction: nextAction.optional(),
})

export const mcpAuthRequiredResponse = z.object({
  error: z.string(),
  code: z.literal('MCP_AUTH_REQUIRED'),
  mcpAuthRequired: z.boolean(),
  mcpUrl: z.string(),
  urlKind: z.enum(['mcp', 'mcp-app']),
  message: z.string().optional(),
})

export const runChecksBody = z.object({
  url: z.string().min(1).max(2048).describe('A bare domain is accepted'),
  checkIds: z
    .array(z.string().min(1).max(100))
    .min(1)
    .describe('Catalog ids; duplicates removed; at most the catalog size'),
  mcpUrl: z.string().max(2048).optional().describe('Pins the MCP endpoint; an empty string is treated as absent'),
})

export const runChecksResultEntry = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(['pass', 'fail', 'warning', 'na', 'error']),
  score: z.number().int(),
  maxScore: z.number().int(),
  details: z.string(),
  recommendation: z.string().optional(),
  naReason: z.string().optional(),
  mcpKind: z.enum(['product', 'docs', 'other', 'app']).optional(),
  mcpUrl: z.string().optional(),
  pages: pageVerdict
    .optional()
    .describe("A page-level check re-run on the stored multi-page scan's sampled pages (fetched again)"),
})

export const runChecksResponse = z.object({
  contractVersion: z.string(),
  domain: z.string(),
  url: z.string(),
  urlKind: z.enum(['domain', 'mcp', 'mcp-app']),
  storedScanUpdated: z.boolean(),
  storedScanNote: z
    .string()
    .optional()
    .describe(
      'With a scan key, why the stored scan was not updated: the domain has none, it is ephemeral, or it measured another target (kind, URL or pinned MCP endpoint) than this run. Absent on keyless runs and when the stored scan was updated',
    ),
  results: z.array(runChecksResultEntry),
})

export const v2ScanBody = z.object({
  url: z.string().min(1).max(2048),
  mcpUrl: z.string().max(2048).optional(),
  ephemeral: z.boolean().optional(),
})

export const v2ScanResponse = z.object({
  scanId: z.number().int(),
  status: z.string(),
  pollUrl: z.string(),
})

/** A v2 row as GET /api/v2/scan/{id} answers it. */
export const v2ScanRow = z.object({
  scanId: z.number().int(),
  status: z.string(),
  domain: z.string(),
  url: z.string(),
  urlKind: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
})

/**
 * The poll row as its route documents it: field types and required fields, without the integer bounds, date
 * pattern and closed object that the generated schemas of validated routes carry (the poll route validates nothing).
 */
export const v2ScanRowSchema = ((): Record<string, unknown> => {
  const { properties, required } = z.toJSONSchema(v2ScanRow, {
    override: ({ jsonSchema }) => {
      delete jsonSchema.minimum
      delete jsonSchema.maximum
      delete jsonSchema.pattern
    },
  })
  return { type: 'object', required, properties }
})()

export const streamQuery = z.object({
  domain: z.string().optional().describe('Domain, MCP URL or MCP App URL (required)'),
  mcp: z.string().optional(),
  maxAgeSeconds: z.coerce.number().optional(),
  force: z.string().optional(),
  ephemeral: z.string().optional(),
  pages: z.coerce.number().int().min(1).max(MAX_PAGES).optional().describe(scanBody.shape.pages.description!),
  format: z.string().optional(),
  include: commaList.optional().describe('Comma list: `siteType` (and `essentials`)'),
  siteType: siteTypeParam,
})
