import { describe, expect, test } from 'bun:test'
import { collectorContext, localTarget, recordingSite, scanSession } from '../../../tests/support/collector.ts'
import type { ScanKind } from '../check.ts'
import { fetchSnapshot } from '../snapshot.ts'
import type { AiCatalogArtifact } from './ai-catalog.ts'
import { corsCollector } from './cors.ts'
import type { OpenapiArtifact } from './openapi.ts'

const site = recordingSite()
const { origin } = site

/**
 * A scan of `kind` where the documents named in `existing` (artifact key -> path) were found; they are fetched on
 * the session the collector then uses, as the runner would have.
 */
async function collect(
  kind: ScanKind,
  existing: Partial<Record<'llmsTxt' | 'aiCatalog' | 'apiCatalog' | 'openapi', string>> = {},
) {
  const http = scanSession()
  const snapshotOf = (path: string | undefined) => (path ? fetchSnapshot(http, `${origin}${path}`) : undefined)
  const [llmsTxt, aiCatalog, apiCatalog] = await Promise.all([
    snapshotOf(existing.llmsTxt),
    snapshotOf(existing.aiCatalog),
    snapshotOf(existing.apiCatalog),
  ])
  const artifacts = {
    llmsTxt,
    aiCatalog: aiCatalog && ({ response: aiCatalog, document: {}, referenced: [] } as unknown as AiCatalogArtifact),
    apiCatalog: apiCatalog && { get: apiCatalog, head: null, linkset: null, headLinks: [] },
    openapi:
      existing.openapi === undefined
        ? undefined
        : ({ url: `${origin}${existing.openapi}`, document: { openapi: '3.1.0' } } as unknown as OpenapiArtifact),
  }
  return corsCollector.collect(collectorContext({ target: localTarget(origin, kind), http, artifacts }))
}

/** The requests that carried the Origin the CORS probes send. */
const requestsWithOrigin = () =>
  site.requests.filter((request) => request.headers.get('origin') === 'https://agent.example')

describe('corsCollector', () => {
  test('domain: sends Origin to each existing public document and records the CORS headers', async () => {
    site.routes['/llms.txt'] = () => new Response('# Acme', { headers: { 'access-control-allow-origin': '*' } })
    site.routes['/openapi.json'] = () => Response.json({ openapi: '3.1.0' })
    const artifact = await collect('domain', {
      llmsTxt: '/llms.txt',
      openapi: '/openapi.json',
      aiCatalog: '/.well-known/ai-catalog.json',
    })
    expect(artifact.probes.map((probe) => [probe.resource, probe.status, probe.allowOrigin])).toEqual([
      ['llms.txt', 200, '*'],
      ['openapi', 200, null],
    ])
    expect(
      requestsWithOrigin()
        .map((request) => request.path)
        .sort(),
    ).toEqual(['/llms.txt', '/openapi.json'])
  })

  test('mcp kinds: a preflight and an initialize POST to the MCP endpoint', async () => {
    site.otherwise = (request) => {
      const cors = { 'access-control-allow-origin': 'https://agent.example' }
      if (request.method === 'OPTIONS') {
        return new Response(null, {
          status: 204,
          headers: {
            ...cors,
            'access-control-allow-methods': 'POST, GET',
            'access-control-allow-headers': 'content-type, mcp-protocol-version',
          },
        })
      }
      return Response.json({ jsonrpc: '2.0', id: 1, result: {} }, { headers: { ...cors, 'mcp-session-id': 'abc' } })
    }
    const artifact = await collect('mcp')
    expect(artifact.probes).toMatchObject([
      {
        resource: 'mcp-preflight',
        status: 204,
        allowOrigin: 'https://agent.example',
        allowMethods: 'POST, GET',
        allowHeaders: 'content-type, mcp-protocol-version',
        requestHeaders: ['content-type', 'mcp-protocol-version', 'mcp-session-id'],
      },
      { resource: 'mcp-initialize', status: 200, sessionId: true, exposeHeaders: null },
    ])
    const preflight = requestsWithOrigin().find((request) => request.method === 'OPTIONS')
    expect(preflight?.path).toBe('/mcp')
    expect(preflight?.headers.get('access-control-request-headers')).toBe(
      'content-type, mcp-protocol-version, mcp-session-id',
    )
  })

  test('nothing public: no probes', async () => {
    expect((await collect('domain')).probes).toEqual([])
    expect(site.requests).toEqual([])
  })
})
