import { describe, expect, test } from 'bun:test'
import type { CheckStatus, LayerId } from './check.ts'
import {
  BLOCKED_FACTOR,
  type CheckResult,
  ctaFor,
  gradeFor,
  pointsFor,
  rescore,
  score,
  type ScoredEntry,
  type ScoringMeta,
  scoreScan,
  TOP_FIXES_MAX,
  UnknownCheckError,
} from './scoring.ts'

function entry(
  id: string,
  layer: LayerId,
  status: CheckStatus,
  options: {
    maxScore?: number
    score?: number
    bonus?: boolean
    maturity?: 'verified' | 'emerging'
    beta?: boolean
    stopsAgents?: boolean
  } = {},
): ScoredEntry {
  const maxScore = options.maxScore ?? 10
  const result: CheckResult = {
    id,
    name: id,
    description: id,
    status,
    score: options.score ?? pointsFor(status, maxScore),
    maxScore,
    details: '',
    bonus: options.bonus ?? false,
    maturity: options.maturity ?? 'verified',
    tier: 'recommended',
    ...(status === 'fail' || status === 'warning' ? { recommendation: `fix ${id}` } : {}),
  }
  return { result, layer, beta: options.beta ?? false, ...(options.stopsAgents ? { stopsAgents: true } : {}) }
}

describe('grades and calls to action', () => {
  test.each([
    [100, 'A+'],
    [95, 'A+'],
    [94, 'A'],
    [86, 'A'],
    [85, 'B'],
    [70, 'B'],
    [69, 'C'],
    [48, 'C'],
    [47, 'D'],
    [28, 'D'],
    [27, 'F'],
    [0, 'F'],
  ] as const)('%d -> %s', (score, grade) => {
    expect(gradeFor(score)).toBe(grade)
  })

  test('cta tiers follow the score', () => {
    expect(ctaFor(90).ctaTier).toBe('top')
    expect(ctaFor(75).ctaTier).toBe('high')
    expect(ctaFor(50).ctaTier).toBe('mid')
    expect(ctaFor(10).ctaTier).toBe('low')
  })
})

describe('points', () => {
  test('defaults: pass full, warning half, fail none; a fraction overrides', () => {
    expect(pointsFor('pass', 10)).toBe(10)
    expect(pointsFor('warning', 10)).toBe(5)
    expect(pointsFor('fail', 10)).toBe(0)
    expect(pointsFor('fail', 8, 0.6)).toBe(5)
    expect(pointsFor('na', 10, 1)).toBe(0)
    expect(pointsFor('error', 10)).toBe(0)
  })

  test('a warning or a fail never shows the full score, however high its fraction', () => {
    // stable-selectors: 0.85 of its elements stable is a warning; 3 × 0.85 rounds to 3, which read as "WARN 3/3".
    expect(pointsFor('warning', 3, 0.85)).toBe(2)
    expect(pointsFor('fail', 3, 0.99)).toBe(2)
    expect(pointsFor('warning', 1)).toBe(0)
    expect(pointsFor('pass', 3, 0.9)).toBe(3)
  })
})

describe('scoreScan', () => {
  test('all layers passing is 100', () => {
    const card = scoreScan([
      entry('a', 'discovery', 'pass'),
      entry('b', 'accessibility', 'pass'),
      entry('c', 'usability', 'pass'),
      entry('d', 'payments', 'pass'),
    ])
    expect(card.score).toBe(100)
    expect(card.grade).toBe('A+')
    expect(card.analysisStatus).toBe('complete')
  })

  test('layer weights are applied and an empty layer drops out with re-normalisation', () => {
    // discovery 30 pass, accessibility 25 fail, usability 30 pass, payments all na -> (30 + 30) / 85
    const card = scoreScan([
      entry('a', 'discovery', 'pass'),
      entry('b', 'accessibility', 'fail'),
      entry('c', 'usability', 'pass'),
      entry('d', 'payments', 'na'),
    ])
    expect(card.score).toBe(Math.round((60 / 85) * 100))
    const payments = card.layers.find((layer) => layer.id === 'payments')!
    expect(payments).toMatchObject({ maxScore: 0, applicable: false, weight: 15, maxPoints: 0, points: 0 })
  })

  test('layer points are 0-100 points: weights re-normalised over applicable layers, summing to the score', () => {
    const card = scoreScan([
      entry('a', 'discovery', 'pass'),
      entry('a2', 'discovery', 'fail'),
      entry('b', 'accessibility', 'fail'),
      entry('c', 'usability', 'pass'),
      entry('d', 'payments', 'na'),
    ])
    const byId = Object.fromEntries(card.layers.map((layer) => [layer.id, layer]))
    // discovery weighs 30 of the 85 applicable: 35.3 points, half earned.
    expect(byId.discovery).toMatchObject({
      score: 10,
      maxScore: 20,
      weight: 30,
      maxPoints: 35.3,
      points: 17.6,
      applicable: true,
    })
    expect(byId.accessibility).toMatchObject({ weight: 25, maxPoints: 29.4, points: 0 })
    expect(byId.usability).toMatchObject({ weight: 30, maxPoints: 35.3, points: 35.3 })
    const applicable = card.layers.filter((layer) => layer.applicable)
    expect(applicable.reduce((sum, layer) => sum + layer.maxPoints!, 0)).toBeCloseTo(100, 0)
    expect(Math.round(card.layers.reduce((sum, layer) => sum + layer.points!, 0))).toBe(card.score)
    expect(card.blockFactor).toBe(1)
    expect(card.blockedBy).toEqual([])
  })

  test('na, error, pending, emerging maturity and beta never enter the denominator', () => {
    const base = [entry('a', 'discovery', 'pass')]
    const noisy = [
      ...base,
      entry('na', 'discovery', 'na'),
      entry('err', 'discovery', 'error'),
      entry('pend', 'discovery', 'pending'),
      entry('emerging', 'discovery', 'fail', { maturity: 'emerging' }),
      entry('beta', 'discovery', 'fail', { beta: true }),
    ]
    expect(scoreScan(noisy).score).toBe(scoreScan(base).score)
    expect(scoreScan(noisy).layers[0]!.maxScore).toBe(10)
    expect(scoreScan(noisy).analysisStatus).toBe('partial')
    expect(scoreScan(noisy).pendingChecks).toEqual(['pend'])
  })

  test('a bonus only ever raises the score; an unearned bonus leaves the denominator', () => {
    const without = scoreScan([entry('a', 'discovery', 'warning')])
    const unearned = scoreScan([entry('a', 'discovery', 'warning'), entry('b', 'discovery', 'fail', { bonus: true })])
    const earned = scoreScan([entry('a', 'discovery', 'warning'), entry('b', 'discovery', 'pass', { bonus: true })])
    const partial = scoreScan([entry('a', 'discovery', 'warning'), entry('b', 'discovery', 'warning', { bonus: true })])
    expect(unearned.score).toBe(without.score)
    expect(unearned.layers[0]!.maxScore).toBe(10)
    expect(earned.score).toBeGreaterThan(without.score)
    expect(partial.score).toBeGreaterThanOrEqual(without.score)
  })

  test('estScoreGain is the overall uplift of fixing the check, only on fail and warning', () => {
    const card = scoreScan([
      entry('fixme', 'discovery', 'fail'),
      entry('ok', 'discovery', 'pass'),
      entry('other', 'usability', 'pass'),
    ])
    const checks = card.layers.flatMap((layer) => layer.checks)
    // discovery 0.5 -> 1.0 at weight 30 of 60 active: +25 points
    expect(checks.find((check) => check.id === 'fixme')!.estScoreGain).toBe(25)
    expect(checks.find((check) => check.id === 'ok')!.estScoreGain).toBeUndefined()
  })

  test('topFixes: non-bonus first, then gain descending, at most 6', () => {
    const entries = [
      entry('bonus-big', 'discovery', 'fail', { bonus: true, maxScore: 50 }),
      ...Array.from({ length: 8 }, (_, index) => entry(`fix-${index}`, 'usability', 'fail', { maxScore: index + 1 })),
      entry('pass', 'usability', 'pass'),
    ]
    const card = scoreScan(entries)
    expect(card.topFixes).toHaveLength(TOP_FIXES_MAX)
    expect(card.topFixes.every((fix) => !fix.bonus)).toBe(true)
    const gains = card.topFixes.map((fix) => fix.estScoreGain)
    expect([...gains].sort((a, b) => b - a)).toEqual(gains)
    expect(card.topFixes[0]!.id).toBe('fix-7')
  })

  test('bonus fixes rank after every non-bonus fix', () => {
    const card = scoreScan([
      entry('bonus', 'discovery', 'fail', { bonus: true, maxScore: 50 }),
      entry('small', 'discovery', 'warning', { maxScore: 1 }),
    ])
    expect(card.topFixes.map((fix) => fix.id)).toEqual(['small', 'bonus'])
  })
})

describe('checks that stop agents outright', () => {
  const site = (blocker: CheckStatus, more: ScoredEntry[] = []) =>
    scoreScan([
      entry('bot-challenge-free', 'accessibility', blocker, { stopsAgents: true }),
      entry('content', 'accessibility', 'pass'),
      entry('llms-txt', 'discovery', 'pass'),
      entry('sitemap', 'discovery', 'pass'),
      entry('jsonld', 'usability', 'fail', { maxScore: 6 }),
      entry('html', 'usability', 'pass'),
      entry('mcp-advertised', 'discovery', 'fail', { bonus: true, maxScore: 8 }),
      ...more,
    ])

  test('a failing blocker multiplies the score by BLOCKED_FACTOR, so even a perfect site stays below B', () => {
    const open = site('pass')
    const blocked = site('fail')
    expect(blocked.blockedBy).toEqual(['bot-challenge-free'])
    expect(blocked.blockFactor).toBe(BLOCKED_FACTOR)
    const raw = blocked.layers.reduce((sum, layer) => sum + layer.points!, 0)
    expect(blocked.score).toBe(Math.round(raw * BLOCKED_FACTOR))
    expect(open.score).toBeGreaterThan(blocked.score)
    const perfect = scoreScan([
      entry('bot-challenge-free', 'accessibility', 'fail', { stopsAgents: true }),
      entry('rest', 'discovery', 'pass', { maxScore: 1000 }),
    ])
    expect(perfect.score).toBeLessThan(70)
    expect(['C', 'D', 'F']).toContain(perfect.grade)
  })

  test('the blocker is the first top fix, with the gain of lifting the block', () => {
    const blocked = site('fail')
    expect(blocked.topFixes[0]!.id).toBe('bot-challenge-free')
    const lifted = site('pass')
    expect(blocked.topFixes[0]!.estScoreGain).toBeCloseTo(lifted.score - blocked.score, 0)
    // Other fixes are worth what they add under the block.
    const jsonld = blocked.topFixes.find((fix) => fix.id === 'jsonld')!
    expect(jsonld.estScoreGain).toBeLessThan(blocked.topFixes[0]!.estScoreGain)
  })

  test('two blockers compound; fixing either one still gains, and each ranks above every other fix', () => {
    const both = site('fail', [entry('robots-ai-agents-allowed', 'accessibility', 'fail', { stopsAgents: true })])
    expect(both.blockedBy!.sort()).toEqual(['bot-challenge-free', 'robots-ai-agents-allowed'])
    expect(both.blockFactor).toBeCloseTo(BLOCKED_FACTOR ** 2, 4)
    expect(
      both.topFixes
        .slice(0, 2)
        .map((fix) => fix.id)
        .sort(),
    ).toEqual(['bot-challenge-free', 'robots-ai-agents-allowed'])
    expect(both.topFixes.every((fix) => fix.estScoreGain > 0)).toBe(true)
  })

  test('a warning of a blocker (search bots only, a CAPTCHA on a form) is no block', () => {
    expect(site('warning').blockFactor).toBe(1)
    expect(site('warning').blockedBy).toEqual([])
  })

  test('an emerging or beta blocker never blocks', () => {
    const emerging = scoreScan([
      entry('x', 'accessibility', 'fail', { stopsAgents: true, maturity: 'emerging' }),
      entry('y', 'discovery', 'pass'),
    ])
    expect(emerging.blockFactor).toBe(1)
    expect(emerging.score).toBe(100)
  })
})

describe('top fixes never promise nothing', () => {
  test('fixes that would not move the score (emerging checks) are left out', () => {
    const card = scoreScan([
      entry('counted', 'discovery', 'fail'),
      entry('emerging', 'discovery', 'fail', { maturity: 'emerging' }),
      entry('beta', 'usability', 'fail', { beta: true }),
      entry('ok', 'usability', 'pass'),
    ])
    expect(card.topFixes.map((fix) => fix.id)).toEqual(['counted'])
    expect(card.topFixes.every((fix) => fix.estScoreGain > 0)).toBe(true)
  })

  test('an unearned bonus costs nothing and still shows as an upside-only fix after the others', () => {
    const without = scoreScan([entry('a', 'discovery', 'warning'), entry('b', 'usability', 'pass')])
    const withBonus = scoreScan([
      entry('a', 'discovery', 'warning'),
      entry('b', 'usability', 'pass'),
      entry('mcp', 'discovery', 'fail', { bonus: true, maxScore: 8 }),
    ])
    expect(withBonus.score).toBe(without.score)
    expect(withBonus.topFixes.map((fix) => [fix.id, fix.bonus])).toEqual([
      ['a', false],
      ['mcp', true],
    ])
    expect(withBonus.topFixes[1]!.estScoreGain).toBeGreaterThan(0)
  })
})

describe('MCP fan-out', () => {
  const fanned = (id: string, mcpUrl: string, status: CheckStatus) => {
    const scored = entry(id, 'usability', status)
    return { ...scored, result: { ...scored.result, mcpUrl, mcpKind: 'product' } }
  }

  test('a check run against several servers counts once, each server weighing 1/n', () => {
    const single = scoreScan([entry('page', 'usability', 'pass'), fanned('mcp-ping', 'https://a.test/mcp', 'fail')])
    const twoServers = scoreScan([
      entry('page', 'usability', 'pass'),
      fanned('mcp-ping', 'https://a.test/mcp', 'fail'),
      fanned('mcp-ping', 'https://b.test/mcp', 'pass'),
    ])
    // One server: (10 + 0) / 20 = 50. Two servers, one failing: (10 + 5) / 20 = 75.
    expect(single.score).toBe(50)
    expect(twoServers.score).toBe(75)
    expect(twoServers.layers.find((layer) => layer.id === 'usability')!.maxScore).toBe(20)
    const failing = twoServers.layers
      .flatMap((layer) => layer.checks)
      .find((check) => check.mcpUrl === 'https://a.test/mcp')!
    expect(failing.estScoreGain).toBe(25)
  })
})

describe('a top fix gains what re-checking it alone adds', () => {
  /** A deterministic pseudo-random sequence (a linear congruential generator), so a failure reproduces. */
  function sequence(seed: number): () => number {
    let state = seed
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31
      return state / 2 ** 31
    }
  }
  const LAYER_IDS: LayerId[] = ['discovery', 'accessibility', 'usability', 'payments']
  const STATUSES: CheckStatus[] = ['pass', 'warning', 'fail', 'na']

  test.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])(
    'random scan %i: every gain is the re-scored difference within a point (blocks, bonuses, fractions, fan-out)',
    (seed) => {
      const random = sequence(seed)
      const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!
      const entries = Array.from({ length: 24 }, (_, index) => {
        const status = pick(STATUSES)
        const maxScore = pick([2, 3, 5, 8, 10])
        const fraction = status === 'warning' ? random() : undefined
        const made = entry(`c${index}`, pick(LAYER_IDS), status, {
          maxScore,
          score: pointsFor(status, maxScore, fraction),
          bonus: random() < 0.15,
          stopsAgents: index < 3,
        })
        // Two servers of a fan-out share one id.
        if (index >= 20) Object.assign(made.result, { id: 'fan-out', mcpUrl: `https://mcp${index}.test/mcp` })
        return made
      })
      const card = scoreScan(entries)
      for (const fix of card.topFixes) {
        const fixed = entries.map((scored) =>
          scored.result.id === fix.id && scored.result.mcpUrl === fix.mcpUrl
            ? { ...scored, result: { ...scored.result, status: 'pass' as const, score: scored.result.maxScore } }
            : { ...scored, result: { ...scored.result } },
        )
        const added = scoreScan(fixed).score - card.score
        expect(
          { id: fix.id, close: Math.abs(added - fix.estScoreGain) <= 1 },
          `re-check adds ${added}, estimated ${fix.estScoreGain}`,
        ).toEqual({ id: fix.id, close: true })
      }
    },
  )
})

describe('score and rescore', () => {
  const metas = new Map<string, ScoringMeta>([
    ['robots', { layer: 'discovery', beta: false }],
    ['page', { layer: 'usability', beta: false }],
    ['mcp-ping', { layer: 'usability', beta: false }],
  ])
  const catalog = { get: (id: string) => (metas.has(id) ? { meta: metas.get(id)! } : undefined) }
  const row = (id: string, status: CheckStatus, mcpUrl?: string): CheckResult => ({
    ...entry(id, 'discovery', status).result,
    ...(mcpUrl ? { mcpUrl, mcpKind: 'product' } : {}),
  })

  test('a result of a check the registry does not know is an error naming it, never filed under a layer', () => {
    expect(() => score(catalog, [row('robots', 'pass'), row('retired-check', 'fail')])).toThrow(UnknownCheckError)
    expect(() => score(catalog, [row('retired-check', 'fail')])).toThrow('"retired-check"')
    const card = score(catalog, [row('robots', 'pass')])
    expect(() => rescore(card, { kind: 'results', results: [row('retired-check', 'pass')] }, catalog)).toThrow(
      UnknownCheckError,
    )
  })

  test('each result is scored in its check’s layer', () => {
    const card = score(catalog, [row('robots', 'pass'), row('page', 'fail')])
    expect(card.layers.find((layer) => layer.id === 'usability')!.checks.map((check) => check.id)).toEqual(['page'])
    expect(card.score).toBe(score(catalog, [row('page', 'fail'), row('robots', 'pass')]).score)
  })

  test('fan-out rows replace the row that said the check applies to MCP scans only', () => {
    const card = score(
      catalog,
      [row('robots', 'pass'), row('mcp-ping', 'na')],
      [row('mcp-ping', 'pass', 'https://a.test/mcp'), row('mcp-ping', 'fail', 'https://b.test/mcp')],
    )
    expect(card.layers.flatMap((layer) => layer.checks).map((check) => check.mcpUrl ?? check.id)).toEqual([
      'robots',
      'https://a.test/mcp',
      'https://b.test/mcp',
    ])
  })

  test('a re-check replaces rows by check and server, and re-scores as a fresh run of the same rows would', () => {
    const before = score(catalog, [row('robots', 'fail'), row('page', 'pass')])
    const after = rescore(before, { kind: 'results', results: [row('robots', 'pass')] }, catalog)
    expect(after.score).toBe(score(catalog, [row('robots', 'pass'), row('page', 'pass')]).score)
    expect(after.topFixes).toEqual([])
    expect(before.topFixes.map((fix) => fix.id)).toEqual(['robots'])
  })

  test('a check judged not applicable leaves the score with its reason', () => {
    const before = score(catalog, [row('robots', 'pass'), row('page', 'fail')])
    const after = rescore(before, { kind: 'not-applicable', reasons: new Map([['page', 'not a shop']]) }, catalog)
    const page = after.layers.flatMap((layer) => layer.checks).find((check) => check.id === 'page')!
    expect(page).toMatchObject({ status: 'na', score: 0, naReason: 'not a shop' })
    expect(after.score).toBe(100)
  })

  test('the siteType lens gates checks out or counts them as bonuses, leaving the report as it was', () => {
    const before = score(catalog, [row('robots', 'pass'), row('page', 'fail')])
    expect(rescore(before, { kind: 'site-type', rules: new Map([['page', 'gated']]) }, catalog).score).toBe(100)
    expect(rescore(before, { kind: 'site-type', rules: new Map([['page', 'bonus']]) }, catalog).score).toBe(100)
    expect(before.score).toBeLessThan(100)
  })
})
