import { createHash } from 'node:crypto'
import { buildCatalog } from '../../core/engine/catalog.ts'
import type { CheckRegistry } from '../../core/engine/registry.ts'
import { listValues } from '../../core/query.ts'

export interface SerializedCatalog {
  body: string
  etag: string
}

/** Serialises both catalog variants once: the bytes only change when the check set does. */
export function serializeCatalogs(registry: CheckRegistry): { plain: SerializedCatalog; essentials: SerializedCatalog } {
  const serialize = (essentials: boolean): SerializedCatalog => {
    const body = JSON.stringify(buildCatalog(registry, { essentials }))
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }
  }
  return { plain: serialize(false), essentials: serialize(true) }
}

export function wantsEssentials(include: string | string[] | undefined): boolean {
  return listValues(include).has('essentials')
}
