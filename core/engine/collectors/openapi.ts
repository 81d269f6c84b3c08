import { parseBoundedJsonOrYaml } from '../../parse/bounded.ts'
import { defineCollector } from '../check.ts'
import { isSameSite, parseLinkHeader } from '../lib/links.ts'
import { openapiSchemaErrors } from './lib/openapi-validation.ts'
import { fetchSnapshot, type HtmlPage, type HttpSnapshot, isOk, isRecord, looksLikeHtml } from '../snapshot.ts'
import type { ApiCatalogArtifact } from './api-catalog.ts'

export interface OpenapiArtifact {
  /** Where it was found: an advertised service-desc link, or a guessed conventional path. */
  source: 'advertised' | 'guessed' | null
  url: string | null
  response: HttpSnapshot | null
  /** The parsed document (JSON or YAML); null when none was found. */
  document: Record<string, unknown> | null
  /** Validation against the official OpenAPI / Swagger meta-schemas, internal $refs resolved (external ones never fetched). */
  valid: boolean
  errors: string[]
  /** Every URL tried, in order. */
  tried: string[]
}

/** docs/checks.md §14.3 discovery order after advertised service-desc links. */
export const OPENAPI_GUESSES = [
  '/openapi.json',
  '/openapi.yaml',
  '/.well-known/openapi.json',
  '/swagger.json',
  '/api/openapi.json',
  '/api-docs',
  '/v1/openapi.json',
  '/docs/openapi.json',
]

const ACCEPT = { headers: { accept: 'application/openapi+json, application/json, application/yaml;q=0.9, */*;q=0.1' } }

/**
 * JSON, else YAML, both bounded (core/parse/bounded.ts): a document over a bound, or a JSON-looking one nested too
 * deep (never retried as YAML), is no document, like one that does not parse.
 */
function parseDocument(response: HttpSnapshot): Record<string, unknown> | null {
  if (!isOk(response) || looksLikeHtml(response.body)) return null
  let value: unknown
  try {
    value = parseBoundedJsonOrYaml(response.body)
  } catch {
    return null
  }
  if (!isRecord(value)) return null
  return typeof value.openapi === 'string' || value.swagger === '2.0' ? value : null
}

/** Structural validation without resolving external $refs: a scan never follows a document off-site. */
export function validateOpenapi(document: Record<string, unknown>): string[] {
  const errors: string[] = []
  const version = typeof document.openapi === 'string' ? document.openapi : document.swagger
  if (typeof version !== 'string' || !/^(3\.[0-2]\.\d+|2\.0)$/.test(version))
    errors.push(`unsupported version "${String(version)}"`)
  const info = isRecord(document.info) ? document.info : {}
  if (typeof info.title !== 'string') errors.push('info.title is missing')
  if (typeof info.version !== 'string') errors.push('info.version is missing')
  const hasPaths = isRecord(document.paths) && Object.keys(document.paths).length > 0
  if (!hasPaths && !isRecord(document.webhooks) && !isRecord(document.components)) errors.push('no paths')
  if (errors.length) return errors
  return openapiSchemaErrors(document)
}

function advertisedUrls(homepage: HtmlPage, apiCatalog: ApiCatalogArtifact): string[] {
  const urls = parseLinkHeader(homepage.headers.link, homepage.url)
    .filter((link) => link.rel.includes('service-desc'))
    .map((link) => link.href)
  homepage.$('link[rel~="service-desc"][href]').each((_, element) => {
    try {
      urls.push(new URL(homepage.$(element).attr('href')!, homepage.url).href)
    } catch {
      // An unparseable href advertises nothing.
    }
  })
  for (const entry of apiCatalog.linkset ?? []) {
    for (const link of entry.relations['service-desc'] ?? []) urls.push(link.href)
  }
  return [...new Set(urls)]
}

export const openapiCollector = defineCollector({
  key: 'openapi',
  async collect({ http, target, get }) {
    const [homepage, apiCatalog] = await Promise.all([get('homepage'), get('apiCatalog')])
    const advertised = advertisedUrls(homepage, apiCatalog).filter((url) => isSameSite(url, target.domain))
    const guessed = OPENAPI_GUESSES.map((path) => `${target.origin}${path}`).filter((url) => !advertised.includes(url))
    const candidates = [
      ...advertised.map((url) => ({ url, source: 'advertised' as const })),
      ...guessed.map((url) => ({ url, source: 'guessed' as const })),
    ]
    // Fetched concurrently (the session bounds per-host concurrency), then taken in discovery order.
    const responses = await Promise.all(
      candidates.map((candidate) => fetchSnapshot(http, candidate.url, ACCEPT).catch(() => null)),
    )
    const tried: string[] = []
    for (const [index, candidate] of candidates.entries()) {
      tried.push(candidate.url)
      const response = responses[index]
      const document = response ? parseDocument(response) : null
      if (!response || !document) continue
      const errors = validateOpenapi(document)
      return {
        source: candidate.source,
        url: candidate.url,
        response,
        document,
        valid: errors.length === 0,
        errors,
        tried,
      }
    }
    return { source: null, url: null, response: null, document: null, valid: false, errors: [], tried }
  },
})
