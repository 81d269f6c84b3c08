// The authorization server lets an agent register itself: a Client ID Metadata Document (CIMD) passes; Dynamic Client
// Registration (RFC 7591) alone warns, as MCP 2026-07-28 deprecates it in favour of CIMD.
// Spec: https://datatracker.ietf.org/doc/draft-ietf-oauth-client-id-metadata-document/, https://www.rfc-editor.org/rfc/rfc7591 and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/client-registration
import { firstJsonDocument, isSecureUrl, oauthNotApplicable } from '../../core/engine/collectors/oauth.ts'
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { noProbeAnswered, unreachable } from '../lib/outcomes.ts'

export default defineCheck({
  meta: {
    id: 'oauth-client-registration',
    name: 'Self-service client registration (CIMD/DCR)',
    description:
      'An agent meeting an API or MCP server for the first time has no pre-registered client; client ID metadata documents or dynamic registration let it sign in anyway.',
    layer: 'accessibility',
    applicability: 'all',
    tier: 'recommended',
    maturity: 'verified',
    draft: true,
    maxScore: 4,
    specUrl: 'https://datatracker.ietf.org/doc/draft-ietf-oauth-client-id-metadata-document/',
    recommendation:
      'Advertise "client_id_metadata_document_supported": true (and accept https client_id URLs) in the authorization server metadata; a "registration_endpoint" for RFC 7591 dynamic registration is deprecated by MCP 2026-07-28 and only serves older clients.',
    needs: ['oauth'],
    surface: 'api',
  },
  run({ oauth }, { target }) {
    const notApplicable = oauthNotApplicable(oauth, target.kind)
    if (notApplicable) return na(notApplicable)
    const found = firstJsonDocument(oauth.authorizationServer)
    if (!found) {
      if (noProbeAnswered(oauth.authorizationServer)) {
        return unreachable(`The authorization server metadata of ${oauth.issuer} could not be fetched`)
      }
      return fail(
        oauth.issuer
          ? `No authorization server metadata for ${oauth.issuer}, so an agent finds no way to register`
          : 'No authorization server is advertised, so an agent finds no way to register',
        'Publish RFC 8414 authorization server metadata advertising "client_id_metadata_document_supported": true or a "registration_endpoint".',
      )
    }
    const { probe, document } = found
    const cimd = document.client_id_metadata_document_supported === true
    const registration = document.registration_endpoint
    const dcr = typeof registration === 'string' && isSecureUrl(registration, target.origin)
    if (cimd) {
      return pass(
        `${probe.url} supports client ID metadata documents${dcr ? ` and dynamic registration at ${registration}` : ''}`,
      )
    }
    if (dcr) {
      // MCP 2026-07-28 (basic/authorization/client-registration) deprecates DCR in favour of CIMD: DCR alone still
      // lets today's clients register, but new clients look for client_id_metadata_document_supported first.
      return warn(
        `${probe.url} offers only dynamic client registration at ${registration}, which MCP 2026-07-28 deprecates in favour of client ID metadata documents`,
        `Add "client_id_metadata_document_supported": true to ${probe.url} and accept https client_id URLs that serve client metadata; keep the registration_endpoint for older clients.`,
      )
    }
    if (registration !== undefined) {
      return warn(
        `${probe.url} names a registration_endpoint that is not an https URL: ${String(registration)}`,
        'Serve the registration endpoint over https, and consider "client_id_metadata_document_supported": true as well.',
      )
    }
    return fail(
      `${probe.url} offers neither client ID metadata documents nor a registration_endpoint: an agent without a pre-registered client cannot sign in`,
      `Add "client_id_metadata_document_supported": true (accepting https client_id URLs that serve client metadata) or a "registration_endpoint" for RFC 7591 dynamic registration to ${probe.url}.`,
    )
  },
})
