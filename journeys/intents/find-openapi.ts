import { defineIntent } from '../contract.ts'
import { completedPages, isOpenApi, judgement } from '../judging.ts'

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
