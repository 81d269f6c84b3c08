import { describe, expect, test } from 'bun:test'
import { mcpServer } from '../../../tests/support/mcp-artifacts.ts'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import type { ScanKind } from '../check.ts'
import type { ApiSignals } from './api-signals.ts'
import type { McpServerArtifact } from './mcp.ts'
import type { OpenapiArtifact } from './openapi.ts'
import {
  authorizationServerMetadataUrls,
  oauthCollector,
  protectedResourceMetadataUrls,
  resourceMetadataParam,
} from './oauth.ts'

const { origin, routes, requests } = recordingSite()

const signals = (hasApi: boolean, hasAuth = hasApi): ApiSignals => ({
  hasApi,
  rest: hasApi,
  graphql: false,
  reasons: [],
  hasAuth,
  authReasons: hasAuth ? ['401 on /api/v1'] : [],
})
const openapi = (servers: unknown[]): OpenapiArtifact => ({
  source: 'guessed',
  url: `${origin}/openapi.json`,
  response: null,
  document: { openapi: '3.1.0', servers },
  valid: true,
  errors: [],
  tried: [],
})

function collect(
  kind: ScanKind,
  artifacts: { apiSignals?: ApiSignals; openapi?: OpenapiArtifact | null; mcp?: McpServerArtifact } = {},
) {
  // Optional inputs that are not given fail as not collected: that must not fail this artifact.
  const { apiSignals, openapi, mcp } = artifacts
  return oauthCollector.collect(
    collectorContext({
      target: localTarget(origin, kind),
      artifacts: { apiSignals, openapi: openapi ?? undefined, mcp },
    }),
  )
}

const json = (value: unknown) => () => Response.json(value)

describe('oauthCollector', () => {
  test('domain: follows the challenge of the API base to its metadata, then the issuer in RFC 8414 / OIDC order', async () => {
    const prm = `${origin}/.well-known/oauth-protected-resource/api/v1`
    routes['/api/v1'] = () =>
      new Response('', {
        status: 401,
        headers: { 'www-authenticate': `Bearer resource_metadata="${prm}", scope="read"` },
      })
    routes['/.well-known/oauth-protected-resource/api/v1'] = json({
      resource: `${origin}/api/v1`,
      authorization_servers: [`${origin}/tenant1`],
    })
    routes['/.well-known/openid-configuration/tenant1'] = json({ issuer: `${origin}/tenant1` })
    const artifact = await collect('domain', { apiSignals: signals(true), openapi: openapi([{ url: '/api/v1' }]) })
    expect(artifact.resource).toBe(`${origin}/api/v1`)
    expect(artifact.challenges).toEqual([
      {
        url: `${origin}/api/v1`,
        status: 401,
        header: `Bearer resource_metadata="${prm}", scope="read"`,
        resourceMetadata: prm,
      },
    ])
    expect(
      artifact.protectedResource.map((probe) => [probe.via, probe.url, probe.expectedResource, probe.response?.status]),
    ).toEqual([['challenge', prm, `${origin}/api/v1`, 200]])
    expect(artifact).toMatchObject({
      issuer: `${origin}/tenant1`,
      issuerSource: 'protected-resource',
      signals: { hasApi: true, hasAuth: true },
    })
    expect(
      artifact.authorizationServer.map((probe) => [probe.kind, probe.url.replace(origin, ''), probe.response?.status]),
    ).toEqual([
      ['oauth-authorization-server', '/.well-known/oauth-authorization-server/tenant1', 404],
      ['openid-configuration', '/.well-known/openid-configuration/tenant1', 200],
    ])
  })

  test('domain without metadata: tries the root well-known URL and the origin as issuer', async () => {
    const artifact = await collect('domain', { apiSignals: signals(true, false) })
    expect(artifact.resource).toBe(origin)
    expect(artifact.protectedResource.map((probe) => [probe.via, probe.response?.status])).toEqual([['root', 404]])
    expect(artifact).toMatchObject({ issuer: origin, issuerSource: 'origin' })
    expect(artifact.authorizationServer.map((probe) => probe.url.replace(origin, ''))).toEqual([
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ])
  })

  test('an off-site or templated OpenAPI server falls back to the origin', async () => {
    expect(
      (
        await collect('domain', {
          apiSignals: signals(true),
          openapi: openapi([{ url: 'https://api.other.example/v1' }]),
        })
      ).resource,
    ).toBe(origin)
    expect(
      (await collect('domain', { apiSignals: signals(true), openapi: openapi([{ url: '{scheme}://x/v1' }]) })).resource,
    ).toBe(origin)
  })

  test('a domain without an API is not probed', async () => {
    const artifact = await collect('domain', { apiSignals: signals(false) })
    expect(artifact).toMatchObject({
      challenges: [],
      protectedResource: [],
      issuer: null,
      authorizationServer: [],
      signals: { hasApi: false },
    })
    expect(requests).toEqual([])
  })

  test('mcp kinds: path-aware then root metadata for the MCP URL, and no issuer without metadata', async () => {
    const artifact = await collect('mcp')
    expect(artifact.resource).toBe(`${origin}/mcp`)
    expect(artifact.protectedResource.map((probe) => probe.url.replace(origin, ''))).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ])
    expect(artifact.issuer).toBeNull()
    expect(artifact.authorizationServer).toEqual([])
  })

  test('mcp kinds: a challenge the MCP collector met later (partial protection) leads to its metadata', async () => {
    const prm = `${origin}/.well-known/oauth-protected-resource/mcp`
    routes['/.well-known/oauth-protected-resource/mcp'] = json({
      resource: `${origin}/mcp`,
      authorization_servers: [`${origin}/auth`],
    })
    const header = `Bearer error="insufficient_scope", scope="orders:write", resource_metadata="${prm}"`
    const mcp = mcpServer({
      challenges: [
        { status: 403, header },
        { status: 403, header },
        { status: 403, header: 'Basic realm="x"' },
      ],
    })
    const artifact = await collect('mcp', { mcp })
    expect(artifact.challenges).toEqual([{ url: `${origin}/mcp`, status: 403, header, resourceMetadata: prm }])
    expect(artifact.protectedResource.map((probe) => [probe.via, probe.url, probe.response?.status])).toEqual([
      ['challenge', prm, 200],
    ])
    expect(artifact.issuer).toBe(`${origin}/auth`)
  })
})

describe('oauth URL derivation', () => {
  test('RFC 9728 §3.1 protected resource metadata URLs', () => {
    expect(protectedResourceMetadataUrls('https://ex.com/public/mcp')).toEqual([
      { url: 'https://ex.com/.well-known/oauth-protected-resource/public/mcp', via: 'path-aware' },
      { url: 'https://ex.com/.well-known/oauth-protected-resource', via: 'root' },
    ])
    expect(protectedResourceMetadataUrls('https://ex.com/')).toEqual([
      { url: 'https://ex.com/.well-known/oauth-protected-resource', via: 'root' },
    ])
  })

  test('authorization server metadata order (docs/checks.md §8)', () => {
    expect(authorizationServerMetadataUrls('https://auth.ex.com/tenant1').map((entry) => entry.url)).toEqual([
      'https://auth.ex.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.ex.com/.well-known/openid-configuration/tenant1',
      'https://auth.ex.com/tenant1/.well-known/openid-configuration',
    ])
    expect(authorizationServerMetadataUrls('https://auth.ex.com/').map((entry) => entry.url)).toEqual([
      'https://auth.ex.com/.well-known/oauth-authorization-server',
      'https://auth.ex.com/.well-known/openid-configuration',
    ])
  })

  test('resource_metadata from a challenge, quoted or not', () => {
    expect(
      resourceMetadataParam('Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"'),
    ).toBe('https://x/.well-known/oauth-protected-resource')
    expect(resourceMetadataParam('Bearer error="insufficient_scope", resource_metadata=https://x/prm')).toBe(
      'https://x/prm',
    )
    expect(resourceMetadataParam('Bearer realm="x"')).toBeUndefined()
  })
})
