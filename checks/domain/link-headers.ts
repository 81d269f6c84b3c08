// The homepage response carries RFC 8288 Link headers with discovery relations (api-catalog, service-desc, …) whose targets resolve.
// Spec: https://www.rfc-editor.org/rfc/rfc8288 (relations: RFC 9727, RFC 8631)
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { listSome, pathOf } from '../../core/engine/lib/describe.ts'
import { discoveryRelations, RESOURCE_HINT_RELATIONS } from '../../core/engine/lib/links.ts'
import { pageLabel } from '../lib/page-label.ts'

const EXAMPLE =
  'Link: </.well-known/api-catalog>; rel="api-catalog", </llms.txt>; rel="describedby"; type="text/markdown"'

export default defineCheck({
  meta: {
    id: 'link-headers',
    name: 'Discovery Link headers (RFC 8288)',
    description:
      'Link headers on the homepage let an agent find the API catalog, API description, docs and sitemap from a single HEAD request.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 5,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc8288',
    recommendation: `Send discovery relations on the homepage response, e.g. ${EXAMPLE}.`,
    scope: 'page',
    needs: ['linkHeader'],
  },
  run({ linkHeader }, context) {
    const label = pageLabel(context)
    const discovery = linkHeader.links.flatMap((link) =>
      discoveryRelations(link).map((relation) => `${relation} → ${pathOf(link.href)}`),
    )
    if (discovery.length === 0) {
      if (!linkHeader.raw) {
        return fail(
          `The ${label} response has no Link header`,
          `Add a Link header to the ${label} response, e.g. ${EXAMPLE}.`,
        )
      }
      const relations = [...new Set(linkHeader.links.flatMap((link) => link.rel))]
      const hintsOnly = relations.length > 0 && relations.every((relation) => RESOURCE_HINT_RELATIONS.has(relation))
      const found = relations.length > 0 ? `only ${relations.join(', ')}` : 'no parsable link'
      const recommendation = `Add discovery relations next to the existing ones, e.g. ${EXAMPLE}.`
      if (hintsOnly)
        return warn(
          `The ${label} Link header carries ${found}: resource hints, nothing an agent can discover with`,
          recommendation,
        )
      return fail(`The ${label} Link header carries ${found}, no discovery relation`, recommendation)
    }
    const broken = linkHeader.targets.filter(
      (target) => target.status !== null && (target.status < 200 || target.status >= 300),
    )
    const unreachable = linkHeader.targets.filter((target) => target.status === null)
    const summary = `The ${label} Link header advertises ${listSome(discovery, 4)}`
    const note =
      unreachable.length > 0
        ? `; ${unreachable.length} target(s) could not be fetched (${listSome(unreachable.map((t) => pathOf(t.href)))})`
        : ''
    if (broken.length > 0) {
      const list = broken.map((target) => `${pathOf(target.href)} (${target.status})`)
      return warn(
        `${summary}, but ${broken.length} target(s) do not answer 2xx: ${listSome(list)}${note}`,
        `Fix or remove the Link header entries pointing to ${listSome(broken.map((target) => target.href))}.`,
      )
    }
    const verified = linkHeader.targets.length - unreachable.length
    return pass(`${summary}; ${verified} target(s) answer 2xx${note}`)
  },
})
