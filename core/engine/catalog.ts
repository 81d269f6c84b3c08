import { CONTRACT_VERSION } from '../contract.ts'
import { type CheckMeta, LAYERS } from './contract.ts'
import { essentialsTierOf, ESSENTIALS_EXCLUDED } from './essentials.ts'
import type { CheckRegistry } from './registry.ts'

export interface CatalogCheck {
  id: string
  name: string
  description: string
  layer: string
  maxScore: number
  bonus: boolean
  applicability: CheckMeta['applicability']
  protocol?: 'rest' | 'graphql' | 'either'
  appliesTo: string[]
  tier: CheckMeta['tier']
  maturity: CheckMeta['maturity']
  draft: boolean
  beta: boolean
  specUrl?: string
  recommendation?: string
  essentialsTier?: 'required' | 'recommended' | 'signal'
  essentialsBonusOnly?: boolean
  essentialsExcluded?: boolean
}

export interface CheckCatalog {
  contractVersion: string
  layers: { id: string; name: string; weight: number }[]
  checks: CatalogCheck[]
}

/**
 * The catalog generated from the checks' own metadata, in registry order, with keys in a fixed order so that
 * the serialised document is byte-stable between check-set changes.
 */
export function buildCatalog(registry: CheckRegistry, options: { essentials: boolean }): CheckCatalog {
  return {
    contractVersion: CONTRACT_VERSION,
    layers: LAYERS.map((layer) => ({ id: layer.id, name: layer.name, weight: layer.weight })),
    checks: registry.checks.map(({ meta }) => ({
      id: meta.id,
      name: meta.name,
      description: meta.description,
      layer: meta.layer,
      maxScore: meta.maxScore,
      bonus: meta.bonus,
      applicability: meta.applicability,
      ...(meta.protocol ? { protocol: meta.protocol } : {}),
      appliesTo: [...meta.appliesTo],
      tier: meta.tier,
      maturity: meta.maturity,
      draft: meta.draft,
      beta: meta.beta,
      ...(meta.specUrl ? { specUrl: meta.specUrl } : {}),
      ...(meta.recommendation ? { recommendation: meta.recommendation } : {}),
      ...(options.essentials
        ? {
            essentialsTier: essentialsTierOf(meta),
            essentialsBonusOnly: meta.bonus || meta.tier === 'emerging',
            essentialsExcluded: ESSENTIALS_EXCLUDED.has(meta.id),
          }
        : {}),
    })),
  }
}
