import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../config.ts'
import { createOutboundClient } from '../../http/client.ts'
import { ScanSession } from '../../http/session.ts'
import type { ArtifactKey, ArtifactMap } from '../artifacts.ts'
import { type CollectorContext, CollectorError, type ScanKind } from '../contract.ts'
import { fetchSnapshot } from '../snapshot.ts'
import { corsCollector } from './cors.ts'

/** Every request with its Origin and preflight headers; a handler each test replaces. */
let seen: { method: string; path: string; origin: string | null; requestHeaders: string | null }[] = []
let handle: (request: Request) => Response = () => new Response('')
let server: ReturnType<typeof Bun.serve>
let origin: string

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => {
      seen.push({
        method: request.method,
        path: new URL(request.url).pathname,
        origin: request.headers.get('origin'),
        requestHeaders: request.headers.get('access-control-request-headers'),
      })
      return handle(request)
    },
  })
  origin = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))
beforeEach(() => {
  seen = []
})

function collect(kind: ScanKind, existing: Partial<Record<'llmsTxt' | 'aiCatalog' | 'apiCatalog' | 'openapi', string>> = {}) {
  const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true' })
  const http = new ScanSession(createOutboundClient(config, null), config)
  const snapshotOf = (path: string) => fetchSnapshot(http, `${origin}${path}`)
  const context: CollectorContext = {
    target: { kind, domain: '127.0.0.1', origin, url: `${origin}/`, ...(kind === 'domain' ? {} : { mcpUrl: `${origin}/mcp` }) },
    config,
    http,
    browser: null,
    get: async <K extends ArtifactKey>(key: K) => {
      const path = existing[key as keyof typeof existing]
      if (!path) throw new CollectorError(`${key}: not collected in this test`)
      if (key === 'llmsTxt') return (await snapshotOf(path)) as ArtifactMap[K]
      if (key === 'aiCatalog') return { response: await snapshotOf(path), document: {}, referenced: [] } as unknown as ArtifactMap[K]
      if (key === 'apiCatalog') return { get: await snapshotOf(path), head: null, linkset: null, headLinks: [] } as unknown as ArtifactMap[K]
      return { url: `${origin}${path}`, document: { openapi: '3.1.0' } } as unknown as ArtifactMap[K]
    },
  }
  return corsCollector.collect(context)
}

describe('corsCollector', () => {
  test('domain: sends Origin to each existing public document and records the CORS headers', async () => {
    handle = (request) => {
      const path = new URL(request.url).pathname
      if (path === '/llms.txt') return new Response('# Acme', { headers: { 'access-control-allow-origin': '*' } })
      if (path === '/openapi.json') return Response.json({ openapi: '3.1.0' })
      return new Response('Not found', { status: 404 })
    }
    const artifact = await collect('domain', { llmsTxt: '/llms.txt', openapi: '/openapi.json', aiCatalog: '/.well-known/ai-catalog.json' })
    expect(artifact.probes.map((probe) => [probe.resource, probe.status, probe.allowOrigin])).toEqual([
      ['llms.txt', 200, '*'],
      ['openapi', 200, null],
    ])
    const withOrigin = seen.filter((request) => request.origin === 'https://agent.example').map((request) => request.path)
    expect(withOrigin.sort()).toEqual(['/llms.txt', '/openapi.json'])
  })

  test('mcp kinds: a preflight and an initialize POST to the MCP endpoint', async () => {
    handle = (request) => {
      const cors = { 'access-control-allow-origin': 'https://agent.example' }
      if (request.method === 'OPTIONS') {
        return new Response(null, {
          status: 204,
          headers: { ...cors, 'access-control-allow-methods': 'POST, GET', 'access-control-allow-headers': 'content-type, mcp-protocol-version' },
        })
      }
      return Response.json({ jsonrpc: '2.0', id: 1, result: {} }, { headers: { ...cors, 'mcp-session-id': 'abc' } })
    }
    const artifact = await collect('mcp')
    expect(artifact.probes).toMatchObject([
      { resource: 'mcp-preflight', status: 204, allowOrigin: 'https://agent.example', allowMethods: 'POST, GET', allowHeaders: 'content-type, mcp-protocol-version' },
      { resource: 'mcp-initialize', status: 200, sessionId: true, exposeHeaders: null },
    ])
    const preflight = seen.find((request) => request.method === 'OPTIONS')
    expect(preflight).toMatchObject({ path: '/mcp', origin: 'https://agent.example', requestHeaders: 'content-type, mcp-protocol-version, mcp-session-id' })
  })

  test('nothing public: no probes', async () => {
    handle = () => new Response('Not found', { status: 404 })
    expect((await collect('domain')).probes).toEqual([])
    expect(seen).toEqual([])
  })
})
