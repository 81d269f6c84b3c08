import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEngine } from '../app/engine.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { type McpFixture, resolveRules, startMcpFixtures } from './fixtures/mcp/server.ts'
import { request, testConfig } from './helpers.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

/** Whole scans of the MCP fixture servers, against issue 5's acceptance bar. */
let fixtures: McpFixture[]
const reports = new Map<string, ScanReport>()
const statusOf = (name: string, id: string) =>
  reports
    .get(name)!
    .layers.flatMap((layer) => layer.checks)
    .find((check) => check.id === id)?.status

beforeAll(async () => {
  fixtures = await startMcpFixtures(['well-made', 'sloppy', 'mcp-app', 'mcp-app-broken', 'auth-required'])
  const engine = createEngine(testConfig({ SCANNER_RESOLVE: resolveRules(fixtures) }), { browser: null })
  for (const fixture of fixtures.filter((fixture) => fixture.name !== 'auth-required')) {
    reports.set(fixture.name, await scanUrl(fixture.url, engine, { phase: 'all' }))
  }
})
afterAll(() => Promise.all(fixtures.map((fixture) => fixture.stop())))

describe('MCP servers', () => {
  test('the well-made server grades A or better', () => {
    const report = reports.get('well-made')!
    expect(report.urlKind).toBe('mcp')
    expect(['A', 'A+']).toContain(report.grade)
    expect(report.pendingChecks).toEqual([])
  })

  test('the sloppy server fails descriptions, naming and annotations and grades D or F', () => {
    for (const id of ['mcp-tool-descriptions', 'mcp-tool-naming', 'mcp-tool-annotations'])
      expect(statusOf('sloppy', id)).toBe('fail')
    expect(['D', 'F']).toContain(reports.get('sloppy')!.grade)
  })

  test('the MCP App is detected as mcp-app and its UI checks pass; the broken variant fails them', () => {
    expect(reports.get('mcp-app')!.urlKind).toBe('mcp-app')
    for (const id of ['mcp-app-ui-resource', 'mcp-app-ui-metadata', 'mcp-app-tool-visibility'])
      expect(statusOf('mcp-app', id)).toBe('pass')
    expect(reports.get('mcp-app-broken')!.urlKind).toBe('mcp-app')
    expect(statusOf('mcp-app-broken', 'mcp-app-ui-resource')).toBe('fail')
  })
})

describe('an MCP server that requires authentication', () => {
  let world: World
  let fixture: McpFixture
  beforeAll(async () => {
    fixture = fixtures.find((candidate) => candidate.name === 'auth-required')!
    world = await startWorld([], { browser: null, extraResolve: [fixture.resolveRule] })
  })
  afterAll(() => world.close())

  test('POST /api/scan is 422 MCP_AUTH_REQUIRED and an earlier measured scan of the domain stays', async () => {
    const post = (url: string) =>
      world.handle.app.handle(
        request('/api/scan', {
          method: 'POST',
          json: { url, force: true },
          headers: { 'x-forwarded-for': clientIp() },
        }),
      )
    const measured = await post(fixture.host)
    expect(measured.status).toBe(200)
    const before = await (
      await world.handle.app.handle(
        request(`/api/score/${fixture.host}`, { headers: { 'x-forwarded-for': clientIp() } }),
      )
    ).json()

    const response = await post(fixture.url)
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({
      code: 'MCP_AUTH_REQUIRED',
      mcpAuthRequired: true,
      mcpUrl: fixture.url,
      urlKind: 'mcp',
    })
    const after = await (
      await world.handle.app.handle(
        request(`/api/score/${fixture.host}`, { headers: { 'x-forwarded-for': clientIp() } }),
      )
    ).json()
    expect(after.scannedAt).toBe(before.scannedAt)
    expect(after.score).toBe(before.score)
  })

  test('the stream ends with a terminal error event carrying MCP_AUTH_REQUIRED', async () => {
    const response = await world.handle.app.handle(
      request(`/api/scan/stream?domain=${encodeURIComponent(fixture.url)}&force=1`, {
        headers: { 'x-forwarded-for': clientIp() },
      }),
    )
    const frames = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; code?: string })
    expect(frames.at(-1)).toMatchObject({
      type: 'error',
      code: 'MCP_AUTH_REQUIRED',
      mcpAuthRequired: true,
      urlKind: 'mcp',
    })
    expect(frames.some((frame) => frame.type === 'scan_complete')).toBe(false)
  })
})
