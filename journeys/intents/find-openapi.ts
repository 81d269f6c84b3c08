import { isRecord } from '../../core/engine/snapshot.ts'
import { defineIntent, type FetchedPage } from '../types.ts'
import { answerFrom, completedPages, isOpenApi, jsonObject, judgement } from '../judging.ts'

/** `OpenAPI 3.1.0 description "Acme API" 1.2 with 14 paths`, from the document itself. */
function described(page: FetchedPage): string {
  const doc = jsonObject(page)!
  const info = isRecord(doc.info) ? doc.info : {}
  const version = typeof doc.openapi === 'string' ? `OpenAPI ${doc.openapi}` : 'Swagger 2.0'
  const title = typeof info.title === 'string' ? ` "${info.title}"` : ''
  const paths = isRecord(doc.paths) ? Object.keys(doc.paths).length : 0
  return `${version} description${title} with ${paths} path${paths === 1 ? '' : 's'} at ${page.finalUrl}.`
}

/** Found when the agent fetched and parsed an OpenAPI or Swagger description; a page linking to one is not enough. */
export default defineIntent({
  meta: {
    id: 'find-openapi',
    title: 'Find the OpenAPI description',
    prompt: 'Find the machine-readable description of the {domain} API (an OpenAPI or Swagger document).',
    layers: ['discovery'],
    keywords: ['openapi', 'swagger', 'service-desc', 'api-catalog', 'api', 'spec', 'reference'],
    paths: ['/openapi.json', '/openapi.yaml', '/swagger.json', '/.well-known/api-catalog'],
    relatedChecks: ['openapi-description', 'api-catalog', 'link-headers', 'api-docs-linked'],
  },
  judge(_trajectory, evidence) {
    const found = completedPages(evidence).filter(isOpenApi)
    return judgement(
      found,
      (page) => `${page.finalUrl} is an OpenAPI description.`,
      'No OpenAPI or Swagger document was found.',
      ([page]) => answerFrom(page!, described(page!)),
    )
  },
})
