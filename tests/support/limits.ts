import { FEATURES } from '../../app/feature-list.ts'
import type { Limit } from '../../core/limits.ts'

/** Every limit the service's features declare, by name: the name /openapi.json's `x-rate-limit` and 429s give. */
export const SERVICE_LIMITS: ReadonlyMap<string, Limit> = new Map(
  FEATURES.flatMap((feature) => Object.values(feature.limits ?? {})).map((limit) => [limit.name, limit]),
)

/** The service's limit of that name; a name no feature declares is a mistake of the test. */
export function serviceLimit(name: string): Limit {
  const limit = SERVICE_LIMITS.get(name)
  if (!limit) throw new Error(`No feature declares a limit named "${name}"`)
  return limit
}
