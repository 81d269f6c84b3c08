import { defineIntent, type FetchedPage } from '../contract.ts'
import { completedPages, jsonObject, judgement } from '../judging.ts'

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** A parsed OpenAPI 3.x or Swagger 2.0 document (JSON or YAML) with its info and paths (or webhooks) objects. */
export function isOpenApi(page: FetchedPage): boolean {
  const doc = jsonObject(page)
  if (!doc) return false
  const versioned = (typeof doc.openapi === 'string' && /^3\.\d/.test(doc.openapi)) || doc.swagger === '2.0'
  return versioned && isObject(doc.info) && (isObject(doc.paths) || isObject(doc.webhooks))
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
  },
  judge(_trajectory, evidence) {
    const described = completedPages(evidence).filter(isOpenApi)
    return judgement(described, (page) => `${page.finalUrl} is an OpenAPI description.`, 'No OpenAPI or Swagger document was found.')
  },
})
