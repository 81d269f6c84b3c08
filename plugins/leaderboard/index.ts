import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { leaderboardQuery, leaderboardResponse, statsResponse } from './model.ts'
import { type Leaderboard, leaderboardPage, publishedStats } from './service.ts'
import { errorResponse } from '../../core/errors.ts'
import { wire } from '../../core/openapi.ts'
import { describeIpLimit } from '../../core/limits.ts'
import { LEADERBOARD_LIMITS } from './limits.ts'
import { cacheLifetime, publicCache } from '../../core/caching.ts'

/** Both reads change only when a scan completes; five minutes of staleness is fine for a public ranking. */
const CACHE_SECONDS = 300
const CACHE_CONTROL = publicCache(CACHE_SECONDS)

type LeaderboardNeeds = Pick<KernelPieces, 'context' | 'database'>

export function leaderboardPlugin({ context, database, leaderboard }: LeaderboardNeeds & { leaderboard: Leaderboard }) {
  const { db } = database
  return new Elysia({ name: 'leaderboard' })
    .use(context)
    .get(
      '/api/leaderboard',
      async ({ query, set }) => {
        const page = await leaderboard(query)
        set.headers['cache-control'] = CACHE_CONTROL
        return page
      },
      {
        limit: LEADERBOARD_LIMITS.openRead,
        query: leaderboardQuery,
        response: { 200: leaderboardResponse, 400: errorResponse, 429: errorResponse, 500: errorResponse },
        detail: {
          ...wire({ answers: { 200: ['Cache-Control'] } }),
          tags: ['Leaderboard'],
          summary: 'Ranked domains by agent-readiness score',
          description: `One row per domain (its latest complete scan), ranked by score descending then domain, optionally within one market category and/or scan kind; \`rank\` is the position among the filtered rows. Ephemeral results and auth-required MCP markers are never ranked. Paged with \`page\` and \`pageSize\` (1-100, default 20). 400 on an unknown category or kind or an out-of-range page. Cached ${cacheLifetime(CACHE_SECONDS)}. ${describeIpLimit(LEADERBOARD_LIMITS.openRead)}, shared with /api/stats.`,
        },
      },
    )
    .get(
      '/api/stats',
      async ({ set }) => {
        const stats = await publishedStats(db)
        set.headers['cache-control'] = CACHE_CONTROL
        return stats
      },
      {
        limit: LEADERBOARD_LIMITS.openRead,
        response: { 200: statsResponse, 429: errorResponse, 500: errorResponse },
        detail: {
          ...wire({ answers: { 200: ['Cache-Control'] } }),
          tags: ['Leaderboard'],
          summary: 'Coverage and research statistics',
          description: `Coverage counts (domains by kind and by market category), the grade distribution, the mean score and per-check result counts with pass rates, all over the latest complete scan of every domain. Ephemeral results and auth-required MCP markers are excluded. Cached ${cacheLifetime(CACHE_SECONDS)}. ${describeIpLimit(LEADERBOARD_LIMITS.openRead)}, shared with /api/leaderboard.`,
        },
      },
    )
}

export const leaderboardFeature = defineFeature<LeaderboardNeeds, { leaderboard: Leaderboard }>()({
  name: 'leaderboard',
  needs: ['context', 'database'],
  provides: ['leaderboard'],
  limits: LEADERBOARD_LIMITS,
  provide: ({ database }) => ({ leaderboard: (query) => leaderboardPage(database.db, query) }),
  routes: leaderboardPlugin,
})
