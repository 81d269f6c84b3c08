import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createEngine } from '../app/engine.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { LARGE_UI_CHARS } from './fixtures/mcp/mcp-app-large.ts'
import { type McpFixture, resolveRules, startMcpFixtures } from './fixtures/mcp/server.ts'
import { testConfig } from './helpers.ts'

/**
 * Issue 20 item 4, through whole scans: a 1.5 MiB UI resource is read and judged (the catalog design allows 2 MiB),
 * and a read that breaks off is a probe that could not finish: `error` in every check that depends on it, never `na`.
 */
let fixtures: McpFixture[]
const reports = new Map<string, ScanReport>()
const check = (name: string, id: string) =>
  reports
    .get(name)!
    .layers.flatMap((layer) => layer.checks)
    .find((entry) => entry.id === id)!

beforeAll(async () => {
  fixtures = await startMcpFixtures(['mcp-app-large', 'mcp-app-read-fails'])
  const engine = createEngine(testConfig({ SCANNER_RESOLVE: resolveRules(fixtures) }), { browser: null })
  for (const fixture of fixtures) reports.set(fixture.name, await scanUrl(fixture.url, engine, { phase: 'all' }))
})
afterAll(() => Promise.all(fixtures.map((fixture) => fixture.stop())))

test('a 1.5 MiB UI document is read back and judged: the template and its metadata pass', () => {
  expect(LARGE_UI_CHARS).toBeGreaterThan(1024 * 1024)
  expect(reports.get('mcp-app-large')!.urlKind).toBe('mcp-app')
  expect(check('mcp-app-large', 'mcp-app-ui-resource')).toMatchObject({ status: 'pass' })
  expect(check('mcp-app-large', 'mcp-app-ui-metadata')).toMatchObject({ status: 'pass' })
})

test('a resources/read that breaks off is an error in each check that depends on it, not na', () => {
  expect(reports.get('mcp-app-read-fails')!.urlKind).toBe('mcp-app')
  for (const id of ['mcp-app-ui-resource', 'mcp-app-ui-metadata']) {
    const result = check('mcp-app-read-fails', id)
    expect(result.status).toBe('error')
    expect(result.details).toContain('resources/read of ui://reports/annual.html')
  }
})
