import { defineIntent, type FetchedPage, type JourneyEvidence } from '../types.ts'
import {
  completedPages,
  isGraphQlDescription,
  isHomePage,
  isLlmsTxt,
  isOpenApi,
  pathOf,
  readable,
  stepsOf,
  topicOf,
} from '../judging.ts'

/** An endpoint as API references write it: a method and a path, or a request to an API URL. */
const ENDPOINT = /\b(GET|POST|PUT|PATCH|DELETE)\s+\/[\w{}:.\-/?=&]*|\bcurl\b.{0,160}https?:\/\/\S+\/(api|v\d+)\b/g
const TOPIC = /\bapi\b|reference|developer|docs|documentation|endpoint/i
/** A parameter documented: a path or query parameter in an endpoint, or a parameter list with types. */
const PATH_PARAMETER = /\{[\w-]+\}|\/:[a-z_]\w*|\?[\w-]+=/i
const PARAMETER_LIST =
  /\b(path|query|body|request|header)?\s*param(eter)?s\b|\b(required|optional)\b.{0,80}\b(string|integer|number|boolean|array|object)\b|\b(string|integer|number|boolean)\b.{0,80}\b(required|optional)\b/i

/**
 * A page that documents HTTP endpoints with their parameters. A home page that mentions `GET /v1/geocode`, a
 * CLI manual called "reference", or a guide with one curl line is not an API reference.
 */
function referencePage(page: FetchedPage): boolean {
  if (!readable(page) || isHomePage(page) || isLlmsTxt(page) || !TOPIC.test(topicOf(page))) return false
  const endpoints = [...page.text.matchAll(ENDPOINT)].map((match) => match[0])
  return (
    endpoints.length > 0 &&
    (endpoints.some((endpoint) => PATH_PARAMETER.test(endpoint)) || PARAMETER_LIST.test(page.text))
  )
}

/** A developer page that names endpoints without documenting their parameters: a guide, not the reference. */
function developerGuide(page: FetchedPage): boolean {
  return (
    readable(page) &&
    !isHomePage(page) &&
    !isLlmsTxt(page) &&
    TOPIC.test(topicOf(page)) &&
    new RegExp(ENDPOINT.source).test(page.text)
  )
}

const machineReadable = (page: FetchedPage) => isOpenApi(page) || isGraphQlDescription(page)

/** OpenAPI descriptions the run fetched, and those the site pointed at (`service-desc`) without the agent reading them. */
function openApiUrls(evidence: JourneyEvidence): string[] {
  const fetched = completedPages(evidence)
    .filter(isOpenApi)
    .map((page) => page.finalUrl)
  const advertised = evidence.pages.flatMap((page) =>
    page.links.filter((link) => /\bservice-desc\b/.test(link.rel)).map((link) => link.url),
  )
  return [...new Set([...fetched, ...advertised])]
}

/**
 * Found when the agent read a reference that documents the HTTP API's endpoints with their parameters, or an
 * OpenAPI or GraphQL description. An agent keeps looking for the reference pages while it has pointers left when
 * only the machine-readable description was found: a person asking for "the API reference" wants /docs.
 */
export default defineIntent({
  meta: {
    id: 'find-api-reference',
    title: 'Find the API reference',
    prompt: 'Find the API reference of {domain}: the documentation of its HTTP endpoints.',
    layers: ['discovery', 'experience'],
    keywords: [
      'api',
      'reference',
      'developer',
      'docs',
      'documentation',
      'endpoints',
      'openapi',
      'service-doc',
      'service-desc',
    ],
    paths: ['/docs', '/api', '/developers', '/api-docs'],
    relatedChecks: ['api-docs-linked', 'openapi-description', 'link-headers', 'api-catalog'],
  },
  judge(_trajectory, evidence) {
    const pages = completedPages(evidence)
    const references = pages.filter(referencePage)
    const machine = pages.filter(machineReadable)
    const found = [...references, ...machine]
    if (found.length === 0)
      return {
        satisfied: false,
        reason: 'No page the agent could read documents HTTP endpoints with their parameters.',
        evidence: [],
        answer: null,
      }
    const first = found[0]!
    const openapi = openApiUrls(evidence)
    // Without a full reference page, the developer pages that name endpoints are still where a person starts.
    const guideUrls = references.length > 0 ? [] : pages.filter(developerGuide).map((page) => page.finalUrl)
    // A page's Markdown alternate (`/docs.md` beside `/docs`) is the same document.
    const guides = guideUrls.filter((url) => !(url.endsWith('.md') && guideUrls.includes(url.slice(0, -'.md'.length))))
    const reference =
      references.length > 0
        ? first.finalUrl
        : [
            ...guides.map((url) => `${url} (developer documentation)`),
            `${first.finalUrl} (machine-readable description)`,
          ].join(', ')
    const parts = [`API reference: ${reference}`, ...(openapi.length > 0 ? [`OpenAPI: ${openapi.join(', ')}`] : [])]
    return {
      satisfied: true,
      settled: references.length > 0,
      reason:
        references.length > 0
          ? `${first.finalUrl} documents the API's endpoints and their parameters.`
          : `${first.finalUrl} describes the API (${pathOf(first)}).`,
      evidence: stepsOf(found),
      answer: { text: `${parts.join('; ')}.`, source_url: first.finalUrl },
    }
  },
})
