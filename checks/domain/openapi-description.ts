// An OpenAPI (3.x, or Swagger 2.0) description is advertised (Link service-desc, API catalog, <link>) and structurally valid.
// Spec: https://spec.openapis.org/oas/latest.html (service-desc: RFC 8631)
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { listSome, pathOf } from '../../core/engine/lib/describe.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const ADVERTISE = 'Link: </openapi.json>; rel="service-desc"; type="application/json"'

/** docs/checks.md §14.3 "valid": a version, info.title, info.version, and paths (or webhooks/components in 3.1). */
function structuralProblems(document: Record<string, unknown>): { version: string | null; problems: string[] } {
  const problems: string[] = []
  const openapi = typeof document.openapi === 'string' ? document.openapi : null
  const swagger = document.swagger === '2.0'
  if (!swagger && !(openapi && /^3\.[0-2]\.\d+/.test(openapi))) {
    problems.push(
      `no supported version (openapi: ${JSON.stringify(document.openapi ?? null)}, swagger: ${JSON.stringify(document.swagger ?? null)})`,
    )
  }
  const info = isRecord(document.info) ? document.info : {}
  if (typeof info.title !== 'string' || !info.title) problems.push('no info.title')
  if (typeof info.version !== 'string' || !info.version) problems.push('no info.version')
  const nonEmpty = (value: unknown) => isRecord(value) && Object.keys(value).length > 0
  const is31 = openapi?.startsWith('3.1') ?? false
  if (!nonEmpty(document.paths) && !(is31 && (nonEmpty(document.webhooks) || nonEmpty(document.components)))) {
    problems.push('no paths')
  }
  return { version: swagger ? 'Swagger 2.0' : openapi ? `OpenAPI ${openapi}` : null, problems }
}

function hasServers(document: Record<string, unknown>): boolean {
  if (document.swagger === '2.0') return typeof document.host === 'string' && document.host !== ''
  return Array.isArray(document.servers) && document.servers.length > 0
}

export default defineCheck({
  meta: {
    id: 'openapi-description',
    name: 'OpenAPI description discoverable',
    description:
      'A machine-readable OpenAPI description, linked where agents look for it, lets an agent call the API without reading prose docs.',
    layer: 'discovery',
    applicability: 'api',
    protocol: 'rest',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 8,
    specUrl: 'https://spec.openapis.org/oas/latest.html',
    recommendation: `Publish an OpenAPI 3.1 document (e.g. /openapi.json) and advertise it with ${ADVERTISE} and in /.well-known/api-catalog.`,
    needs: ['openapi', 'apiSignals'],
    agentEntryPoint: true,
  },
  run({ openapi, apiSignals }, { target }) {
    const { document } = openapi
    if (!document && !(apiSignals.hasApi && apiSignals.rest)) {
      return na(
        apiSignals.hasApi
          ? 'The API signals point to GraphQL only, not a REST API'
          : 'No API signals (no OpenAPI document, API catalog or API links)',
      )
    }
    if (!document || !openapi.url) {
      return fail(
        `The site shows a REST API (${listSome(apiSignals.reasons, 2)}) but no OpenAPI document was found; tried ${listSome(openapi.tried.map(pathOf), 5)}`,
        `Publish ${target.origin}/openapi.json describing your API and advertise it with ${ADVERTISE}.`,
      )
    }
    const where = pathOf(openapi.url)
    const { version, problems } = structuralProblems(document)
    if (!openapi.valid || problems.length > 0) {
      const errors = [...problems, ...openapi.errors]
      return fail(
        `${where} is not a valid OpenAPI description: ${listSome(errors, 3)}`,
        `Fix ${where} so that it validates as OpenAPI 3.x (openapi, info.title, info.version and non-empty paths); run it through an OpenAPI validator.`,
      )
    }
    const summary = `${version} description at ${where}`
    const issues: string[] = []
    const fixes: string[] = []
    if (openapi.source !== 'advertised') {
      issues.push('it was found only by guessing the path, not through a service-desc link')
      fixes.push(
        `advertise it with Link: <${where}>; rel="service-desc" on the homepage or in /.well-known/api-catalog`,
      )
    }
    if (openapi.errors.length > 0) {
      issues.push(`the parser reported ${listSome(openapi.errors, 2)}`)
      fixes.push('fix the reported problems')
    }
    if (!hasServers(document)) {
      issues.push(document.swagger === '2.0' ? 'it declares no host' : 'it declares no servers')
      fixes.push('declare the absolute base URL in servers[].url')
    }
    if (issues.length > 0) return warn(`${summary}; but ${issues.join('; ')}`, `For ${where}: ${fixes.join('; ')}.`)
    return pass(`${summary}, advertised through a service-desc link, with servers declared`)
  },
})
