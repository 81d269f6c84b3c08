import { describe, expect, test } from 'bun:test'
import type { CheckStatus, Tier } from './check.ts'
import { computeEssentials, type EssentialsMeta } from './essentials.ts'
import { type CheckResult, type LayerResult, pointsFor } from './scoring.ts'

function result(
  id: string,
  tier: Tier,
  status: CheckStatus,
  options: { bonus?: boolean; maxScore?: number; fraction?: number } = {},
): CheckResult {
  const maxScore = options.maxScore ?? 10
  return {
    id,
    name: id,
    description: id,
    status,
    score: pointsFor(status, maxScore, options.fraction),
    maxScore,
    details: '',
    bonus: options.bonus ?? false,
    maturity: tier === 'emerging' ? 'emerging' : 'verified',
    tier,
    ...(options.fraction !== undefined ? { fraction: options.fraction } : {}),
  }
}

const layer = (checks: CheckResult[]): LayerResult[] => [
  { id: 'discovery', name: 'Discovery', description: '', checks, score: 0, maxScore: 0 },
]
const metas = new Map<string, EssentialsMeta>()

describe('essentials', () => {
  test('required share 80, recommended 20', () => {
    const essentials = computeEssentials(
      layer([
        result('req-a', 'required', 'pass'),
        result('req-b', 'required', 'fail'),
        result('rec', 'recommended', 'pass'),
      ]),
      metas,
    )
    expect(essentials.required.points).toBe(80)
    expect(essentials.recommended.points).toBe(20)
    expect(essentials.score).toBe(60)
    expect(essentials.checks['req-b']).toEqual({
      tier: 'required',
      bonus: false,
      fraction: 0,
      occurrences: 1,
      essentialsGain: 40,
    })
    expect(essentials.issues).toEqual(['req-b'])
    expect(essentials.scoreEvidence).toEqual(['req-a', 'rec'])
    expect(essentials.label.headline).toContain('1 required basic missing')
  })

  test('forward-looking signals only add, capped', () => {
    const base = [result('req', 'required', 'warning'), result('rec', 'recommended', 'pass')]
    const without = computeEssentials(layer(base), metas).score!
    const withFailedSignal = computeEssentials(layer([...base, result('sig', 'emerging', 'fail')]), metas).score!
    const withSignals = computeEssentials(
      layer([
        ...base,
        ...Array.from({ length: 8 }, (_, i) => result(`sig-${i}`, 'recommended', 'pass', { bonus: true })),
      ]),
      metas,
    )
    expect(withFailedSignal).toBe(without)
    expect(withSignals.score).toBe(without + 10)
    expect(withSignals.signals.earned).toBe(10)
  })

  test('a check its metadata excludes never enters the model, yet still answers its access flag', () => {
    const policy = new Map<string, EssentialsMeta>([
      ['policy', { surface: 'web', essentialsExcluded: true, essentialsAccess: 'agentsAllowed' }],
    ])
    const essentials = computeEssentials(
      layer([result('policy', 'required', 'fail'), result('req', 'required', 'pass')]),
      policy,
    )
    expect(essentials.score).toBe(100)
    expect(essentials.checks.policy).toBeUndefined()
    expect(essentials.access).toEqual({ agentsAllowed: false, unchallenged: null, readableWithoutJs: null })
  })

  test('each surface is scored from the checks whose metadata names it', () => {
    const surfaces = new Map<string, EssentialsMeta>([
      ['oauth', { surface: 'api', essentialsExcluded: false }],
      ['tools', { surface: 'mcp', essentialsExcluded: false }],
    ])
    const essentials = computeEssentials(
      layer([
        result('oauth', 'required', 'fail'),
        result('tools', 'required', 'pass'),
        result('page', 'required', 'pass'),
      ]),
      surfaces,
    )
    expect(essentials.surfaces).toEqual({ web: 100, api: 0, mcp: 100 })
  })

  test('nothing measured is a null score', () => {
    expect(computeEssentials(layer([result('x', 'required', 'na')]), metas).score).toBeNull()
  })
})
