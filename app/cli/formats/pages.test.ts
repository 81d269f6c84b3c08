import { describe, expect, test } from 'bun:test'
import type { BaselineReport } from '../baseline.ts'
import { evaluateGate } from '../gate.ts'
import type { CliCheck, CliReport } from '../report.ts'
import { renderJunit } from './junit.ts'
import { renderMarkdown } from './markdown.ts'
import { renderText } from './text.ts'

/** The multi-page parts of the CLI formats and the baseline gate, over literal reports of a 4-page sample. */

const url = (path: string) => `https://site.test${path}`
const failing = (path: string) => ({
  url: url(path),
  status: 'fail' as const,
  details: `no JSON-LD on ${path}`,
  recommendation: `add JSON-LD to ${path}`,
})

const jsonld = (passed: number, failingPaths: string[]): CliCheck => ({
  id: 'structured-data-jsonld',
  name: 'Structured data',
  status: passed === 4 ? 'pass' : passed >= 2 ? 'warning' : 'fail',
  score: passed,
  maxScore: 4,
  maturity: 'verified',
  bonus: false,
  details: `${passed} of 4 sampled pages pass`,
  pages: { checked: 4, passed, failing: failingPaths.map(failing) },
})

function report(checks: CliCheck[], score = 80): CliReport {
  return {
    domain: 'site.test',
    name: 'site.test',
    url: url('/'),
    score,
    grade: 'B',
    partial: false,
    analysisStatus: 'complete',
    pendingChecks: [],
    scannedAt: '2026-12-01T00:00:00.000Z',
    durationMs: 5,
    layers: [{ id: 'usability', name: 'Usability', score: 0, maxScore: 0, checks }],
    topFixes: [],
    source: 'in-process',
    contractVersion: '1.29.0',
    pages: ['/', '/docs/a', '/docs/b', '/blog/c'].map((path, index) => ({
      url: url(path),
      source: index === 0 ? 'home' : 'sitemap',
      httpStatus: 200,
      durationMs: 3,
    })),
    pageSample: { requested: 4, candidates: 9, robotsSkipped: 2, renderedPages: [url('/')] },
  }
}

const asBaseline = (source: CliReport): BaselineReport => ({ ...source, score: source.score!, grade: source.grade! })
const noGate = evaluateGate(report([]), {}, 'usage')

describe('multi-page formats', () => {
  const now = report([jsonld(1, ['/docs/a', '/docs/b', '/blog/c'])])

  test('Markdown: a Pages section with "N of M pages", the failing pages with their fix, and the sample', () => {
    const markdown = renderMarkdown(now, { gate: noGate, color: false })
    expect(markdown).toContain('### Pages')
    expect(markdown).toContain('4 of 4 pages sampled from 9 candidates; 2 skipped by robots.txt.')
    expect(markdown).toContain('❌ `structured-data-jsonld`: 1 of 4 pages')
    expect(markdown).toContain('  - /docs/a (fail): no JSON-LD on /docs/a Fix: add JSON-LD to /docs/a')
    expect(markdown).toContain('| https://site.test/blog/c | sitemap | 200 |')
  })

  test('text: the same share and the first failing pages', () => {
    const text = renderText(now, { gate: noGate, color: false })
    expect(text).toContain('FAIL structured-data-jsonld  1 of 4 pages')
    expect(text).toContain('- /docs/a (fail): no JSON-LD on /docs/a')
  })

  test('JUnit: one failure for the check, naming the pages it fails on', () => {
    const xml = renderJunit(now, { gate: noGate, color: false })
    const failures = xml.match(/<failure message="[^"]*"/g) ?? []
    expect(failures).toHaveLength(1)
    expect(failures[0]).toContain(
      'passes on 1 of 4 pages, not on https://site.test/docs/a, https://site.test/docs/b, https://site.test/blog/c',
    )
  })

  test('one-page reports have no Pages section', () => {
    const { pages: _pages, pageSample: _sample, ...single } = now
    expect(renderMarkdown(single, { gate: noGate, color: false })).not.toContain('### Pages')
  })
})

describe('--baseline with page-level checks', () => {
  test('a passing share that fell beyond the tolerance is a regression naming the pages that stopped passing', () => {
    const before = asBaseline(report([jsonld(3, ['/blog/c'])]))
    const gate = evaluateGate(
      report([jsonld(2, ['/docs/b', '/blog/c'])]),
      { baseline: { report: before, file: 'base.json', tolerance: 0 } },
      'usage',
    )
    expect(gate.passed).toBe(false)
    const regression = gate.baseline!.regressions[0]!
    expect(regression).toMatchObject({ id: 'structured-data-jsonld', before: 'warning', after: 'warning' })
    expect(regression.pages).toEqual({
      before: '3 of 4 pages',
      after: '2 of 4 pages',
      stoppedPassing: [url('/docs/b')],
    })
    expect(gate.assertions.find((assertion) => assertion.name === 'regression structured-data-jsonld')!.message).toBe(
      'structured-data-jsonld passes on fewer pages than in the baseline: warning, 3 of 4 pages → 2 of 4 pages; stopped passing: https://site.test/docs/b',
    )
  })

  test('a fall within the tolerance (percentage points of the share) is not', () => {
    const before = asBaseline(report([jsonld(3, ['/blog/c'])]))
    const gate = evaluateGate(
      report([jsonld(2, ['/docs/b', '/blog/c'])]),
      { baseline: { report: before, file: 'base.json', tolerance: 25 } },
      'usage',
    )
    expect(gate.baseline!.regressions).toEqual([])
  })
})
