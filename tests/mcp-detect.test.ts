import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createServer } from 'node:net'
import { createEngine } from '../app/engine.ts'
import { detectKind } from '../core/engine/detect.ts'
import { resolveTarget, type ScanEvent } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { ScanError } from '../core/engine/scan-error.ts'
import { requestTarget } from '../core/engine/target.ts'
import { createOutboundClient } from '../core/outbound/client.ts'
import { ScanSession } from '../core/outbound/session.ts'
import { CATALOG_RECIPES_MCP, CATALOG_WEATHER_MCP } from './fixtures/mcp/catalog.ts'
import { startServerEverything } from './fixtures/mcp/everything.ts'
import { type McpFixture, type McpFixtureName, resolveRules, startMcpFixtures } from './fixtures/mcp/server.ts'
import { testConfig } from './helpers.ts'

const NAMES: McpFixtureName[] = [
  'well-made',
  'sloppy',
  'auth-required',
  'mcp-app',
  'mcp-app-broken',
  'modern',
  'modern-sdk',
  'sse-only',
  'catalog',
]
let fixtures: Record<string, McpFixture> = {}
let everything: Awaited<ReturnType<typeof startServerEverything>>
/** A port nothing listens on: connections to `closed.mcp.test` are refused. */
let closedPort: number

const url = (name: McpFixtureName): string => fixtures[name]!.url

beforeAll(async () => {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  closedPort = (probe.address() as { port: number }).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  const [started, server] = await Promise.all([startMcpFixtures(NAMES), startServerEverything()])
  fixtures = Object.fromEntries(started.map((fixture) => [fixture.name, fixture]))
  everything = server
})
afterAll(async () => {
  await Promise.all([...Object.values(fixtures).map((fixture) => fixture.stop()), everything.stop()])
})

function config() {
  return testConfig({
    SCANNER_RESOLVE: [
      resolveRules(Object.values(fixtures)),
      everything.resolveRule,
      `closed.mcp.test:443:127.0.0.1:${closedPort}`,
    ].join(','),
  })
}

function session(): ScanSession {
  const scanConfig = config()
  return new ScanSession(createOutboundClient(scanConfig, null), scanConfig)
}

const detect = (input: string, mcpUrl?: string) => {
  const parsed = new URL(input)
  return detectKind(session(), { url: parsed.href, hasPath: parsed.pathname !== '/', ...(mcpUrl ? { mcpUrl } : {}) })
}

describe('kind detection', () => {
  test('a bare domain is a domain, without probing', async () => {
    expect(await detect('https://catalog.mcp.test/')).toEqual({ kind: 'domain', hint: 'bare domain' })
  })

  test('an endpoint answering initialize is mcp; one linking UI resources is mcp-app', async () => {
    expect(await detect(url('well-made'))).toMatchObject({
      kind: 'mcp',
      mcpUrl: url('well-made'),
      hint: 'answered MCP initialize',
    })
    expect(await detect(url('sloppy'))).toMatchObject({ kind: 'mcp', mcpUrl: url('sloppy') })
    expect(await detect(url('mcp-app'))).toMatchObject({ kind: 'mcp-app', mcpUrl: url('mcp-app') })
    // No extension declared: the tools' `_meta.ui.resourceUri` decides.
    expect(await detect(url('mcp-app-broken'))).toMatchObject({ kind: 'mcp-app' })
  })

  test('a 2026-07-28-only server (-32022 on initialize) is found through server/discover', async () => {
    expect(await detect(url('modern'))).toMatchObject({
      kind: 'mcp',
      mcpUrl: url('modern'),
      hint: 'answered server/discover (2026-07-28 only)',
    })
    expect(await detect(url('modern-sdk'))).toMatchObject({ kind: 'mcp', mcpUrl: url('modern-sdk') })
  })

  test('an endpoint that only speaks the deprecated HTTP+SSE transport is still an MCP server', async () => {
    expect(await detect(url('sse-only'))).toMatchObject({
      kind: 'mcp',
      mcpUrl: url('sse-only'),
      hint: 'answered over the deprecated HTTP+SSE transport only',
    })
  })

  test('401 with a Bearer challenge is an MCP server that requires auth; the scan stops with mcp-auth-required', async () => {
    expect(await detect(url('auth-required'))).toMatchObject({
      kind: 'mcp',
      mcpUrl: url('auth-required'),
      authRequired: {
        status: 401,
        challenge: expect.stringContaining(
          'resource_metadata="https://auth-required.mcp.test/.well-known/oauth-protected-resource/mcp"',
        ),
      },
    })
    const error = await resolveTarget(requestTarget(url('auth-required')), session()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ScanError)
    expect(error).toMatchObject({
      reason: 'mcp-auth-required',
      failure: { mcpUrl: url('auth-required'), urlKind: 'mcp' },
    })
  })

  test('a catalog listing page folds into the first embedded MCP URL that validates', async () => {
    const events: ScanEvent[] = []
    const target = await resolveTarget(requestTarget('https://catalog.mcp.test/servers/weather'), session(), {
      onEvent: (event) => events.push(event),
    })
    expect(target).toMatchObject({
      kind: 'mcp-app',
      mcpUrl: CATALOG_WEATHER_MCP,
      domain: 'catalog.mcp.test',
      url: 'https://catalog.mcp.test/servers/weather',
    })
    const detected = events.find((event) => event.type === 'kind_detected')
    expect(detected).toMatchObject({
      kind: 'mcp-app',
      mcpUrl: CATALOG_WEATHER_MCP,
      // The docs page ending in /mcp comes first but is a page, not an endpoint.
      embeddedMcpUrls: ['https://catalog.mcp.test/docs/mcp', CATALOG_WEATHER_MCP, CATALOG_RECIPES_MCP],
      hint: expect.stringContaining('folded'),
    })
  })

  test('a page that embeds no MCP URL, and a bare domain that lists servers, stay domains', async () => {
    expect(await detect('https://catalog.mcp.test/docs/mcp')).toMatchObject({ kind: 'domain' })
    const events: ScanEvent[] = []
    expect(
      await resolveTarget(requestTarget('catalog.mcp.test'), session(), { onEvent: (event) => events.push(event) }),
    ).toMatchObject({ kind: 'domain' })
    expect(events.find((event) => event.type === 'kind_detected')).not.toHaveProperty('embeddedMcpUrls')
  })

  test('a pinned mcpUrl is the sole MCP target: it wins over a listing, and a failing one is not replaced', async () => {
    const listing = 'https://catalog.mcp.test/servers/weather'
    expect(await detect(listing, url('well-made'))).toEqual({
      kind: 'mcp',
      mcpUrl: url('well-made'),
      hint: 'answered MCP initialize',
    })
    const failing = await detect(listing, 'https://catalog.mcp.test/docs/mcp')
    expect(failing).toMatchObject({ kind: 'mcp', mcpUrl: 'https://catalog.mcp.test/docs/mcp' })
    expect(failing.embeddedMcpUrls).toBeUndefined()
    const target = await resolveTarget(
      requestTarget('catalog.mcp.test', { mcpUrl: 'https://catalog.mcp.test/docs/mcp' }),
      session(),
    )
    expect(target).toMatchObject({ kind: 'mcp', mcpUrl: 'https://catalog.mcp.test/docs/mcp' })
  })

  test('a pinned endpoint that cannot be reached at all is the scan’s error', async () => {
    const error = await resolveTarget(
      requestTarget('catalog.mcp.test', { mcpUrl: 'https://closed.mcp.test/mcp' }),
      session(),
    ).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ScanError)
    expect(error).toMatchObject({ reason: 'mcp-unreachable', failure: { mcpUrl: 'https://closed.mcp.test/mcp' } })
  })
})

describe('whole scans of MCP servers', () => {
  const deps = () => createEngine(config(), { browser: null })

  test('server-everything scans as mcp, completely, named by its serverInfo title', async () => {
    const report = await scanUrl(everything.url, deps(), { phase: 'all' })
    expect(report.urlKind).toBe('mcp')
    expect(report.mcpUrl).toBe(everything.url)
    expect(report.pendingChecks).toEqual([])
    expect(report.name).toBe('Everything Reference Server')
  }, 60_000)

  test('a 2026-07-28-only server and an MCP App are scanned under their own kinds and names', async () => {
    const [modern, app] = await Promise.all([
      scanUrl(url('modern'), deps(), { phase: 'all' }),
      scanUrl(url('mcp-app'), deps(), { phase: 'all' }),
    ])
    expect(modern).toMatchObject({ urlKind: 'mcp', name: 'Modern Rates', pendingChecks: [] })
    expect(app).toMatchObject({ urlKind: 'mcp-app', name: 'Weather App', pendingChecks: [] })
  }, 60_000)
})
