/**
 * One MCP App rule (classifyMcpServer): a server gets the same kind scanned directly as a URL (kind detection) and
 * found through the domain that serves it (fan-out). Each server here sits where the two paths once disagreed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js'
import { createEngine } from '../app/engine.ts'
import type { ScanKind } from '../core/engine/check.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { homePage, notFound, serveSdk } from './fixtures/mcp/kit.ts'
import { testConfig } from './helpers.ts'

interface KindFixture {
  host: string
  capabilities: ServerCapabilities
  resources: { uri: string; name: string; mimeType: string }[]
}

const FIXTURES: KindFixture[] = [
  // The UI extension declared where servers put it before capabilities had `extensions`.
  {
    host: 'experimental-ui.kind.test',
    capabilities: { tools: {}, experimental: { 'io.modelcontextprotocol/ui': {} } },
    resources: [],
  },
  // The MCP App type written with other case and spacing: the same media type (RFC 9110 §8.3.1).
  {
    host: 'mime-variant.kind.test',
    capabilities: { tools: {}, resources: {} },
    resources: [{ uri: 'ui://clock/face.html', name: 'Clock face', mimeType: 'Text/HTML; profile=mcp-app' }],
  },
  // Neither: a plain server stays mcp both ways.
  {
    host: 'plain.kind.test',
    capabilities: { tools: {}, resources: {} },
    resources: [{ uri: 'file:///notes.txt', name: 'Notes', mimeType: 'text/plain' }],
  },
]

function kindServer(fixture: KindFixture): Server {
  const server = new Server(
    { name: `test.mcp/${fixture.host}`, version: '1.0.0' },
    { capabilities: fixture.capabilities },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: 'get_time',
        description: 'The current time in UTC, as an ISO 8601 string.',
        inputSchema: { type: 'object' as const },
      },
    ],
  }))
  if (fixture.capabilities.resources)
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: fixture.resources }))
  return server
}

const servers: { stop(): Promise<void> }[] = []
const resolveRules: string[] = []

beforeAll(() => {
  for (const fixture of FIXTURES) {
    const mcp = serveSdk(() => kindServer(fixture), { sessions: false })
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(request) {
        const { pathname } = new URL(request.url)
        if (pathname === '/mcp') return mcp.handle(request)
        return pathname === '/' ? homePage(fixture.host, 'Tells the time.') : notFound()
      },
    })
    servers.push({ stop: async () => void (await Promise.all([mcp.close(), server.stop(true)])) })
    resolveRules.push(`${fixture.host}:443:127.0.0.1:${server.port}`)
  }
})
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
})

const deps = () => createEngine(testConfig({ SCANNER_RESOLVE: resolveRules.join(',') }), { browser: null })

/** The kind fan-out gave the server at `mcpUrl`: mcp-app when any check it ran does not apply to plain mcp. */
function fannedOutKind(report: ScanReport, mcpUrl: string, engine: ReturnType<typeof deps>): ScanKind | null {
  const rows = report.layers.flatMap((layer) => layer.checks).filter((check) => check.mcpUrl === mcpUrl)
  if (rows.length === 0) return null
  return rows.some((row) => !engine.registry.appliesTo(engine.registry.get(row.id)!, 'mcp')) ? 'mcp-app' : 'mcp'
}

describe('an MCP server gets one kind, scanned directly or through its domain', () => {
  for (const fixture of FIXTURES) {
    test(fixture.host, async () => {
      const engine = deps()
      const mcpUrl = `https://${fixture.host}/mcp`
      const [direct, viaDomain] = await Promise.all([scanUrl(mcpUrl, engine), scanUrl(fixture.host, engine)])
      expect(direct.urlKind).toBe(fixture.host.startsWith('plain.') ? 'mcp' : 'mcp-app')
      expect(viaDomain.urlKind).toBe('domain')
      expect(fannedOutKind(viaDomain, mcpUrl, engine)).toBe(direct.urlKind)
    }, 60_000)
  }
})
