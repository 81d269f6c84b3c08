import { z } from 'zod'
import type { CheckResult } from '../../core/engine/scoring.ts'
import { CATEGORY_SLUGS } from '../../core/engine/lib/categories.ts'
import { LAYER_IDS, SCAN_KINDS, TIERS } from '../../core/engine/check.ts'

/** The home page's form (url-encoded): one field takes a domain, an MCP server URL or an MCP App URL. */
export const scanForm = z.object({
  url: z.string().trim().min(1).max(2048),
  /** Set by a report's "Scan again": a fresh scan, not the stored result (forced scans have their own budget). */
  force: z.literal('1').optional(),
  /** Set by an MCP report's "Scan again": the MCP endpoint its result measured, pinned so the same server is rescanned. */
  mcpUrl: z.string().trim().max(2048).optional(),
})

/**
 * The journeys page's form: a curated intent against a domain, by a public agent, optionally compared with a plain
 * browser (a checkbox: present when ticked). Free text needs a partner key and is not offered here.
 */
export const journeyForm = z.object({
  domain: z.string().trim().min(1).max(253),
  intent: z.string().min(1).max(100),
  agent: z.string().min(1).max(100).optional(),
  compare: z.literal('1').optional(),
})

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

/** How a check counts: toward the score, or as a bonus extra that never lowers it. */
export const CHECK_SCORING = ['scored', 'bonus'] as const

/** The catalog page's filters (a plain GET form): free text, then layer, tier, target kind and scoring. */
export const checksPageQuery = z.object({
  q: z.string().max(200).optional(),
  layer: z.preprocess(emptyAsAbsent, z.enum(LAYER_IDS).optional()),
  tier: z.preprocess(emptyAsAbsent, z.enum(TIERS).optional()),
  kind: z.preprocess(emptyAsAbsent, z.enum(SCAN_KINDS).optional()),
  scoring: z.preprocess(emptyAsAbsent, z.enum(CHECK_SCORING).optional()),
})
export type ChecksPageQuery = z.infer<typeof checksPageQuery>

/**
 * What a re-check leaves for the report to show after the redirect: the new results themselves, so that a result
 * that was not saved (no scan key) can still be shown in place, re-scored, and said to be unsaved.
 */
export interface RecheckOutcome {
  checkId: string
  /** The report's target key: a re-check is shown only on the report it was made from. */
  target: string
  results: CheckResult[]
  storedScanUpdated: boolean
}
