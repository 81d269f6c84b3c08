import { createHash } from 'node:crypto'
import type { Kernel } from '../../core/kernel.ts'
import { entriesForIntent } from '../ard/public.ts'
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

/** The index entries matching the intent, best first (the ranking is ARD's: entriesForIntent), as discover answers them. */
async function rankByIntent(db: DiscoverDeps['database']['db'], query: DiscoverQuery): Promise<Answer> {
  const { rows, total } = await entriesForIntent(db, query)
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
    total,
  }
}
