import { describe, expect, test } from 'bun:test'
import { mcpServer, modernServer } from '../../../tests/support/mcp-artifacts.ts'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import type { ScanKind } from '../check.ts'
import type { McpServerArtifact } from './mcp.ts'
import { mcpServerCardCollector } from './mcp-server-card.ts'

const { origin, routes, requests } = recordingSite()

const CARD = { name: 'test.acme/anvils', version: '1.4.0', description: 'Anvils' }

function collect(kind: ScanKind, mcp?: McpServerArtifact) {
  return mcpServerCardCollector.collect(collectorContext({ target: localTarget(origin, kind), artifacts: { mcp } }))
}

describe('mcpServerCardCollector', () => {
  test('mcp kinds: <mcp-url>/server-card first, with the runtime identity from the handshake', async () => {
    routes['/mcp/server-card'] = () =>
      Response.json(CARD, { headers: { 'content-type': 'application/mcp-server-card+json' } })
    const artifact = await collect('mcp', mcpServer())
    expect(requests.map((request) => request.path)).toEqual(['/mcp/server-card'])
    expect(artifact.found).toMatchObject({ url: `${origin}/mcp/server-card`, via: 'mcp-url', card: CARD })
    expect(artifact.runtime).toEqual({ name: 'acme-anvils', version: '1.4.0', protocolVersion: '2025-11-25' })
  })

  test('mcp kinds: the runtime identity comes with a card found at the well-known path too, and from server/discover', async () => {
    routes['/.well-known/mcp/server-card.json'] = () => Response.json(CARD)
    const artifact = await collect('mcp-app', modernServer())
    expect(artifact.probes.map((probe) => probe.via)).toEqual(['mcp-url', 'well-known'])
    expect(artifact.runtime).toEqual({ name: 'acme-anvils', version: '2.0.0', protocolVersion: '2026-07-28' })
  })

  test('mcp kinds: no runtime identity when the MCP collection failed or the handshake did', async () => {
    expect((await collect('mcp')).runtime).toBeNull()
    expect((await collect('mcp', mcpServer({ handshake: null }))).runtime).toBeNull()
  })

  test('domains have no runtime identity', async () => {
    const artifact = await collect('domain', mcpServer())
    expect(artifact.runtime).toBeNull()
    expect(artifact.found).toBeNull()
  })
})
