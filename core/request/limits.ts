import type { DocumentDecoration } from 'elysia'
import { AppError } from '../errors.ts'
import { type Caller, consume, type Limit, type LimitSpec, rateLimitHeaders, retryAfterSeconds } from '../limits.ts'
import type { Store } from '../store/types.ts'
import { databaseUnavailable } from './caller.ts'

/** "10 per 60 s": a limit's window as its 429 message and its route's documented 429 state it. */
function perWindow({ limit, windowMs }: Pick<LimitSpec, 'limit' | 'windowMs'>): string {
  return `${limit} per ${Math.round(windowMs / 1000)} s`
}

/** Limits whose count or exemption depends on who the key is: they cannot be decided for an unresolved key. */
function dependsOnKey(limit: Limit): boolean {
  return limit.per === 'key' || limit.exempt.length > 0
}

/**
 * A request's `enforceLimit`: spends one unit of a limit for this caller; throws the spec's 429 when it is
 * exhausted. `unresolved`: the caller's key could not be looked up (database down).
 */
export function limitEnforcer(store: Store, caller: Caller, unresolved: boolean) {
  return async (limit: Limit, subject?: string) => {
    if (unresolved && dependsOnKey(limit)) throw databaseUnavailable()
    // An unreachable store admits the request inside consume (limits fail open; core/limits.ts).
    const decision = await consume(store, limit, caller, subject)
    if (!decision.allowed) {
      throw new AppError('RATE_LIMIT_EXCEEDED', {
        message: `Rate limit "${limit.name}" exceeded: ${perWindow(decision)}`,
        retryAfterSeconds: retryAfterSeconds(decision),
        durableRetry: decision.durable,
        ...(limit.rateHeaders ? { headers: rateLimitHeaders(decision) } : {}),
      })
    }
    return decision
  }
}

/**
 * The `limit` macro: `limit: <one of the feature's limits>` on a route spends one unit of that limit before the
 * request is validated, so that malformed requests count against the caller's burst like any other.
 */
export function limitMacro(limit: Limit) {
  return {
    // Read by the docs plugin (core/openapi.ts completeDocument), which documents this limit's 429 with the window
    // and keeps only the name. Strings only: Elysia merges route details deeply, into the objects it is given.
    detail: { 'x-rate-limit': limit.name, 'x-rate-limit-window': perWindow(limit) } as DocumentDecoration,
    async transform(context: { enforceLimit?: (limit: Limit) => Promise<unknown> }) {
      await context.enforceLimit!(limit)
    },
  }
}
