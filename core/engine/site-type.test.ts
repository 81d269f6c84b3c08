import { describe, expect, test } from 'bun:test'
import type { CheckStatus, LayerId, Surface } from './check.ts'
import { type CheckResult, type LayerResult, pointsFor } from './scoring.ts'
import { parseSiteType, type SiteTypeMeta, siteTypeLens } from './site-type.ts'

const metas = new Map<string, SiteTypeMeta>()
const catalog = { get: (id: string) => (metas.has(id) ? { meta: metas.get(id)! } : undefined) }
const byLayer = new Map<LayerId, CheckResult[]>()

function add(
  id: string,
  layer: LayerId,
  status: CheckStatus,
  meta: { surface?: Surface; siteTypeRole?: SiteTypeMeta['siteTypeRole'] } = {},
) {
  metas.set(id, { layer, surface: meta.surface ?? 'web', siteTypeRole: meta.siteTypeRole, beta: false })
  const result: CheckResult = {
    id,
    name: id,
    description: id,
    status,
    score: pointsFor(status, 10),
    maxScore: 10,
    details: '',
    bonus: false,
    maturity: 'verified',
    tier: 'recommended',
  }
  byLayer.set(layer, [...(byLayer.get(layer) ?? []), result])
}
add('robots-txt', 'discovery', 'pass')
add('openapi-description', 'discovery', 'fail', { surface: 'api' })
add('semantic-html', 'usability', 'pass')
add('product-offer-jsonld', 'payments', 'fail', { siteTypeRole: 'product-listing' })
add('pricing-machine-readable', 'payments', 'pass', { siteTypeRole: 'pricing' })

const layers: LayerResult[] = (['discovery', 'accessibility', 'usability', 'payments'] as const).map((id) => ({
  id,
  name: id,
  description: '',
  checks: byLayer.get(id) ?? [],
  score: 0,
  maxScore: 0,
}))

describe('siteType lens', () => {
  test('content sites are not judged on payments or APIs', () => {
    const lens = siteTypeLens({ layers, classification: null, declared: 'content', catalog })!
    expect(lens).toMatchObject({ type: 'content', source: 'declared', confidence: 'high', score: 100 })
    expect(lens.gatedOut.map((gate) => gate.id).sort()).toEqual([
      'openapi-description',
      'pricing-machine-readable',
      'product-offer-jsonld',
    ])
    expect(lens.states['semantic-html']).toBe('req')
  })

  test('stores keep payments required and make APIs a bonus', () => {
    const lens = siteTypeLens({
      layers,
      classification: { type: 'store', source: 'classified', confidence: 'high', basis: 'Product markup' },
      declared: null,
      catalog,
    })!
    expect(lens.source).toBe('classified')
    expect(lens.states['openapi-description']).toBe('bonus')
    expect(lens.states['product-offer-jsonld']).toBe('req')
    expect(lens.score).toBeLessThan(100)
  })

  test('no classification and nothing declared gives the unavailable shape', () => {
    expect(siteTypeLens({ layers, classification: null, declared: null, catalog })).toEqual({
      type: null,
      source: 'unavailable',
      confidence: 'low',
      basis: expect.any(String),
      score: null,
      layers: [],
      states: {},
      gatedOut: [],
    })
  })

  test('a scan with nothing to score has no site-type reading', () => {
    const empty = layers.map((layer) => ({
      ...layer,
      checks: layer.checks.map((check) => ({ ...check, status: 'na' as const })),
    }))
    expect(siteTypeLens({ layers: empty, classification: null, declared: 'store', catalog })).toBeNull()
  })

  test('unrecognised declared values are ignored', () => {
    expect(parseSiteType('Store')).toBe('store')
    expect(parseSiteType('casino')).toBeNull()
    expect(parseSiteType(undefined)).toBeNull()
  })
})
