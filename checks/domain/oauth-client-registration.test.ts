import { describe, expect, test } from 'bun:test'
import type { OauthArtifact } from '../../core/engine/collectors/oauth.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context, jsonSnapshot, notFound } from '../../tests/support/artifacts.ts'
import check from './oauth-client-registration.ts'

const ISSUER = 'https://auth.acme.test'
const AS_URL = `${ISSUER}/.well-known/oauth-authorization-server`
const PRM_URL = 'https://acme.test/.well-known/oauth-protected-resource'
const base = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/authorize`,
  token_endpoint: `${ISSUER}/token`,
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
}

function artifact(document: Record<string, unknown> | null, extra: Partial<OauthArtifact> = {}): OauthArtifact {
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
      {
        url: AS_URL,
        kind: 'oauth-authorization-server',
        response: document ? jsonSnapshot({ ...base, ...document }, { url: AS_URL }) : notFound(AS_URL),
      },
    ],
    signals: { hasApi: true, hasAuth: true, reasons: [] },
    ...extra,
  }
}

describe('oauth-client-registration', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'recommended',
      maturity: 'verified',
      bonus: false,
      draft: true,
      maxScore: 4,
    })
  })

  test.each([
    [
      'MCP 2026-07-28 basic/authorization/client-registration: client_id_metadata_document_supported: true passes',
      'pass',
      artifact({ client_id_metadata_document_supported: true }),
    ],
    [
      'CIMD next to a DCR endpoint passes',
      'pass',
      artifact({ client_id_metadata_document_supported: true, registration_endpoint: `${ISSUER}/register` }),
    ],
    [
      'MCP 2026-07-28 basic/authorization/client-registration ("Dynamic Client Registration is deprecated"): a registration_endpoint alone warns',
      'warning',
      artifact({ registration_endpoint: `${ISSUER}/register` }),
    ],
    ['an http registration endpoint', 'warning', artifact({ registration_endpoint: 'http://auth.acme.test/register' })],
    ['neither', 'fail', artifact({})],
    ['CIMD explicitly false', 'fail', artifact({ client_id_metadata_document_supported: false })],
    ['no AS metadata', 'fail', artifact(null)],
  ] as const)('%s -> %s', (_name, expected, oauth) => {
    const outcome = check.run({ oauth }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('na on a domain without API', () => {
    const oauth = artifact({}, { signals: { hasApi: false, hasAuth: false, reasons: [] }, protectedResource: [] })
    const outcome = check.run({ oauth }, context)
    expect(outcome.status).toBe('na')
    expect(outcome.naReason).toContain('API')
  })

  test('na on a public MCP server', () => {
    const mcp = { target: { ...context.target, kind: 'mcp' as const, mcpUrl: 'https://acme.test/mcp' } }
    const oauth = artifact({}, { signals: null, protectedResource: [{ url: PRM_URL, response: notFound(PRM_URL) }] })
    expect(check.run({ oauth }, mcp).status).toBe('na')
  })

  test('a DCR-only server is told about CIMD', () => {
    expect(check.run({ oauth: artifact({ registration_endpoint: `${ISSUER}/register` }) }, context).details).toContain(
      'client ID metadata document',
    )
  })
})
