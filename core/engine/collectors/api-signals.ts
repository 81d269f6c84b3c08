import { defineCollector } from '../check.ts'
import { isSameSite } from '../lib/links.ts'
import { fetchSnapshot, isOk, isRecord, parseJson } from '../snapshot.ts'

/** Whether the target exposes an API, and which kind: the gate for every api-applicability check. */
export interface ApiSignals {
  hasApi: boolean
  rest: boolean
  graphql: boolean
  /** Human-readable reasons, e.g. "OpenAPI at /openapi.json", "homepage links to /docs/api". */
  reasons: string[]
  /** Whether the target signals that it uses auth (401 seen, OAuth metadata linked, login/API-key docs). */
  hasAuth: boolean
  authReasons: string[]
}

const API_LINK = /(^|\/)(api|apis|developers?|graphql)(\/|$)|^api\./i
const LOGIN_LINK = /\b(log ?in|sign ?in|api keys?|access tokens?)\b/i

export const apiSignalsCollector = defineCollector({
  key: 'apiSignals',
  async collect({ http, target, get }) {
    const [homepage, openapi, apiCatalog, graphql] = await Promise.all([
      get('homepage'),
      get('openapi'),
      get('apiCatalog'),
      get('graphql'),
    ])
    const reasons: string[] = []
    const authReasons: string[] = []
    if (openapi.document) reasons.push(`OpenAPI document at ${openapi.url}`)
    if (apiCatalog.linkset?.length) reasons.push('RFC 9727 API catalog at /.well-known/api-catalog')
    if (graphql.endpoint) reasons.push(`GraphQL endpoint at ${graphql.endpoint}`)
    const apiLink = homepage
      .$('a[href]')
      .toArray()
      .map((element) => homepage.$(element).attr('href')!)
      .find((href) => {
        try {
          const url = new URL(href, homepage.url)
          return (
            isSameSite(url.href, target.domain) &&
            API_LINK.test(url.hostname.startsWith('api.') ? url.hostname : url.pathname)
          )
        } catch {
          return false
        }
      })
    if (apiLink) reasons.push(`homepage links to ${apiLink}`)

    const document = openapi.document ?? {}
    const components = isRecord(document.components) ? document.components : {}
    if (
      isRecord(components.securitySchemes) ||
      isRecord(document.securityDefinitions) ||
      Array.isArray(document.security)
    ) {
      authReasons.push('the OpenAPI document declares security schemes')
    }
    const prm = await fetchSnapshot(http, `${target.origin}/.well-known/oauth-protected-resource`, {
      headers: { accept: 'application/json' },
    }).catch(() => null)
    if (prm && isOk(prm) && isRecord(parseJson(prm.body)))
      authReasons.push('OAuth protected resource metadata is published')
    const loginLink = homepage
      .$('a[href]')
      .toArray()
      .find((element) => LOGIN_LINK.test(homepage.$(element).text()))
    if (loginLink && reasons.length > 0) authReasons.push(`homepage links to "${homepage.$(loginLink).text().trim()}"`)

    const graphqlOnly = Boolean(graphql.endpoint) && !openapi.document && !apiCatalog.linkset?.length
    return {
      hasApi: reasons.length > 0,
      rest: reasons.length > 0 && !graphqlOnly,
      graphql: Boolean(graphql.endpoint),
      reasons,
      hasAuth: authReasons.length > 0,
      authReasons,
    }
  },
})
