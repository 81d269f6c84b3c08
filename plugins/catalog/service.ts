import { buildCatalog } from '../../core/engine/catalog.ts'
import type { CheckRegistry } from '../../core/engine/registry.ts'
import { type Serialized, serialize } from '../../core/etag.ts'
import { listValues } from '../../core/query.ts'

/** Serialises both catalog variants once: the bytes only change when the check set does. */
export function serializeCatalogs(registry: CheckRegistry): { plain: Serialized; essentials: Serialized } {
  return {
    plain: serialize(buildCatalog(registry, { essentials: false })),
    essentials: serialize(buildCatalog(registry, { essentials: true })),
  }
}

export function wantsEssentials(include: string | string[] | undefined): boolean {
  return listValues(include).has('essentials')
}
