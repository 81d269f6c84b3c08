import type { DocumentDecoration } from 'elysia'
import { AppError } from '../errors.ts'
import {
  type Caller,
  consume,
  LIMITS,
  type LimitName,
  type LimitSpec,
  rateLimitHeaders,
  retryAfterSeconds,
} from '../limits.ts'
import type { Store } from '../store/types.ts'
import { databaseUnavailable } from './caller.ts'

/** Limits whose count or exemption depends on who the key is: they cannot be decided for an unresolved key. */
function dependsOnKey(name: LimitName): boolean {
  const spec = LIMITS[name]
  return spec.per === 'key' || spec.exempt.length > 0
}

/**
 * A request's `enforceLimit`: spends one unit of a named limit for this caller; throws the spec's 429 when it is
 * exhausted. `unresolved`: the caller's key could not be looked up (database down).
 */
export function limitEnforcer(store: Store, caller: Caller, unresolved: boolean) {
  return async (name: LimitName, subject?: string) => {
    if (unresolved && dependsOnKey(name)) throw databaseUnavailable()
    // An unreachable store admits the request inside consume (limits fail open; core/limits.ts).
    const decision = await consume(store, name, caller, subject)
    if (!decision.allowed) {
      throw new AppError('RATE_LIMIT_EXCEEDED', {
        message: `Rate limit "${name}" exceeded: ${decision.limit} per ${Math.round(decision.windowMs / 1000)} s`,
        retryAfterSeconds: retryAfterSeconds(decision),
        durableRetry: decision.durable,
        ...((LIMITS[name] as LimitSpec).rateHeaders ? { headers: rateLimitHeaders(decision) } : {}),
      })
    }
    return decision
  }
}

/**
 * The `limit` macro: `limit: 'scanBurst'` on a route spends one unit of that limit before the request is
 * validated, so that malformed requests count against the caller's burst like any other.
 */
export function limitMacro(name: LimitName) {
  return {
    // Read by the docs plugin (core/openapi.ts completeDocument): the route documents this limit's 429.
    detail: { 'x-rate-limit': name } as DocumentDecoration,
    async transform(context: { enforceLimit?: (name: LimitName) => Promise<unknown> }) {
      await context.enforceLimit!(name)
    },
  }
}
