import { defineIntent } from '../contract.ts'
import { completedPages, isOpenApi, judgement, readable, topicOf } from '../judging.ts'

/** An endpoint as API references write it: a method and a path, or a request to an API URL. */
const ENDPOINT = /\b(GET|POST|PUT|PATCH|DELETE)\s+\/[\w{}:.\-/]*|\bcurl\b.{0,160}https?:\/\/\S+\/(api|v\d+)\b/
const TOPIC = /\bapi\b|reference|developer|docs|documentation|endpoint/i

/**
 * Found when the agent read documentation of the HTTP API: an OpenAPI document, or a developer page that names
 * endpoints. A CLI manual called "reference" is not an API reference.
 */
export default defineIntent({
  meta: {
    id: 'find-api-reference',
    title: 'Find the API reference',
    prompt: 'Find the API reference of {domain}: the documentation of its HTTP endpoints.',
    layers: ['discovery', 'experience'],
    keywords: ['api', 'reference', 'developer', 'docs', 'documentation', 'endpoints', 'openapi', 'service-doc', 'service-desc'],
    paths: ['/docs', '/api', '/developers', '/api-docs'],
  },
  judge(_trajectory, evidence) {
    const documented = completedPages(evidence).filter((page) => isOpenApi(page) || (readable(page) && TOPIC.test(topicOf(page)) && ENDPOINT.test(page.text)))
    return judgement(documented, (page) => `${page.finalUrl} documents the API's endpoints.`, 'No page the agent could read documents HTTP endpoints.')
  },
})
