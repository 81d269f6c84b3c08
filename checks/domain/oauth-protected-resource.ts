// OAuth 2.0 Protected Resource Metadata (RFC 9728) names the resource and its https authorization servers.
// Spec: https://www.rfc-editor.org/rfc/rfc9728
import {
  describeProbes,
  firstJsonDocument,
  isSecureUrl,
  oauthNotApplicable,
  publishedAt,
  sameResource,
} from '../../core/engine/collectors/oauth.ts'
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { noProbeAnswered, unreachable } from '../lib/outcomes.ts'
import { looksLikeHtml } from '../../core/engine/snapshot.ts'

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/

/** `resource` is a same-origin path prefix of `url` (`/api` covers `/api/v1/users`). */
function coversUrl(resource: string, url: string): boolean {
  const parsedResource = URL.parse(resource)
  const parsedUrl = URL.parse(url)
  if (!parsedResource || !parsedUrl || parsedResource.origin !== parsedUrl.origin) return false
  const base = parsedResource.pathname.replace(/\/$/, '')
  return parsedUrl.pathname === base || parsedUrl.pathname.startsWith(`${base}/`)
}

/**
 * RFC 9728 §3.3 wants `resource` identical to the URL the client started from. That holds for an MCP URL found
 * through the well-known paths. A challenge can come from any path under the resource (even a missing one), and
 * a domain's API base is the scanner's guess (the OpenAPI server URL, or the bare origin), so there a
 * same-origin resource covering that URL is accepted, as MCP clients and the draft rfc9728bis do.
 */
function resourceMatches(resource: string, expected: string, loose: boolean): boolean {
  if (sameResource(resource, expected)) return true
  if (!loose) return false
  const expectedUrl = URL.parse(expected)
  const originOnly =
    expectedUrl !== null && expectedUrl.pathname === '/' && URL.parse(resource)?.origin === expectedUrl.origin
  return originOnly || coversUrl(resource, expected)
}

export default defineCheck({
  meta: {
    id: 'oauth-protected-resource',
    name: 'OAuth protected resource metadata (RFC 9728)',
    description:
      'Protected resource metadata tells an agent which authorization server issues tokens for an API or MCP server, so it can sign in without hard-coded configuration.',
    layer: 'accessibility',
    applicability: 'all',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 6,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc9728',
    recommendation:
      'Serve /.well-known/oauth-protected-resource (path-aware for a resource with a path) as JSON with "resource" equal to the protected URL and "authorization_servers" listing https issuers; point to it from WWW-Authenticate: Bearer resource_metadata="…".',
    needs: ['oauth'],
    surface: 'api',
  },
  run({ oauth }, { target }) {
    const notApplicable = oauthNotApplicable(oauth, target.kind)
    if (notApplicable) return na(notApplicable)
    const probes = oauth.protectedResource
    const tried = describeProbes(probes)
    const wellKnown =
      probes.find((probe) => probe.via === 'path-aware')?.url ??
      probes[0]?.url ??
      `${target.origin}/.well-known/oauth-protected-resource`
    const found = firstJsonDocument(probes)
    if (!found) {
      if (noProbeAnswered(probes)) {
        return unreachable(`No protected resource metadata probe completed: ${tried}`)
      }
      const published = probes.find((probe) => publishedAt(probe.response))
      if (published) {
        return fail(
          `${published.url} answered ${published.response!.status} but the body is not a JSON object`,
          `Serve ${published.url} as valid JSON: {"resource":"${oauth.resource}","authorization_servers":["https://…"]}.`,
        )
      }
      const html = probes.find(
        (probe) => probe.response && probe.response.status < 300 && looksLikeHtml(probe.response.body),
      )
      const detail = html ? `${html.url} answered with an HTML page` : 'no protected resource metadata'
      const challenge = oauth.challenges.length
        ? ` although ${oauth.challenges[0]!.url} answered ${oauth.challenges[0]!.status} with a challenge`
        : ''
      return fail(
        `${detail}${challenge} (tried ${tried || 'nothing'})`,
        `Publish ${wellKnown} as JSON: {"resource":"${oauth.resource}","authorization_servers":["<your issuer>"]}, and add resource_metadata="${wellKnown}" to your WWW-Authenticate: Bearer challenges.`,
      )
    }

    const { probe, document } = found
    const expected = probe.expectedResource ?? oauth.resource
    const problems: string[] = []
    const fixes: string[] = []
    if (!JSON_TYPE.test(probe.response.contentType)) {
      problems.push(`served as ${probe.response.contentType || 'no content type'}`)
      fixes.push('serve it as application/json')
    }
    const resource = document.resource
    if (typeof resource !== 'string') {
      problems.push('the required "resource" member is missing')
      fixes.push(`add "resource": "${expected}"`)
    } else if (!resourceMatches(resource, expected, probe.via === 'challenge' || target.kind === 'domain')) {
      problems.push(
        `"resource" is ${resource}, not the protected URL ${expected} (clients must reject a mismatch; the draft rfc9728bis would accept a same-origin prefix)`,
      )
      fixes.push(`set "resource" to ${expected}`)
    }
    const servers = document.authorization_servers
    if (!Array.isArray(servers) || servers.length === 0) {
      problems.push('"authorization_servers" is missing or empty (MCP clients require it)')
      fixes.push('list your issuer in "authorization_servers"')
    } else {
      const insecure = servers.filter((server) => !isSecureUrl(server, target.origin))
      if (insecure.length) {
        problems.push(`authorization_servers entries that are not https URLs: ${insecure.map(String).join(', ')}`)
        fixes.push('list only https issuer URLs in "authorization_servers"')
      }
    }
    const summary = `${probe.url} (${probe.via ?? 'probe'}) names resource ${typeof resource === 'string' ? resource : '(none)'} and ${Array.isArray(servers) ? servers.length : 0} authorization server(s)${Array.isArray(servers) && servers.length ? ` (${servers.slice(0, 2).map(String).join(', ')})` : ''}`
    if (problems.length) return warn(`${summary}; but ${problems.join('; ')}`, `In ${probe.url}: ${fixes.join('; ')}.`)
    const discovery = oauth.challenges.some((challenge) => challenge.resourceMetadata)
      ? '; also linked from a WWW-Authenticate challenge'
      : ''
    return pass(`${summary}${discovery}`)
  },
})
