// RFC 9727: /.well-known/api-catalog answers GET with an application/linkset+json catalog of the site's APIs and HEAD with a Link rel="api-catalog".
// Spec: https://www.rfc-editor.org/rfc/rfc9727
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { listSome } from '../../core/engine/lib/describe.ts'
import { describeJsonProblem, readJsonObject } from '../../core/engine/lib/json-document.ts'
import { MEDIA } from '../../core/engine/lib/media-types.ts'
import { isOk } from '../../core/engine/snapshot.ts'

const PROFILE = 'https://www.rfc-editor.org/info/rfc9727'
const EXAMPLE =
  '{"linkset":[{"anchor":"https://api.example.com/v1","service-desc":[{"href":"https://api.example.com/v1/openapi.json","type":"application/json"}],"service-doc":[{"href":"https://example.com/docs/api","type":"text/html"}]}]}'

export default defineCheck({
  meta: {
    id: 'api-catalog',
    name: 'RFC 9727 API catalog',
    description:
      'An API catalog at a well-known URL lets an agent list every API a site offers, with its description and docs, in one request.',
    layer: 'discovery',
    applicability: 'api',
    protocol: 'either',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 6,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc9727',
    recommendation: `Serve /.well-known/api-catalog as application/linkset+json; profile="${PROFILE}", e.g. ${EXAMPLE}.`,
    needs: ['apiCatalog', 'apiSignals'],
  },
  run({ apiCatalog, apiSignals }, { target }) {
    const url = `${target.origin}/.well-known/api-catalog`
    const { get, head, linkset } = apiCatalog
    const present = isOk(get) && linkset !== null
    // A catalog that is there is judged even when nothing else hints at an API: it is itself the signal.
    if (!present && !apiSignals.hasApi)
      return na('No API signals (no OpenAPI document, API catalog, GraphQL endpoint or API links)')
    const signals = `API signals: ${listSome(apiSignals.reasons, 2)}`
    if (!present) {
      const problem = isOk(get)
        ? `${describeJsonProblem(get, readJsonObject(get))}, not a {"linkset": […]} document`
        : `/.well-known/api-catalog answered ${get.status}`
      return fail(
        `${problem}, although the site has an API (${signals})`,
        `Publish ${url} as an RFC 9264 linkset, e.g. ${EXAMPLE}.`,
      )
    }
    const valid = linkset.filter((entry) => entry.anchor && Object.keys(entry.relations).length > 0)
    if (valid.length === 0) {
      return fail(
        linkset.length === 0
          ? '/.well-known/api-catalog has an empty linkset'
          : `/.well-known/api-catalog has ${linkset.length} linkset entr${linkset.length === 1 ? 'y' : 'ies'}, none with an anchor and a relation such as service-desc`,
        `List each API in ${url} as {"anchor": "<API base URL>", "service-desc": [{"href": "<OpenAPI URL>"}]}.`,
      )
    }
    const relations = [...new Set(valid.flatMap((entry) => Object.keys(entry.relations)))]
    const summary = `/.well-known/api-catalog lists ${valid.length} API(s) (relations: ${listSome(relations, 4)})`
    const problems: string[] = []
    const fixes: string[] = []
    if (valid.length < linkset.length) {
      problems.push(
        `${linkset.length - valid.length} entr${linkset.length - valid.length === 1 ? 'y lacks' : 'ies lack'} an anchor or a relation`,
      )
      fixes.push('give every entry an "anchor" and at least one relation array of {"href"}')
    }
    if (get.contentType !== MEDIA.linkset) {
      problems.push(`it is served as ${get.contentType || 'no Content-Type'}, not ${MEDIA.linkset}`)
      fixes.push(`serve it as ${MEDIA.linkset}; profile="${PROFILE}"`)
    } else if (!(get.headers['content-type'] ?? '').includes(PROFILE)) {
      problems.push('the Content-Type has no RFC 9727 profile parameter')
      fixes.push(`add ; profile="${PROFILE}" to the Content-Type`)
    }
    if (!apiCatalog.headLinks.some((link) => link.rel.includes('api-catalog'))) {
      problems.push(head ? `HEAD answered ${head.status} without a Link rel="api-catalog"` : 'the HEAD request failed')
      fixes.push(`answer HEAD ${url} with Link: <${url}>; rel="api-catalog"`)
    }
    if (problems.length > 0) return warn(`${summary}; but ${problems.join('; ')}`, `For ${url}: ${fixes.join('; ')}.`)
    return pass(`${summary}, served as ${MEDIA.linkset} with the RFC 9727 profile, and HEAD carries rel="api-catalog"`)
  },
})
