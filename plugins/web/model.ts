import { z } from 'zod'
import { CATEGORY_SLUGS } from '../../core/engine/lib/categories.ts'
import { SCAN_KINDS } from '../../core/engine/contract.ts'

/** The home page's form (url-encoded): one field takes a domain, an MCP server URL or an MCP App URL. */
export const scanForm = z.object({ url: z.string().trim().min(1).max(2048) })

/** The journeys page's form: a curated intent against a domain (free text needs a partner key; not offered here). */
export const journeyForm = z.object({ domain: z.string().trim().min(1).max(253), intent: z.string().min(1).max(100) })

/** A report's per-check re-check button. */
export const recheckForm = z.object({ checkId: z.string().min(1).max(100) })

/** The id the re-check route hands back to the report through the redirect. */
export const recheckToken = z.uuid()

/**
 * Leaderboard filters from a plain GET form: an empty select means "all", so empty strings are absent here
 * (the JSON API would refuse them).
 */
const emptyAsAbsent = (value: unknown) => (value === '' ? undefined : value)
export const leaderboardPageQuery = z.object({
  category: z.preprocess(emptyAsAbsent, z.enum(CATEGORY_SLUGS).optional()),
  kind: z.preprocess(emptyAsAbsent, z.enum(SCAN_KINDS).optional()),
  page: z.preprocess(emptyAsAbsent, z.coerce.number().int().min(1).max(1000).default(1)),
})

export const checksPageQuery = z.object({ q: z.string().max(200).optional() })

/** What a re-check leaves for the report to show after the redirect. */
export interface RecheckOutcome {
  checkId: string
  results: { name: string; status: string; details: string; recommendation?: string; mcpUrl?: string }[]
  storedScanUpdated: boolean
}
