import type { CheckMeta, LayerId } from './check.ts'
import { SITE_TYPES, type SiteClassification, type SiteType } from './collectors/site-classification.ts'
import { type LayerResult, rescore, type ScoringCatalog, UnknownCheckError } from './scoring.ts'

/**
 * The siteType lens (`include=siteType`, experimental): the same results re-scored with a rubric for the kind
 * of site. A blog is not marked down for having no checkout, a store is not required to publish an API. The
 * canonical score never changes; a site-type score is only comparable with another of the same type.
 */

export type CheckState = 'req' | 'bonus' | 'gated' | 'emerging'

export interface SiteTypeLens {
  type: SiteType | null
  source: 'declared' | 'self-declared' | 'classified' | 'default' | 'blocked' | 'unavailable'
  confidence: 'high' | 'low'
  basis: string
  score: number | null
  layers: { id: LayerId; score: number; maxScore: number }[]
  states: Record<string, CheckState>
  gatedOut: { id: string; gate: string }[]
}

type Rule = { state: 'gated'; gate: string } | { state: 'bonus' }
/** What a rubric reads of a check; every rule is stated in metadata, never in check ids. */
export type SiteTypeMeta = Pick<CheckMeta, 'layer' | 'surface' | 'siteTypeRole' | 'beta'> &
  Partial<Pick<CheckMeta, 'stopsAgents'>>
type Rubric = (meta: SiteTypeMeta) => Rule | null

/** Payments checks beyond showing a price: a checkout, a payment protocol, product markup. */
const sellsOnline = (meta: SiteTypeMeta) => meta.layer === 'payments' && meta.siteTypeRole !== 'pricing'

const RUBRICS: Record<SiteType, Rubric> = {
  // Content sites sell nothing and expose no API: those checks are out of scope, MCP is a nice extra.
  content: (meta) =>
    meta.layer === 'payments'
      ? { state: 'gated', gate: 'content sites do not sell' }
      : meta.surface === 'api'
        ? { state: 'gated', gate: 'content sites need no API' }
        : meta.siteTypeRole === 'mcp-entry-point'
          ? { state: 'bonus' }
          : null,
  // Businesses show pricing but rarely check out online; an API is welcome, not expected.
  business: (meta) =>
    sellsOnline(meta)
      ? { state: 'gated', gate: 'businesses rarely sell through a checkout' }
      : meta.surface === 'api'
        ? { state: 'bonus' }
        : null,
  // Apps are judged on their API and MCP surface; product markup does not apply, payments protocols are extras.
  app: (meta) =>
    meta.siteTypeRole === 'product-listing'
      ? { state: 'gated', gate: 'apps have plans, not products' }
      : sellsOnline(meta)
        ? { state: 'bonus' }
        : null,
  // Stores are judged on commerce; an API is an extra.
  store: (meta) => (meta.surface === 'api' ? { state: 'bonus' } : null),
}

export function parseSiteType(value: string | undefined | null): SiteType | null {
  const normalized = value?.trim().toLowerCase()
  return normalized && (SITE_TYPES as readonly string[]).includes(normalized) ? (normalized as SiteType) : null
}

const UNAVAILABLE = (basis: string): SiteTypeLens => ({
  type: null,
  source: 'unavailable',
  confidence: 'low',
  basis,
  score: null,
  layers: [],
  states: {},
  gatedOut: [],
})

/** What the site type's rubric makes of each check of the report: gated out (and why), or counted as a bonus. */
function rulesOf(layers: LayerResult[], type: SiteType, catalog: ScoringCatalog<SiteTypeMeta>): Map<string, Rule> {
  const rubric = RUBRICS[type]
  const rules = new Map<string, Rule>()
  for (const result of layers.flatMap((layer) => layer.checks)) {
    const meta = catalog.get(result.id)?.meta
    if (!meta) throw new UnknownCheckError(result.id)
    const rule = rubric(meta)
    if (rule) rules.set(result.id, rule)
  }
  return rules
}

/** The checks of a report that a site of this type is not judged on, each with the reason. */
export function siteTypeGates(
  layers: LayerResult[],
  type: SiteType,
  catalog: ScoringCatalog<SiteTypeMeta>,
): Map<string, string> {
  return new Map(
    [...rulesOf(layers, type, catalog)].flatMap(([id, rule]) => (rule.state === 'gated' ? [[id, rule.gate]] : [])),
  )
}

export function siteTypeLens(input: {
  layers: LayerResult[]
  classification: SiteClassification | null
  /** A type the caller declared (query `siteType`); an unrecognised value was already ignored. */
  declared: SiteType | null
  catalog: ScoringCatalog<SiteTypeMeta>
}): SiteTypeLens | null {
  const results = input.layers.flatMap((layer) => layer.checks)
  const scorable = results.some(
    (result) => result.status === 'pass' || result.status === 'warning' || result.status === 'fail',
  )
  // The spec's null: a scan with no layers to score has no site-type reading at all.
  if (!scorable) return null
  const classification = input.classification
  const resolved: Pick<SiteTypeLens, 'type' | 'source' | 'confidence' | 'basis'> | null = input.declared
    ? {
        type: input.declared,
        source: 'declared',
        confidence: 'high',
        basis: `the caller declared siteType=${input.declared}`,
      }
    : classification
  if (!resolved || resolved.type === null) return UNAVAILABLE(resolved?.basis ?? 'the site was not classified')
  const rules = rulesOf(input.layers, resolved.type, input.catalog)
  const states: Record<string, CheckState> = {}
  const gatedOut: { id: string; gate: string }[] = []
  for (const result of results) {
    const rule = rules.get(result.id)
    if (rule?.state === 'gated') {
      states[result.id] = 'gated'
      gatedOut.push({ id: result.id, gate: rule.gate })
    } else {
      const asBonus = rule?.state === 'bonus' || result.bonus
      states[result.id] = result.maturity === 'emerging' ? 'emerging' : asBonus ? 'bonus' : 'req'
    }
  }
  // A block of agents holds down every reading of the score, this lens included.
  const card = rescore(
    { layers: input.layers },
    { kind: 'site-type', rules: new Map([...rules].map(([id, rule]) => [id, rule.state])) },
    input.catalog,
  )
  return {
    ...resolved,
    score: card.score,
    layers: card.layers.map((layer) => ({ id: layer.id, score: layer.score, maxScore: layer.maxScore })),
    states,
    gatedOut,
  }
}
