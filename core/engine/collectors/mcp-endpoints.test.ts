import { describe, expect, test } from 'bun:test'
import {
  collectorContext,
  type FixtureHandler,
  type LiveCollectors,
  localTarget,
  recordingSite,
} from '../../../tests/support/collector.ts'
import { SERVER_CARD_SCHEMA } from '../lib/server-card.ts'
import { aiCatalogCollector } from './ai-catalog.ts'
import { apiCatalogCollector } from './api-catalog.ts'
import { homepageCollector } from './homepage.ts'
import { linkHeaderCollector } from './link-header.ts'
import { mcpEndpointsCollector } from './mcp-endpoints.ts'
import { mcpServerCardCollector } from './mcp-server-card.ts'
import { robotsCollector } from './robots.ts'
import { llmsTxtCollector } from './llms-txt.ts'

/** The fixture site: a home page; each test adds its routes. */
const site = recordingSite({ routes: { '/': () => page('<p>Welcome</p>') } })
const { origin, routes } = site

const page = (body: string) =>
  new Response(`<!doctype html><html><body>${body}</body></html>`, { headers: { 'content-type': 'text/html' } })
const json = (value: unknown, contentType = 'application/json', headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(value), { headers: { 'content-type': contentType, ...headers } })
const INITIALIZED = {
  jsonrpc: '2.0',
  id: 1,
  result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'anvils', version: '1.0.0' } },
}

/** A legacy-era MCP endpoint: initialize over POST, answered as JSON or SSE. */
const mcpServer =
  (mode: 'json' | 'sse'): FixtureHandler =>
  async (request) => {
    if (request.method === 'DELETE') return new Response(null, { status: 204 })
    const message = (await request.json()) as { method?: string }
    if (message.method !== 'initialize')
      return json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'bad' } }, 'application/json')
    if (mode === 'json') return json(INITIALIZED, 'application/json', { 'mcp-session-id': 'session-1' })
    return new Response(`event: message\ndata: ${JSON.stringify(INITIALIZED)}\n\n`, {
      headers: { 'content-type': 'text/event-stream' },
    })
  }

const COLLECTORS: LiveCollectors = {
  robots: robotsCollector,
  homepage: homepageCollector,
  llmsTxt: llmsTxtCollector,
  apiCatalog: apiCatalogCollector,
  linkHeader: linkHeaderCollector,
  aiCatalog: aiCatalogCollector,
  mcpServerCard: mcpServerCardCollector,
  mcpEndpoints: mcpEndpointsCollector,
}

/** A scan of the fixture site: every artifact collected once, shared, as the runner does. */
function scan() {
  return collectorContext({ target: localTarget(origin), collectors: COLLECTORS })
}

describe('mcpEndpointsCollector', () => {
  test('a server card names the endpoint; initialize answered as JSON, the session is closed', async () => {
    routes['/.well-known/mcp/server-card.json'] = () =>
      json(
        {
          $schema: SERVER_CARD_SCHEMA,
          name: 'test.acme/anvils',
          version: '1.0.0',
          description: 'Anvils',
          remotes: [{ type: 'streamable-http', url: `${origin}/v1/mcp` }],
        },
        'application/mcp-server-card+json',
      )
    routes['/v1/mcp'] = mcpServer('json')
    const context = scan()
    const { probes } = await context.get('mcpEndpoints')
    expect(probes).toEqual([
      {
        url: `${origin}/v1/mcp`,
        source: 'server-card',
        answered: true,
        authRequired: false,
        status: 200,
        contentType: 'application/json',
        serverName: 'anvils',
      },
    ])
    expect(site.requests).toContainEqual(expect.objectContaining({ method: 'DELETE', path: '/v1/mcp' }))
    expect((await context.get('mcpServerCard')).found).toMatchObject({
      via: 'well-known',
      url: `${origin}/.well-known/mcp/server-card.json`,
    })
  })

  test('a card inlined in the AI catalog; initialize answered over SSE', async () => {
    routes['/.well-known/ai-catalog.json'] = () =>
      json(
        {
          specVersion: '1.0',
          entries: [
            {
              identifier: 'urn:air:127.0.0.1:mcp:anvils',
              displayName: 'Anvils',
              type: 'application/mcp-server-card+json',
              data: { remotes: [{ type: 'streamable-http', url: `${origin}/stream/mcp` }] },
            },
          ],
        },
        'application/ai-catalog+json',
      )
    routes['/stream/mcp'] = mcpServer('sse')
    const context = scan()
    const { probes } = await context.get('mcpEndpoints')
    expect(probes.map((probe) => [probe.source, probe.url, probe.answered, probe.serverName])).toEqual([
      ['server-card', `${origin}/stream/mcp`, true, 'anvils'],
    ])
    expect((await context.get('mcpServerCard')).found).toMatchObject({ via: 'ai-catalog', inline: true })
  })

  test('an llms.txt link answering 403 with a Bearer challenge is auth-required', async () => {
    routes['/llms.txt'] = () =>
      new Response(`# Acme\n\n## MCP\n- [MCP server](${origin}/mcp)\n`, {
        headers: { 'content-type': 'text/markdown' },
      })
    routes['/mcp'] = () =>
      new Response('forbidden', {
        status: 403,
        headers: { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"` },
      })
    const { probes } = await scan().get('mcpEndpoints')
    expect(probes).toEqual([
      {
        url: `${origin}/mcp`,
        source: 'llms-txt',
        answered: false,
        authRequired: true,
        status: 403,
        contentType: 'text/plain',
      },
    ])
  })

  test('a homepage link to a docs page does not stop the blind probe', async () => {
    routes['/'] = () => page('<a href="/docs/mcp">Our MCP docs</a>')
    routes['/docs/mcp'] = () => page('<h1>MCP</h1>')
    routes['/api/mcp'] = () => new Response('unauthorized', { status: 401 })
    const { probes } = await scan().get('mcpEndpoints')
    expect(
      probes.map((probe) => [probe.source, probe.url, probe.status, probe.answered || probe.authRequired]),
    ).toEqual([
      ['homepage', `${origin}/docs/mcp`, 200, false],
      ['blind-probe', `${origin}/mcp`, 404, false],
      ['blind-probe', `${origin}/api/mcp`, 401, true],
    ])
  })

  test('Link header and API catalog entries typed as MCP are probed', async () => {
    routes['/'] = () =>
      new Response('<!doctype html><html></html>', {
        headers: {
          'content-type': 'text/html',
          link: `<${origin}/linked>; rel="service"; type="application/mcp+json"`,
        },
      })
    routes['/.well-known/api-catalog'] = () =>
      json(
        {
          linkset: [
            {
              anchor: `${origin}/api`,
              'service-desc': [{ href: `${origin}/catalogued`, type: 'application/mcp+json' }],
            },
          ],
        },
        'application/linkset+json',
      )
    routes['/linked'] = mcpServer('json')
    routes['/catalogued'] = mcpServer('json')
    const { probes } = await scan().get('mcpEndpoints')
    expect(probes.map((probe) => [probe.source, probe.url, probe.answered])).toEqual([
      ['api-catalog', `${origin}/catalogued`, true],
      ['link-header', `${origin}/linked`, true],
    ])
  })

  test('nothing advertised, nothing at the blind paths', async () => {
    const { probes } = await scan().get('mcpEndpoints')
    expect(probes.map((probe) => [probe.source, probe.status, probe.answered])).toEqual([
      ['blind-probe', 404, false],
      ['blind-probe', 404, false],
    ])
  })
})
