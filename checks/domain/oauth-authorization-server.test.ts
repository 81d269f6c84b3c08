import { describe, expect, test } from 'bun:test'
import type { OauthArtifact } from '../../core/engine/collectors/oauth.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context, jsonSnapshot, notFound } from '../../tests/support/artifacts.ts'
import check from './oauth-authorization-server.ts'

const ISSUER = 'https://auth.acme.test'
const AS_URL = `${ISSUER}/.well-known/oauth-authorization-server`
const OIDC_URL = `${ISSUER}/.well-known/openid-configuration`
const PRM_URL = 'https://acme.test/.well-known/oauth-protected-resource'
const metadata = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/authorize`,
  token_endpoint: `${ISSUER}/token`,
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
  registration_endpoint: `${ISSUER}/register`,
  authorization_response_iss_parameter_supported: true,
}

function artifact(
  document: unknown,
  kind: 'oauth-authorization-server' | 'openid-configuration' = 'oauth-authorization-server',
  extra: Partial<OauthArtifact> = {},
): OauthArtifact {
  const url = kind === 'openid-configuration' ? OIDC_URL : AS_URL
  return {
    resource: 'https://acme.test',
    challenges: [],
    protectedResource: [
      {
        url: PRM_URL,
        via: 'root',
        response: jsonSnapshot({ resource: 'https://acme.test', authorization_servers: [ISSUER] }, { url: PRM_URL }),
      },
    ],
    issuer: ISSUER,
    issuerSource: 'protected-resource',
    authorizationServer: [
      ...(kind === 'openid-configuration'
        ? [{ url: AS_URL, kind: 'oauth-authorization-server' as const, response: notFound(AS_URL) }]
        : []),
      { url, kind, response: jsonSnapshot(document, { url }) },
    ],
    signals: { hasApi: true, hasAuth: true, reasons: [] },
    ...extra,
  }
}

const oidc = {
  ...metadata,
  jwks_uri: `${ISSUER}/jwks`,
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: ['RS256'],
}
const { code_challenge_methods_supported: _pkce, ...withoutPkce } = oidc

describe('oauth-authorization-server', () => {
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
  })

  test.each([
    ['valid RFC 8414 metadata', 'pass', artifact(metadata)],
    ['valid OIDC configuration', 'pass', artifact(oidc, 'openid-configuration')],
    ['OIDC without code_challenge_methods_supported', 'warning', artifact(withoutPkce, 'openid-configuration')],
    ['OIDC missing its own required members', 'warning', artifact(metadata, 'openid-configuration')],
    [
      'MCP 2026-07-28 basic/authorization (RFC 9207 §2.3): metadata without authorization_response_iss_parameter_supported: true warns',
      'warning',
      artifact({ ...metadata, authorization_response_iss_parameter_supported: undefined }),
    ],
    [
      'RFC 9207: authorization_response_iss_parameter_supported false warns',
      'warning',
      artifact({ ...metadata, authorization_response_iss_parameter_supported: false }),
    ],
    [
      'MCP 2026-07-28 authorization-server-discovery (RFC 8414 §3.3): an issuer that does not match the metadata URL fails',
      'fail',
      artifact({ ...metadata, issuer: 'https://login.acme.test' }),
    ],
    ['issuer differing by a trailing slash', 'fail', artifact({ ...metadata, issuer: `${ISSUER}/` })],
    ['missing token_endpoint', 'fail', artifact({ ...metadata, token_endpoint: undefined })],
    ['http endpoints', 'fail', artifact({ ...metadata, authorization_endpoint: 'http://auth.acme.test/authorize' })],
    ['no code response type', 'fail', artifact({ ...metadata, response_types_supported: ['token'] })],
    ['PKCE without S256', 'fail', artifact({ ...metadata, code_challenge_methods_supported: ['plain'] })],
    [
      'unreachable',
      'fail',
      artifact(null, 'oauth-authorization-server', {
        authorizationServer: [
          { url: AS_URL, response: notFound(AS_URL) },
          { url: OIDC_URL, response: notFound(OIDC_URL) },
        ],
      }),
    ],
    [
      'no issuer advertised',
      'fail',
      artifact(null, 'oauth-authorization-server', { issuer: null, authorizationServer: [] }),
    ],
  ] as const)('%s -> %s', (_name, expected, oauth) => {
    const outcome = check.run({ oauth }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('the origin fallback compares issuers up to URL normalisation', () => {
    const oauth = artifact({ ...metadata, issuer: 'https://acme.test/' }, 'oauth-authorization-server', {
      issuer: 'https://acme.test',
      issuerSource: 'origin',
      protectedResource: [],
      challenges: [{ url: 'https://acme.test/api', status: 401, header: 'Bearer' }],
    })
    expect(check.run({ oauth }, context).status).toBe('pass')
  })

  test('na without API or auth signals', () => {
    const oauth = artifact(metadata, 'oauth-authorization-server', {
      signals: { hasApi: false, hasAuth: false, reasons: [] },
      protectedResource: [],
    })
    expect(check.run({ oauth }, context).status).toBe('na')
  })

  test('probes that all failed are an error', () => {
    const oauth = artifact(null, 'oauth-authorization-server', {
      authorizationServer: [{ url: AS_URL, response: null, error: 'timeout' }],
    })
    expect(check.run({ oauth }, context).status).toBe('error')
  })

  test('the iss recommendation names the member to add', () => {
    const outcome = check.run(
      { oauth: artifact({ ...metadata, authorization_response_iss_parameter_supported: undefined }) },
      context,
    )
    expect(outcome.recommendation).toContain('"authorization_response_iss_parameter_supported": true')
    expect(outcome.recommendation).not.toContain('code_challenge_methods_supported')
  })

  test('details name the mismatching issuer', () => {
    const outcome = check.run({ oauth: artifact({ ...metadata, issuer: 'https://login.acme.test' }) }, context)
    expect(outcome.details).toContain('https://login.acme.test')
  })

  test("mcp kinds: judged when the public server still challenges, na when the root metadata is the site API's", () => {
    const mcp = { target: { ...context.target, kind: 'mcp' as const, mcpUrl: 'https://acme.test/mcp' } }
    const challenges = [
      {
        url: 'https://acme.test/mcp',
        status: 401,
        header: `Bearer resource_metadata="${PRM_URL}"`,
        resourceMetadata: PRM_URL,
      },
    ]
    expect(
      check.run(
        {
          oauth: artifact(metadata, 'oauth-authorization-server', {
            resource: 'https://acme.test/mcp',
            challenges,
            signals: null,
          }),
        },
        mcp,
      ).status,
    ).toBe('pass')
    const siteApi = artifact(metadata, 'oauth-authorization-server', {
      resource: 'https://acme.test/mcp',
      protectedResource: [
        {
          url: PRM_URL,
          via: 'root',
          response: jsonSnapshot(
            { resource: 'https://acme.test/api', authorization_servers: [ISSUER] },
            { url: PRM_URL },
          ),
        },
      ],
      signals: null,
    })
    const outcome = check.run({ oauth: siteApi }, mcp)
    expect(outcome.status).toBe('na')
    expect(outcome.naReason).toContain('https://acme.test/api')
  })
})
