import { describe, expect, test } from 'bun:test'
import type { Outcome } from './check.ts'
import { blockFollowsHomepage } from './page-runs.ts'
import { combinePageOutcomes } from './page-verdict.ts'

const page = (path: string, status: Outcome['status'], recommendation?: string) => ({
  url: `https://docs.test${path}`,
  outcome: { status, details: `${path}: ${status}`, ...(recommendation ? { recommendation } : {}) },
})

describe('a check that stops agents, judged over a sample', () => {
  test('an empty homepage blocks however many inner pages pass', () => {
    const home = page('/', 'fail', 'Server-render the homepage.')
    const combined = combinePageOutcomes([
      home,
      ...Array.from({ length: 9 }, (_, index) => page(`/docs/${index}`, 'pass')),
    ])
    expect(combined.outcome.status).toBe('pass')
    const outcome = blockFollowsHomepage(combined.outcome, home.outcome)
    expect(outcome).toMatchObject({ status: 'fail', recommendation: 'Server-render the homepage.', fraction: 0.9 })
  })

  test('thin inner pages behind a readable homepage cost their share, never a block', () => {
    const home = page('/', 'pass')
    const combined = combinePageOutcomes([
      home,
      ...Array.from({ length: 4 }, (_, index) => page(`/docs/${index}`, 'warning')),
    ])
    expect(combined.outcome.status).toBe('fail')
    const outcome = blockFollowsHomepage(combined.outcome, home.outcome)
    expect(outcome).toMatchObject({ status: 'warning', fraction: 0.2 })
  })

  test('otherwise the share rule stands', () => {
    const home = page('/', 'pass')
    const combined = combinePageOutcomes([home, page('/a', 'pass'), page('/b', 'warning')])
    expect(blockFollowsHomepage(combined.outcome, home.outcome)).toEqual(combined.outcome)
  })
})
