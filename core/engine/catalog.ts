import { z } from 'zod'
import { CONTRACT_VERSION } from '../version.ts'
import { LAYER_IDS, LAYERS, publishedMetaSchema } from './check.ts'
import { ESSENTIALS_TIERS, essentialsTierOf } from './essentials.ts'
import type { CheckRegistry } from './registry.ts'

/**
 * One catalog entry: the published metadata plus, with `include=essentials`, how the essentials reading treats
 * the check. The builder, the route model and the OpenAPI description all use this schema.
 */
export const catalogCheckSchema = publishedMetaSchema.extend({
  essentialsTier: z.enum(ESSENTIALS_TIERS).optional(),
  essentialsBonusOnly: z.boolean().optional(),
  essentialsExcluded: z.boolean().optional(),
})
export type CatalogCheck = z.infer<typeof catalogCheckSchema>

export const checkCatalogSchema = z.object({
  contractVersion: z.string(),
  layers: z.array(z.object({ id: z.enum(LAYER_IDS), name: z.string(), weight: z.number() })),
  checks: z.array(catalogCheckSchema).describe('Order is not contractual; key by id'),
})
export type CheckCatalog = z.infer<typeof checkCatalogSchema>

/**
 * The catalog generated from the checks' own metadata, in registry order. Parsing through the published schema
 * drops the internal metadata fields and emits keys in schema order, so the serialised document is byte-stable
 * between check-set changes.
 */
export function buildCatalog(registry: CheckRegistry, options: { essentials: boolean }): CheckCatalog {
  return {
    contractVersion: CONTRACT_VERSION,
    layers: LAYERS.map((layer) => ({ id: layer.id, name: layer.name, weight: layer.weight })),
    checks: registry.checks.map(({ meta }) => ({
      ...publishedMetaSchema.parse(meta),
      ...(options.essentials
        ? {
            essentialsTier: essentialsTierOf(meta),
            essentialsBonusOnly: meta.bonus || meta.tier === 'emerging',
            essentialsExcluded: meta.essentialsExcluded,
          }
        : {}),
    })),
  }
}
