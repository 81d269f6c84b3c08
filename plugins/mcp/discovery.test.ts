import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Elysia } from 'elysia'
import type { AppHandle } from '../../app/app.ts'
import { CONTRACT_VERSION } from '../../core/version.ts'
import { classifyServerCard, SERVER_CARD_SCHEMA } from '../../core/engine/lib/server-card.ts'
import { request, testApp } from '../../tests/helpers.ts'
import { docsPlugin } from '../docs/public.ts'
import { reverseDns } from './discovery.ts'
import { mcpPlugin } from './index.ts'

const mount = (root: AppHandle['pieces']) => new Elysia().use(docsPlugin(root.config, root.errors)).use(mcpPlugin(root))
let handle: AppHandle
let app: ReturnType<typeof mount>

beforeAll(async () => {
  handle = await testApp({ PUBLIC_BASE_URL: 'https://scan.example.com' })
  app = mount(handle.pieces)
})
afterAll(() => handle.close())

const get = (path: string, headers: Record<string, string> = {}) => app.handle(request(path, { headers }))

describe('MCP server card (SEP-2127)', () => {
  test.each(['/api/mcp/server-card', '/.well-known/mcp/server-card.json'])(
    '%s is a valid card with the contract version',
    async (path) => {
      const response = await get(path)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json')
      const card = await response.json()
      expect(card).toEqual({
        $schema: SERVER_CARD_SCHEMA,
        name: 'com.example.scan/agent-readiness',
        version: CONTRACT_VERSION,
        title: 'Agent Readiness',
        description: expect.any(String),
        websiteUrl: 'https://scan.example.com',
        remotes: [
          {
            type: 'streamable-http',
            url: 'https://scan.example.com/api/mcp',
            supportedProtocolVersions: expect.arrayContaining(['2025-11-25', '2025-06-18']),
          },
        ],
      })
      // Judged by the scanner's own server-card check as a current card with no problems.
      expect(classifyServerCard(card)).toEqual({ shape: 'sep-2127', problems: [] })
    },
  )

  test('CORS and caching headers; If-None-Match gets 304; the preflight is answered', async () => {
    const response = await get('/api/mcp/server-card')
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': 'Content-Type, If-None-Match',
      'access-control-expose-headers': 'ETag',
      'cache-control': 'public, max-age=3600',
    })
    const etag = response.headers.get('etag')!
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    const again = await get('/.well-known/mcp/server-card.json', { 'if-none-match': `W/${etag}` })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('access-control-expose-headers')).toBe('ETag')
    expect(await again.text()).toBe('')

    const preflight = await app.handle(
      request('/api/mcp/server-card', {
        method: 'OPTIONS',
        headers: { origin: 'https://agent.example', 'access-control-request-headers': 'if-none-match' },
      }),
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type, If-None-Match')
  })

  test('the namespace is the reverse-DNS form of the host', () => {
    expect(reverseDns('scan.example.com')).toBe('com.example.scan')
    expect(reverseDns('localhost')).toBe('localhost')
  })
})

describe('well-known pointers', () => {
  test('/.well-known/mcp.json is the legacy SEP-1649 pointer to the same server', async () => {
    const response = await get('/.well-known/mcp.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const pointer = await response.json()
    expect(pointer).toMatchObject({
      serverInfo: { name: 'agent-readiness', version: CONTRACT_VERSION },
      transport: { type: 'streamable-http', endpoint: '/api/mcp' },
      serverCard: 'https://scan.example.com/api/mcp/server-card',
    })
    expect(classifyServerCard(pointer).shape).toBe('legacy')
    expect((await get('/.well-known/mcp.json', { 'if-none-match': response.headers.get('etag')! })).status).toBe(304)
  })

  test('/.well-known/openid-configuration only points at the MCP endpoint and names no token machinery', async () => {
    const response = await get('/.well-known/openid-configuration')
    expect(response.status).toBe(200)
    const descriptor = await response.json()
    expect(descriptor).toMatchObject({
      mcp_endpoint: 'https://scan.example.com/api/mcp',
      mcp_server_card: 'https://scan.example.com/api/mcp/server-card',
      issues_tokens: false,
      grant_types_supported: [],
      response_types_supported: [],
    })
    for (const field of [
      'issuer',
      'authorization_endpoint',
      'token_endpoint',
      'registration_endpoint',
      'jwks_uri',
      'userinfo_endpoint',
    ]) {
      expect(descriptor).not.toHaveProperty(field)
    }
  })
})

test('the routes are documented in a valid OpenAPI document', async () => {
  const document = await (await get('/openapi.json')).json()
  await SwaggerParser.validate(structuredClone(document))
  expect(Object.keys(document.paths['/api/mcp']).sort()).toEqual(['delete', 'get', 'post'])
  for (const path of ['/api/mcp/server-card', '/.well-known/mcp/server-card.json', '/.well-known/mcp.json']) {
    expect(document.paths[path].get).toBeDefined()
  }
  const openid = document.paths['/.well-known/openid-configuration'].get
  expect(openid.description).toContain('no tokens are issued')
  expect(Object.keys(openid.responses['200'].content['application/json'].schema.properties)).not.toContain(
    'token_endpoint',
  )
})
