import { createHash } from 'node:crypto'
import { and, asc, count, desc, isNotNull, sql } from 'drizzle-orm'
import type { Kernel } from '../../core/kernel.ts'
import { readinessFactor } from '../ard/text-match.ts'
import { ardEntries } from '../ard/tables.ts'
import { intentMatch } from './intent.ts'
import { type DiscoverQuery, type DiscoverResponse, type DiscoverResult, discoverResponse } from './model.ts'

/** The spec caches discover for 5 minutes; the same window bounds how stale a shared cached answer may be. */
export const DISCOVER_CACHE_MS = 5 * 60 * 1000

const cachedAnswer = discoverResponse.omit({ intent: true })
type Answer = Omit<DiscoverResponse, 'intent'>

export type DiscoverDeps = Pick<Kernel, 'database' | 'store' | 'log'>

/** The discover feature's piece: what the route and the MCP tool answer. */
export type Discover = (query: DiscoverQuery) => Promise<DiscoverResponse>

/**
 * Index entries matching the intent, ranked by relevance and readiness, through a cache shared by every instance
 * (the store). The key is the intent with its whitespace collapsed and the limit; the answer echoes the caller's
 * own intent.
 */
export async function discover(deps: DiscoverDeps, query: DiscoverQuery): Promise<DiscoverResponse> {
  const key = `discover:v2:${createHash('sha256')
    .update(JSON.stringify([query.intent.replace(/\s+/g, ' '), query.limit]))
    .digest('base64url')}`
  const cached = await readCached(deps, key)
  if (cached) return { intent: query.intent, ...cached }
  const answer = await rankByIntent(deps.database.db, query)
  // The cache is loseable: a store outage costs a database query, never the answer.
  await deps.store.set(key, JSON.stringify(answer), DISCOVER_CACHE_MS).catch((error: unknown) => {
    deps.log.warn({ err: error }, 'discover cache unavailable')
  })
  return { intent: query.intent, ...answer }
}

async function readCached(deps: DiscoverDeps, key: string): Promise<Answer | null> {
  try {
    const raw = await deps.store.get(key)
    if (raw === null) return null
    const parsed = cachedAnswer.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch (error) {
    deps.log.warn({ err: error }, 'discover cache unavailable')
    return null
  }
}

/**
 * rank = matchScore x (0.6 + 0.4 x score/100), then domain: the same readiness factor as ARD search. Readiness
 * moves an entry by at most 40% (0.6 for a score of 0, 1.0 for 100): it breaks near-ties and lifts well-built
 * sites, while an entry at least 1/0.6 times as relevant always stays ahead. matchScore is intentMatch's relevance
 * (credit-weighted coverage of the intent's words x (1 + normalised ts_rank_cd) / 2, 0..1; ./intent.ts).
 */
async function rankByIntent(db: DiscoverDeps['database']['db'], query: DiscoverQuery): Promise<Answer> {
  const { where: matches, relevance: matchScore } = intentMatch(query.intent)
  // Every indexed entry has a score today; the condition keeps an unscored one out rather than inventing an F.
  const where = and(matches, isNotNull(ardEntries.score), isNotNull(ardEntries.grade))
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        domain: ardEntries.domain,
        name: ardEntries.displayName,
        category: ardEntries.category,
        score: ardEntries.score,
        grade: ardEntries.grade,
        tags: ardEntries.tags,
        matchScore,
      })
      .from(ardEntries)
      .where(where)
      .orderBy(desc(sql`${matchScore} * ${readinessFactor}`), asc(ardEntries.domain))
      .limit(query.limit),
    db.select({ total: count() }).from(ardEntries).where(where),
  ])
  return {
    results: rows.map(
      (row): DiscoverResult => ({
        domain: row.domain,
        name: row.name,
        category: row.category ?? 'unclassified',
        score: row.score!,
        grade: (row.grade === 'A+' ? 'A' : row.grade) as DiscoverResult['grade'],
        tags: row.tags,
        matchScore: Math.round(Number(row.matchScore) * 10_000) / 10_000,
      }),
    ),
    total: counted?.total ?? 0,
  }
}
