import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { discoverQuery, discoverResponse } from './model.ts'
import { type Discover, discover } from './service.ts'
import { errorResponse } from '../../core/errors.ts'
import { wire } from '../../core/openapi.ts'
import { describeIpLimit } from '../../core/limits.ts'
import { LEADERBOARD_LIMITS } from '../leaderboard/public.ts'
import { cacheLifetime, publicCache } from '../../core/caching.ts'

/** Answers change only when a scan completes. */
const CACHE_SECONDS = 300

type DiscoverNeeds = Pick<KernelPieces, 'context' | 'database' | 'store' | 'log'>

export function discoverPlugin({ context, discover }: Pick<DiscoverNeeds, 'context'> & { discover: Discover }) {
  return new Elysia({ name: 'discover' }).use(context).get(
    '/api/discover',
    async ({ query, set }) => {
      const answer = await discover(query)
      set.headers['cache-control'] = publicCache(CACHE_SECONDS)
      return answer
    },
    {
      limit: LEADERBOARD_LIMITS.openRead,
      query: discoverQuery,
      response: { 200: discoverResponse, 400: errorResponse, 429: errorResponse, 500: errorResponse },
      detail: {
        ...wire({ answers: { 200: ['Cache-Control'] } }),
        tags: ['Discover'],
        summary: 'Find agent-ready products for an intent',
        description: `Full-text search (English stemming) of the scanned products for a free-text \`intent\`: their name, market category and tags, what they say about themselves (title, descriptions, Open Graph, structured data of the organization, products and offers, headings, llms.txt summary) and the scan's description. A plain list of words matches entries with any of them, each word through itself, its synonyms ("apparel" finds clothing), the market categories it names ("store", "gear") and, for a word no product contains, its trigram near misses ("backpaks"); websearch syntax ("phrase", -exclude, or) is taken as written. Ranked by \`matchScore\` x (0.6 + 0.4 x score/100). \`limit\` 1-50 (default 10). 400 \`VALIDATION_FAILED\` without \`intent\`. Cached ${cacheLifetime(CACHE_SECONDS)}. ${describeIpLimit(LEADERBOARD_LIMITS.openRead)}, shared with the other open reads.`,
      },
    },
  )
}

export const discoverFeature = defineFeature<DiscoverNeeds, { discover: Discover }>()({
  name: 'discover',
  needs: ['context', 'database', 'store', 'log'],
  provides: ['discover'],
  provide: (deps) => ({ discover: (query) => discover(deps, query) }),
  routes: discoverPlugin,
})
