import { describe, expect, test } from 'bun:test'
import type { OauthArtifact } from '../../core/engine/collectors/oauth.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, jsonSnapshot, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './oauth-protected-resource.ts'

const RESOURCE = 'https://acme.test/api/v1'
const PATH_AWARE = 'https://acme.test/.well-known/oauth-protected-resource/api/v1'
const ROOT = 'https://acme.test/.well-known/oauth-protected-resource'
const prm = (document: unknown, overrides: Partial<HttpSnapshot> = {}) =>
  jsonSnapshot(document, { url: PATH_AWARE, ...overrides })
const good = { resource: RESOURCE, authorization_servers: ['https://auth.acme.test'], scopes_supported: ['read'] }

function artifact(response: HttpSnapshot | null, extra: Partial<OauthArtifact> = {}): OauthArtifact {
  return {
    resource: RESOURCE,
    challenges: [],
    protectedResource: [
      {
        url: PATH_AWARE,
        via: 'path-aware',
        expectedResource: RESOURCE,
        response,
        ...(response ? {} : { error: 'timeout' }),
      },
      ...(response && response.status < 300
        ? []
        : [
            { url: ROOT, via: 'root' as const, expectedResource: RESOURCE, response: response ? notFound(ROOT) : null },
          ]),
    ],
    issuer: 'https://auth.acme.test',
    authorizationServer: [],
    signals: { hasApi: true, hasAuth: true, reasons: ['API key docs'] },
    ...extra,
  }
}

describe('oauth-protected-resource', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'recommended',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 6,
    })
    expect(check.meta.appliesTo).toEqual(['domain', 'mcp', 'mcp-app'])
  })

  test.each([
    ['valid path-aware metadata', 'pass', artifact(prm(good))],
    ['resource differs only by host case', 'pass', artifact(prm({ ...good, resource: 'https://ACME.test/api/v1' }))],
    ['a resource covering the guessed API base', 'pass', artifact(prm({ ...good, resource: 'https://acme.test/api' }))],
    ['resource mismatch', 'warning', artifact(prm({ ...good, resource: 'https://acme.test/admin' }))],
    ['resource on another origin', 'warning', artifact(prm({ ...good, resource: 'https://api.acme.test/api/v1' }))],
    ['no resource', 'warning', artifact(prm({ authorization_servers: good.authorization_servers }))],
    ['no authorization_servers', 'warning', artifact(prm({ resource: RESOURCE }))],
    ['an http issuer', 'warning', artifact(prm({ ...good, authorization_servers: ['http://auth.acme.test'] }))],
    [
      'wrong content type',
      'warning',
      artifact(prm(good, { contentType: 'text/plain', headers: { 'content-type': 'text/plain' } })),
    ],
    ['malformed JSON', 'fail', artifact(prm('{"resource": '))],
    [
      'an HTML page',
      'fail',
      artifact(
        snapshot({ url: PATH_AWARE, headers: { 'content-type': 'text/html' }, body: '<!doctype html><html></html>' }),
      ),
    ],
    ['nothing published', 'fail', artifact(notFound(PATH_AWARE))],
  ] as const)('%s -> %s', (_name, expected, oauth) => {
    const outcome = check.run({ oauth }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test.each([
    [
      'a domain without an API',
      artifact(null, { signals: { hasApi: false, hasAuth: false, reasons: [] }, protectedResource: [] }),
    ],
    [
      'an API with no auth signal and nothing published',
      artifact(notFound(PATH_AWARE), { signals: { hasApi: true, hasAuth: false, reasons: [] } }),
    ],
  ])('%s -> na', (_name, oauth) => {
    const outcome = check.run({ oauth }, context)
    expect(outcome.status).toBe('na')
    expect(outcome.naReason).toBeString()
  })

  test('published metadata applies even without other auth signals', () => {
    const oauth = artifact(prm(good), { signals: { hasApi: true, hasAuth: false, reasons: [] } })
    expect(check.run({ oauth }, context).status).toBe('pass')
  })

  test('metadata found through a challenge may name a resource covering the challenged URL', () => {
    const challenged = 'https://acme.test/api/v1/00000000-0000-4000-8000-000000000000'
    const oauth = artifact(null, {
      challenges: [
        {
          url: challenged,
          status: 401,
          header: `Bearer resource_metadata="${PATH_AWARE}"`,
          resourceMetadata: PATH_AWARE,
        },
      ],
      protectedResource: [{ url: PATH_AWARE, via: 'challenge', expectedResource: challenged, response: prm(good) }],
    })
    const outcome = check.run({ oauth }, context)
    expect(outcome.status).toBe('pass')
    expect(outcome.details).toContain('WWW-Authenticate')
  })

  test('every probe failing is an error', () => {
    const oauth = artifact(null)
    oauth.protectedResource = oauth.protectedResource.filter((probe) => probe.via === 'path-aware')
    expect(check.run({ oauth }, context).status).toBe('error')
  })

  test('mcp kinds: a public server publishing metadata is judged strictly against the MCP URL', () => {
    const mcpUrl = 'https://mcp.acme.test/mcp'
    const mcp = { target: { ...context.target, kind: 'mcp' as const, mcpUrl } }
    const url = 'https://mcp.acme.test/.well-known/oauth-protected-resource/mcp'
    const oauth: OauthArtifact = {
      resource: mcpUrl,
      challenges: [],
      protectedResource: [
        {
          url,
          via: 'path-aware',
          expectedResource: mcpUrl,
          response: jsonSnapshot({ ...good, resource: mcpUrl }, { url }),
        },
      ],
      issuer: 'https://auth.acme.test',
      authorizationServer: [],
      signals: null,
    }
    expect(check.run({ oauth }, mcp).status).toBe('pass')
    const origin = {
      ...oauth,
      protectedResource: [
        {
          ...oauth.protectedResource[0]!,
          response: jsonSnapshot({ ...good, resource: 'https://mcp.acme.test/' }, { url }),
        },
      ],
    }
    expect(check.run({ oauth: origin }, mcp).status).toBe('warning')
    const unpublished = { ...oauth, protectedResource: [{ url, via: 'path-aware' as const, response: notFound(url) }] }
    expect(check.run({ oauth: unpublished }, mcp).status).toBe('na')
  })

  describe('mcp kinds: na unless the public server still advertises protection', () => {
    const mcpUrl = 'https://mcp.acme.test/mcp'
    const mcp = { target: { ...context.target, kind: 'mcp' as const, mcpUrl } }
    const pathAware = 'https://mcp.acme.test/.well-known/oauth-protected-resource/mcp'
    const root = 'https://mcp.acme.test/.well-known/oauth-protected-resource'
    const onRoot = (document: unknown, challenges: OauthArtifact['challenges'] = []): OauthArtifact => ({
      resource: mcpUrl,
      challenges,
      protectedResource: [
        { url: pathAware, via: 'path-aware', expectedResource: mcpUrl, response: notFound(pathAware) },
        { url: root, via: 'root', expectedResource: mcpUrl, response: jsonSnapshot(document, { url: root }) },
      ],
      issuer: 'https://auth.acme.test',
      authorizationServer: [],
      signals: null,
    })

    test.each([
      [
        'root metadata for the site API on the same origin',
        onRoot({ ...good, resource: 'https://mcp.acme.test/api' }),
        'na',
      ],
      ['root metadata for another origin', onRoot({ ...good, resource: 'https://api.acme.test/' }), 'na'],
      ['root metadata naming the MCP URL', onRoot({ ...good, resource: mcpUrl }), 'pass'],
      [
        'root metadata naming the whole origin (not identical: clients reject it)',
        onRoot({ ...good, resource: 'https://mcp.acme.test/' }),
        'warning',
      ],
      ['root metadata without a resource', onRoot({ authorization_servers: good.authorization_servers }), 'warning'],
      [
        'a later 403 challenge makes even foreign root metadata count',
        onRoot({ ...good, resource: 'https://mcp.acme.test/api' }, [
          { url: mcpUrl, status: 403, header: 'Bearer error="insufficient_scope"' },
        ]),
        'warning',
      ],
    ] as const)('%s -> %s', (_name, oauth, expected) => {
      const outcome = check.run({ oauth }, mcp)
      expect(outcome.status).toBe(expected)
      if (expected === 'na') expect(outcome.naReason).toContain('public')
    })
  })

  test('details and recommendation are specific', () => {
    const outcome = check.run({ oauth: artifact(notFound(PATH_AWARE)) }, context)
    expect(outcome.details).toContain(PATH_AWARE)
    expect(outcome.recommendation).toContain(RESOURCE)
  })
})
