import { AppError } from '../errors.ts'
import type { KeyService } from '../keys/service.ts'
import type { Caller } from '../limits.ts'
import type { Outage } from '../outage.ts'

/** After a failed key lookup, keyed requests skip the database this long instead of each waiting on it again. */
const KEY_LOOKUP_BACKOFF_MS = 1000

export const databaseUnavailable = (cause?: unknown) =>
  new AppError('DATABASE_UNAVAILABLE', { message: 'The database is unavailable; try again shortly', cause })

/**
 * An unrecognised or revoked bearer token is never an error: the caller is anonymous (spec, Authentication 1).
 * Neither is a key lookup that fails: the caller is then anonymous and `unresolved`, so that a keyed request to a
 * route that needs no database (health, catalog) still works while the database is down.
 */
export async function resolveCaller(
  keys: Pick<KeyService, 'resolve'>,
  outage: Outage,
  request: Request,
  ip: string,
): Promise<{ caller: Caller; unresolved: boolean }> {
  const anonymous: Caller = { kind: 'anonymous', ip }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')
  if (!match) return { caller: anonymous, unresolved: false }
  if (outage.failedWithin(KEY_LOOKUP_BACKOFF_MS)) return { caller: anonymous, unresolved: true }
  let key: Awaited<ReturnType<KeyService['resolve']>>
  try {
    key = await keys.resolve(match[1]!)
  } catch (error) {
    outage.failed(error)
    return { caller: anonymous, unresolved: true }
  }
  outage.succeeded()
  return {
    caller: key ? { kind: 'key', ip, keyId: key.id, tier: key.tier, label: key.label } : anonymous,
    unresolved: false,
  }
}
