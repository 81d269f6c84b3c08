import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEngine } from '../app/engine.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { erroredChecks, EXPECTED, PAYMENT_CHECKS, verdictMismatches } from './fixtures/sites/expected.ts'
import { resolveRules, SITE_NAMES, type FixtureSite, startFixtureSites } from './fixtures/sites/server.ts'
import { testConfig } from './helpers.ts'

/**
 * Whole scans of the fixture world: every site is scanned for real (rendered checks included, through the
 * system Chromium when present) and compared with the verdicts in fixtures/sites/expected.ts.
 */
let sites: FixtureSite[]
let engine: ReturnType<typeof createEngine>
const reports = new Map<string, ScanReport>()

beforeAll(async () => {
  sites = await startFixtureSites(SITE_NAMES)
  engine = createEngine(testConfig({ SCANNER_RESOLVE: resolveRules(sites) }))
  for (const site of sites)
    reports.set(site.name, await scanUrl(site.host, engine, { phase: engine.browser ? 'all' : 'static' }))
}, 240_000)
afterAll(async () => {
  await engine.browser?.close()
  await Promise.all(sites.map((site) => site.stop()))
})

function statusOf(report: ScanReport, id: string) {
  return report.layers.flatMap((layer) => layer.checks).find((check) => check.id === id)
}

describe.each(SITE_NAMES)('fixture site %s', (name) => {
  test('matches its expected verdicts', () => {
    const report = reports.get(name)!
    const expectation = EXPECTED[name]
    expect(verdictMismatches(report, expectation, engine.browser !== null)).toEqual([])
    if (expectation.grade) expect(expectation.grade).toContain(report.grade)
    expect(report.pendingChecks).toEqual(engine.browser ? [] : report.pendingChecks)
  })
})

test('on excellent, every registered check reaches a verdict, those it was not built for included', () => {
  expect(erroredChecks(reports.get('excellent')!, engine.browser !== null)).toEqual([])
})

test('acceptance: excellent grades A or A+, poor grades F, the blog has na on every payments check', () => {
  expect(['A', 'A+']).toContain(reports.get('excellent')!.grade)
  expect(reports.get('poor')!.grade).toBe('F')
  const blog = reports.get('blog')!
  for (const id of PAYMENT_CHECKS) expect(statusOf(blog, id)?.status).toBe('na')
})

test('MCP fan-out: the MCP server a domain advertises is scanned with the MCP checks, tagged and counted once', () => {
  const rows = reports.get('excellent')!.layers.flatMap((layer) => layer.checks)
  const fanned = rows.filter((check) => check.mcpUrl !== undefined)
  expect(fanned.length).toBe(18)
  expect(new Set(fanned.map((check) => check.mcpUrl))).toEqual(new Set(['https://excellent.test/mcp']))
  expect(new Set(fanned.map((check) => check.mcpKind))).toEqual(new Set(['product']))
  expect(fanned.find((check) => check.id === 'mcp-initialize')!.status).toBe('pass')
  // The fan-out row replaces the "applies to MCP scans only" row of the same check.
  expect(rows.filter((check) => check.id === 'mcp-initialize')).toHaveLength(1)
  // A site with no MCP server keeps those rows as na.
  const blog = reports.get('blog')!.layers.flatMap((layer) => layer.checks)
  expect(blog.find((check) => check.id === 'mcp-initialize')).toMatchObject({ status: 'na' })
})
