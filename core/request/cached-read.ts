import { status } from 'elysia'
import type { ReadCache } from '../read-cache.ts'

/**
 * The `cachedRead` macro: `cachedRead: true` answers a request target the route has already rendered (see
 * ReadCache) before its query is parsed or validated. Declare it after `limit`: macros apply in the order a route
 * lists them, and a cached answer must spend the limit like any other.
 */
export function cachedReadMacro(readCache: Pick<ReadCache, 'respond'>) {
  const serveCached = ({ request, requestId }: { request: Request; requestId?: string }) => {
    const response = readCache.respond(request, { 'x-request-id': requestId ?? '' })
    return response ? status(200, response) : undefined
  }
  // A status response returned from a transform is the answer (derive relies on this), though Elysia types
  // transforms as void; mapResponse hooks do not run for it, hence the request id above.
  return { transform: serveCached as (context: { request: Request; requestId?: string }) => void }
}
