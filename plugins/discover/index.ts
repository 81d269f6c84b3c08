import { Elysia } from 'elysia'
import type { Root } from '../../core/root.ts'
import { discoverQuery, discoverResponse } from './model.ts'
import { discover } from './service.ts'
import { errorResponse } from '../../core/errors.ts'

export function discoverPlugin({ deps, context }: Root) {
  return new Elysia({ name: 'discover' }).use(context).get(
    '/api/discover',
    async ({ query, set }) => {
      const answer = await discover(deps, query)
      set.headers['cache-control'] = 'public, max-age=300'
      return answer
    },
    {
      limit: 'openRead',
      query: discoverQuery,
      response: { 200: discoverResponse, 400: errorResponse, 429: errorResponse, 500: errorResponse },
      detail: {
        tags: ['Discover'],
        summary: 'Find agent-ready products for an intent',
        description:
          'Full-text search of the scanned domains (name, category, tags, description, representative queries) for a free-text `intent`, ranked by `matchScore` x (0.6 + 0.4 x score/100). A plain list of words matches entries with any of them; websearch syntax ("phrase", -exclude, or) is honoured. `limit` 1-50 (default 10). 400 `VALIDATION_FAILED` without `intent`. Cached 5 minutes. 60 requests per minute per IP, shared with the other open reads.',
      },
    },
  )
}
