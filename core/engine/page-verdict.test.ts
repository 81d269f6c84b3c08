import { describe, expect, test } from 'bun:test'
import type { CheckStatus } from './check.ts'
import { combinePageOutcomes, MAX_FAILING_PAGES, shareStatus } from './page-verdict.ts'

const page = (path: string, status: CheckStatus, recommendation?: string) => ({
  url: `https://acme.test${path}`,
  outcome: { status, details: `${status} on ${path}`, ...(recommendation ? { recommendation } : {}) } as never,
})

describe('shareStatus', () => {
  test.each([
    [9, 10, 'pass'],
    [10, 10, 'pass'],
    [8, 10, 'warning'],
    [5, 10, 'warning'],
    [4, 10, 'fail'],
    [0, 3, 'fail'],
  ] as const)('%i of %i passing is %s', (passed, checked, status) => {
    expect(shareStatus(passed, checked)).toBe(status)
  })
})

describe('combinePageOutcomes', () => {
  test('counts judged pages only, lists failures before warnings, and scores the passing share', () => {
    const { outcome, pages } = combinePageOutcomes([
      page('/', 'pass'),
      page('/a', 'warning', 'fix a'),
      page('/b', 'fail', 'fix b'),
      page('/c', 'na'),
      page('/d', 'error'),
      page('/e', 'pass'),
    ])
    expect(pages).toEqual({
      checked: 4,
      passed: 2,
      failing: [
        { url: 'https://acme.test/b', status: 'fail', details: 'fail on /b', recommendation: 'fix b' },
        { url: 'https://acme.test/a', status: 'warning', details: 'warning on /a', recommendation: 'fix a' },
      ],
    })
    expect(outcome).toMatchObject({ status: 'warning', fraction: 0.5 })
    expect(outcome.details).toStartWith('2 of 4 sampled pages pass; not passing: /b, /a. Homepage: pass on /')
    expect(outcome.recommendation).toBe('On /b and the other pages listed: fix b')
  })

  test('at most ten failing pages are listed; the share counts them all', () => {
    const { outcome, pages } = combinePageOutcomes([
      page('/', 'pass'),
      ...Array.from({ length: 14 }, (_, i) => page(`/p${i}`, 'fail')),
    ])
    expect(pages.failing).toHaveLength(MAX_FAILING_PAGES)
    expect(pages).toMatchObject({ checked: 15, passed: 1 })
    expect(outcome.status).toBe('fail')
    expect(outcome.details).toContain('and 11 more')
  })

  test("nothing judged: the homepage's own outcome stands", () => {
    const home = page('/', 'na')
    const { outcome, pages } = combinePageOutcomes([home, page('/a', 'na')])
    expect(outcome).toBe(home.outcome)
    expect(pages).toEqual({ checked: 0, passed: 0, failing: [] })
  })
})
