import { describe, expect, test } from 'bun:test'
import { buildReportModel, type ReportCheckInput, type ReportInput } from './index.ts'

const check = (id: string, status: string, extra: Partial<ReportCheckInput> = {}): ReportCheckInput => ({
  id,
  name: `Check ${id}`,
  status,
  score: status === 'pass' ? 10 : 0,
  maxScore: 10,
  details: `${id} details`,
  tier: 'recommended',
  ...extra,
})

const poor: ReportInput = {
  domain: 'acme.test',
  url: 'https://acme.test/',
  score: 22,
  grade: 'F',
  analysisStatus: 'complete',
  layers: [
    {
      id: 'discovery',
      name: 'Discovery',
      score: 10,
      maxScore: 40,
      checks: [
        check('robots-txt', 'pass', { tier: 'required' }),
        check('llms-txt', 'fail', { estScoreGain: 6, recommendation: 'Publish llms.txt' }),
        check('sitemap-xml', 'warning', { estScoreGain: 2, tier: 'required', score: 5 }),
        check('api-catalog', 'na', { naReason: 'No API signals', details: 'No API signals' }),
        check('openapi-description', 'na', { naReason: 'No API signals', details: 'No API signals' }),
      ],
    },
    {
      id: 'accessibility',
      name: 'Access',
      score: 0,
      maxScore: 20,
      checks: [
        check('bot-challenge-free', 'fail', { estScoreGain: 12, tier: 'required' }),
        check('content-signals', 'fail', { estScoreGain: 0 }),
        check('web-bot-auth-accepted', 'error', { details: 'probe timed out' }),
      ],
    },
    {
      id: 'payments',
      name: 'Payments',
      score: 0,
      maxScore: 0,
      checks: [check('pricing-machine-readable', 'na', { naReason: 'No commerce signals' })],
    },
    { id: 'usability', name: 'Usability', score: 0, maxScore: 0, checks: [check('webmcp-tools', 'pending')] },
  ],
  topFixes: [
    { id: 'bot-challenge-free', estScoreGain: 12 },
    { id: 'llms-txt', estScoreGain: 6 },
    { id: 'content-signals', estScoreGain: 0 },
  ],
}

describe('buildReportModel', () => {
  const model = buildReportModel(poor)

  test('top fixes keep the engine order, drop gains of 0 and carry a remedy written for the site', () => {
    expect(model.fixes.map((fix) => [fix.rank, fix.check.id, fix.gain])).toEqual([
      [1, 'bot-challenge-free', 12],
      [2, 'llms-txt', 6],
    ])
    expect(model.fixes[1]!.remedy!.snippet.code).toStartWith('# acme.test')
    expect(model.fixes[0]!.check.required).toBe(true)
  })

  test('the other failing checks follow by impact, each check appearing once', () => {
    expect(model.issues.map((issue) => issue.id)).toEqual(['sitemap-xml', 'content-signals', 'web-bot-auth-accepted'])
    const shown = [...model.fixes.map((fix) => fix.check.id), ...model.issues.map((issue) => issue.id)]
    expect(new Set(shown).size).toBe(shown.length)
  })

  test('passed, pending and n/a are counted apart, n/a grouped under a reason printed once', () => {
    expect(model.passed.map((entry) => entry.id)).toEqual(['robots-txt'])
    expect(model.pending.map((entry) => entry.id)).toEqual(['webmcp-tools'])
    expect(model.notApplicable).toEqual([
      {
        reason: 'No API signals',
        checks: [
          expect.objectContaining({ id: 'api-catalog' }),
          expect.objectContaining({ id: 'openapi-description' }),
        ],
      },
      { reason: 'No commerce signals', checks: [expect.objectContaining({ id: 'pricing-machine-readable' })] },
    ])
    // The details that only repeat the reason are not printed a second time.
    expect(model.notApplicable[0]!.checks[0]!.details).toBeUndefined()
    expect(model.counts).toEqual({ fixes: 2, issues: 3, passed: 1, notApplicable: 3, pending: 1, requiredFailing: 1 })
  })

  test('a layer with nothing applicable says so instead of 0 / 0', () => {
    const labels = Object.fromEntries(
      model.layers.map((layer) => [layer.id, [layer.label, layer.applicable, layer.percent]]),
    )
    expect(labels).toEqual({
      discovery: ['10 / 40', true, 25],
      accessibility: ['0 / 20', true, 0],
      payments: ['Nothing applicable', false, null],
      usability: ['Nothing applicable', false, null],
    })
  })

  test('layers reported on the 0-100 scale read in those points, the numbers that add up to the score', () => {
    const scaled = buildReportModel({
      ...poor,
      layers: [
        { ...poor.layers[0]!, applicable: true, points: 12.5, maxPoints: 35.3 },
        { ...poor.layers[2]!, applicable: false, points: 0, maxPoints: 0 },
      ],
    })
    expect(scaled.layers.map((layer) => [layer.label, layer.percent, layer.points])).toEqual([
      ['12.5 / 35.3 points', 35, 12.5],
      ['Nothing applicable', null, null],
    ])
    expect(scaled.layerNote).toBeNull()
    const weighted = buildReportModel({
      ...poor,
      layers: [
        { ...poor.layers[0]!, applicable: true, points: 12.5, maxPoints: 100, weight: 85 },
        { ...poor.layers[2]!, applicable: false, points: 0, maxPoints: 0, weight: 15 },
      ],
    })
    expect(weighted.layerNote).toBe('Payments does not apply here, so its 15 points are shared among the other layers.')
    expect(model.layerNote).toBeNull()
  })

  test('a check that stops agents outright leads the verdict and the issues, and is marked', () => {
    const blocked = buildReportModel({ ...poor, blockedBy: ['content-signals'], topFixes: [] })
    expect(blocked.blocking.map((check) => check.id)).toEqual(['content-signals'])
    expect(blocked.issues[0]!.id).toBe('content-signals')
    expect(blocked.issues[0]!.blocksAgents).toBe(true)
    expect(blocked.verdict).toStartWith('22/100 (F): AI agents are stopped outright ("Check content-signals" fails)')
  })

  test('the verdict names the required failures and the first fix; a required warning is not one of them', () => {
    expect(model.verdict).toBe(
      '22/100 (F): required check "Check bot-challenge-free" fails, so agents are held back; start with "Check bot-challenge-free" (+12 points). 1 background check is still running.',
    )
  })

  test('a report whose only gaps are warnings of required checks reads as improvements, not as held back', () => {
    const warned = buildReportModel({
      ...poor,
      score: 91,
      grade: 'A',
      topFixes: [{ id: 'sitemap-xml', estScoreGain: 2 }],
      layers: [
        {
          ...poor.layers[0]!,
          checks: [
            check('robots-txt', 'pass', { tier: 'required' }),
            check('sitemap-xml', 'warning', { estScoreGain: 2, tier: 'required', score: 5 }),
          ],
        },
      ],
    })
    expect(warned.counts.requiredFailing).toBe(0)
    expect(warned.verdict).toBe(
      '91/100 (A): no required check fails; 1 improvement remains, start with "Check sitemap-xml" (+2 points).',
    )
  })

  test('a clean report and a partial run read as such', () => {
    const clean = buildReportModel({
      ...poor,
      score: 100,
      grade: 'A+',
      topFixes: [],
      layers: [{ ...poor.layers[0]!, checks: [check('robots-txt', 'pass')] }],
    })
    expect(clean.verdict).toBe('100/100 (A+): every applicable check passes.')
    // Extras not met (bonus, emerging, beta) never lower the score: a 100 with some is still clean, and says so.
    const withExtras = buildReportModel({
      ...poor,
      score: 100,
      grade: 'A+',
      topFixes: [],
      layers: [
        {
          ...poor.layers[0]!,
          checks: [
            check('robots-txt', 'pass'),
            check('ai-catalog', 'fail', { bonus: true }),
            check('server-discover', 'fail', { maturity: 'emerging' }),
            check('beta-one', 'warning', { beta: true }),
          ],
        },
      ],
    })
    expect(withExtras.verdict).toBe(
      '100/100 (A+): every applicable check passes (3 extras not met, which never lower it).',
    )
    expect(clean.fixes).toEqual([])
    const partial = buildReportModel({
      ...poor,
      score: null,
      grade: null,
      topFixes: [],
      layers: [{ ...poor.layers[0]!, score: null, maxScore: null }],
    })
    expect(partial.partial).toBe(true)
    expect(partial.layers[0]!.label).toBe('Not scored')
    expect(partial.verdict).toStartWith('Partial run: 2 of the checks that ran need work')
  })

  test('fan-out rows of one check get distinct anchors and the top fix finds its own server', () => {
    const fanout = buildReportModel({
      ...poor,
      layers: [
        {
          id: 'usability',
          name: 'Usability',
          score: 0,
          maxScore: 20,
          checks: [
            check('mcp-tool-descriptions', 'fail', { mcpUrl: 'https://a.test/mcp', estScoreGain: 2 }),
            check('mcp-tool-descriptions', 'fail', { mcpUrl: 'https://b.test/mcp', estScoreGain: 2 }),
          ],
        },
      ],
      topFixes: [{ id: 'mcp-tool-descriptions', estScoreGain: 2, mcpUrl: 'https://b.test/mcp' }],
    })
    expect(fanout.checks.map((entry) => entry.anchor)).toEqual([
      'check-mcp-tool-descriptions',
      'check-mcp-tool-descriptions-2',
    ])
    expect(fanout.fixes[0]!.check.anchor).toBe('check-mcp-tool-descriptions-2')
  })
})
