import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { AppHandle } from '../app/app.ts'
import { loadConfig } from '../core/config.ts'
import { createEngine } from '../app/engine.ts'
import { scanUrl } from './support/scan.ts'
import { testApp } from './helpers.ts'

/**
 * Issue 14: "our own site practises what it measures": the service, scanning its own deployment, gets grade A.
 * The app runs with PUBLIC_BASE_URL=https://self.test on loopback and the engine reaches `self.test` through
 * SCANNER_RESOLVE, so every URL the site advertises (Link header, API catalog, llms.txt) is followed as a scanner
 * would follow it in production.
 *
 * Phase 'static': the deep checks (browser-rendered: WebMCP tools, content without JavaScript…) stay pending and
 * out of the score, so the test needs no Chromium and cannot flake on a browser start; the full scan (phase 'all')
 * scores higher still, since the scan form declares a WebMCP tool.
 */
let handle: AppHandle
let server: ReturnType<AppHandle['app']['listen']>

beforeAll(async () => {
  handle = await testApp({ PUBLIC_BASE_URL: 'https://self.test' }, { start: true })
  server = handle.app.listen({ port: 0, hostname: '127.0.0.1' })
})
afterAll(async () => {
  await server.stop(true)
  await handle.close()
})

test('the service scanning its own deployment gets grade A', async () => {
  const port = server.server!.port
  const config = loadConfig({
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: `self.test:443:127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
  })
  const report = await scanUrl('self.test', createEngine(config), { phase: 'static' })
  const open = report.layers
    .flatMap((layer) => layer.checks)
    .filter((check) => check.status !== 'pass' && check.status !== 'na' && check.status !== 'pending')
    .map((check) => `${check.id} ${check.status} ${check.score}/${check.maxScore}: ${check.details ?? ''}`)
  const summary = `self.test scored ${report.score} (${report.grade}); not passing:\n${open.join('\n')}`
  expect(report.urlKind, summary).toBe('domain')
  expect(['A+', 'A'], summary).toContain(report.grade)
}, 60_000)
