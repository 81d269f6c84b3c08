// The authorization server publishes RFC 8414 / OIDC metadata with a matching issuer, https endpoints, the code flow and PKCE S256,
// and advertises RFC 9207 iss in authorization responses (MCP 2026-07-28 basic/authorization).
// Spec: https://www.rfc-editor.org/rfc/rfc8414, https://www.rfc-editor.org/rfc/rfc9207
import {
  describeProbes,
  firstJsonDocument,
  isSecureUrl,
  oauthNotApplicable,
  sameResource,
} from '../../core/engine/collectors/oauth.ts'
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { noProbeAnswered, unreachable } from '../lib/outcomes.ts'

/** Required by OpenID Connect Discovery 1.0 §3, on top of RFC 8414. */
const OIDC_REQUIRED = ['jwks_uri', 'subject_types_supported', 'id_token_signing_alg_values_supported']

const includes = (value: unknown, wanted: string) => Array.isArray(value) && value.includes(wanted)

export default defineCheck({
  meta: {
    id: 'oauth-authorization-server',
    name: 'AS metadata with PKCE S256 (RFC 8414/OIDC)',
    description:
      'Agents discover where to authorize and get tokens from the authorization server metadata; MCP clients refuse a server that does not advertise PKCE S256.',
    layer: 'accessibility',
    applicability: 'all',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 6,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc8414',
    recommendation:
      'Serve /.well-known/oauth-authorization-server with "issuer" equal to the issuer URL, https authorization_endpoint and token_endpoint, response_types_supported ["code"], code_challenge_methods_supported ["S256"] and authorization_response_iss_parameter_supported true.',
    needs: ['oauth'],
    surface: 'api',
  },
  run({ oauth }, { target }) {
    const notApplicable = oauthNotApplicable(oauth, target.kind)
    if (notApplicable) return na(notApplicable)
    if (!oauth.issuer) {
      return fail(
        'The protected resource metadata lists no authorization server, so there is no metadata to look up',
        'List your issuer in "authorization_servers" of the protected resource metadata, and publish its RFC 8414 metadata.',
      )
    }
    const probes = oauth.authorizationServer
    const tried = describeProbes(probes)
    const found = firstJsonDocument(probes)
    if (!found) {
      if (noProbeAnswered(probes)) {
        return unreachable(`No authorization server metadata probe completed: ${tried}`)
      }
      return fail(
        `No authorization server metadata for ${oauth.issuer}${oauth.issuerSource === 'origin' ? ' (the domain itself, as no protected resource metadata names an issuer)' : ''}: ${tried}`,
        `Publish ${probes[0]?.url ?? `${oauth.issuer}/.well-known/oauth-authorization-server`} as RFC 8414 JSON with issuer "${oauth.issuer}", authorization_endpoint, token_endpoint, response_types_supported and code_challenge_methods_supported ["S256"].`,
      )
    }
    const { probe, document } = found
    const errors: string[] = []
    const warnings: string[] = []
    const issuer = document.issuer
    // An advertised issuer must match exactly (RFC 8414 §3.3); the origin fallback is our guess, so only up to URL normalisation.
    const issuerMatches =
      typeof issuer === 'string' &&
      (oauth.issuerSource === 'origin' ? sameResource(issuer, oauth.issuer) : issuer === oauth.issuer)
    if (typeof issuer !== 'string') errors.push('the required "issuer" is missing')
    else if (!issuerMatches)
      errors.push(`"issuer" is ${issuer}, not ${oauth.issuer} (clients must reject the document)`)
    for (const endpoint of ['authorization_endpoint', 'token_endpoint']) {
      const value = document[endpoint]
      if (value === undefined) errors.push(`"${endpoint}" is missing`)
      else if (!isSecureUrl(value, target.origin)) errors.push(`"${endpoint}" (${String(value)}) is not an https URL`)
    }
    if (!Array.isArray(document.response_types_supported))
      errors.push('the required "response_types_supported" is missing')
    else if (!includes(document.response_types_supported, 'code'))
      errors.push('"response_types_supported" lacks "code" (the authorization code flow)')
    const pkce = document.code_challenge_methods_supported
    if (pkce === undefined) {
      warnings.push(
        `no "code_challenge_methods_supported"${probe.kind === 'openid-configuration' ? ' in the OpenID configuration' : ''}: MCP clients refuse to proceed without S256`,
      )
    } else if (!includes(pkce, 'S256')) {
      errors.push(`"code_challenge_methods_supported" (${JSON.stringify(pkce)}) lacks S256`)
    }
    // MCP 2026-07-28 (basic/authorization) asks authorization servers to send RFC 9207 `iss` in authorization
    // responses and to advertise it, so that clients can refuse a response from a mixed-up server.
    const issParameter = document.authorization_response_iss_parameter_supported === true
    if (!issParameter)
      warnings.push(
        'no "authorization_response_iss_parameter_supported": true (RFC 9207 iss in authorization responses)',
      )
    if (probe.kind === 'openid-configuration') {
      const missing = OIDC_REQUIRED.filter((member) => document[member] === undefined)
      if (missing.length) warnings.push(`OpenID Connect requires ${missing.join(', ')}`)
    }

    const summary = `${probe.url} (issuer ${typeof issuer === 'string' ? issuer : 'missing'})`
    if (errors.length) {
      return fail(
        `${summary}: ${[...errors, ...warnings].join('; ')}`,
        `Fix the metadata at ${probe.url}: ${errors.join('; ')}${warnings.length ? `; also ${warnings.join('; ')}` : ''}.`,
      )
    }
    if (warnings.length) {
      const additions = [
        pkce === undefined && '"code_challenge_methods_supported": ["S256"]',
        !issParameter &&
          '"authorization_response_iss_parameter_supported": true (and send iss in every authorization response)',
        warnings.some((text) => text.startsWith('OpenID')) && 'the OpenID Connect required members',
      ].filter(Boolean)
      return warn(`${summary}: ${warnings.join('; ')}`, `Add ${additions.join(', ')} to ${probe.url}.`)
    }
    const routes = [
      document.registration_endpoint ? 'dynamic registration' : '',
      document.client_id_metadata_document_supported === true ? 'client ID metadata documents' : '',
    ].filter(Boolean)
    return pass(
      `${summary}: https endpoints, the code flow and PKCE S256${routes.length ? `; offers ${routes.join(' and ')}` : ''}`,
    )
  },
})
