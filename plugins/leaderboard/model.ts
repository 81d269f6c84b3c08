import { z } from 'zod'
import { SCAN_KINDS } from '../../core/engine/check.ts'
import { CATEGORY_SLUGS } from '../../core/engine/lib/categories.ts'
import { competitor } from '../scan/public.ts'

export const MAX_PAGE_SIZE = 100
export const DEFAULT_PAGE_SIZE = 20
/** Deep offsets cost the database a full sort for nothing a person reads; 1000 pages of 100 is plenty. */
export const MAX_PAGE = 1000

const grade = competitor.shape.grade
const urlKind = z.enum(SCAN_KINDS)

export const leaderboardQuery = z.object({
  category: z
    .enum(CATEGORY_SLUGS)
    .optional()
    .describe(`Only this market category: ${CATEGORY_SLUGS.join(', ')}`),
  kind: urlKind.optional().describe('Only this scan kind'),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1).describe(`1-based page number, at most ${MAX_PAGE}`),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Rows per page, 1-${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}`),
})

export type LeaderboardQuery = z.infer<typeof leaderboardQuery>

export const leaderboardEntry = z.object({
  rank: z
    .number()
    .int()
    .describe('1-based position among the rows matching the filters (score descending, then domain)'),
  domain: z.string(),
  name: z.string().describe('Display name from the scan; the domain when none was found'),
  category: z.string().nullable().describe('Market category slug; null when unclassified'),
  score: z.number().int().describe('0-100'),
  grade,
  urlKind,
  scannedAt: z.string().describe('When the ranked scan ran (ISO 8601)'),
  target: z
    .string()
    .describe(
      'What was ranked, as a person names it: the host (with its port when not the default) of a website, the URL of an MCP server',
    ),
  report: z
    .string()
    .describe(
      "Path of this target's report page on this service: /site/{host} for a website, /mcp/{URL-encoded MCP URL} for an MCP server",
    ),
})

export const leaderboardResponse = z
  .object({
    items: z.array(leaderboardEntry),
    total: z.number().int().describe('Rows matching the filters, across all pages'),
    page: z.number().int(),
    pageSize: z.number().int(),
    nextPage: z.number().int().nullable().describe('The following page number; null on the last page'),
    category: z.enum(CATEGORY_SLUGS).nullable().describe('The category filter applied, if any'),
    kind: urlKind.nullable().describe('The kind filter applied, if any'),
  })
  .describe(
    "One row per report target (a website, or an MCP server): its latest complete scan, so a host's website and its MCP server are ranked side by side. Ephemeral results (tunnel, local and private addresses) and auth-required MCP markers are never ranked.",
  )

export type LeaderboardResponse = z.infer<typeof leaderboardResponse>

const count = z.number().int().min(0)

export const checkStats = z.object({
  pass: count,
  fail: count,
  warning: count,
  na: count,
  error: count,
  passRate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe(
      'pass / (pass + fail + warning), three decimals; null when the check was never measured (only na or error)',
    ),
})

export const statsResponse = z
  .object({
    generatedAt: z.string(),
    coverage: z.object({
      domains: count.describe('Domains with a complete, published scan'),
      byKind: z.record(urlKind, count).describe('Domains per scan kind'),
      byCategory: z
        .record(z.string(), count)
        .describe('Domains per market category slug; every category of the taxonomy is present, 0 when empty'),
      unclassified: count.describe('Domains without a market category'),
    }),
    grades: z.record(grade, count).describe('Domains per grade'),
    averageScore: z.number().nullable().describe('Mean score over the domains, one decimal; null when there are none'),
    checks: z
      .record(z.string(), checkStats)
      .describe(
        'Per check id, result counts over the same scans (an MCP bundle can contribute one result per server), and the pass rate',
      ),
  })
  .describe(
    'Statistics over the latest complete scan of every domain. Ephemeral results and auth-required MCP markers are excluded.',
  )

export type StatsResponse = z.infer<typeof statsResponse>
