// How usable the OpenAPI operations are to an agent: unique operationIds, summaries, 2xx response schemas, described
// parameters, declared security schemes and absolute server URLs. Spec: https://spec.openapis.org/oas/latest.html
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

interface Operation {
  label: string
  value: Record<string, unknown>
  parameters: Record<string, unknown>[]
}

interface Criterion {
  name: string
  met: number
  total: number
  /** Labels of operations (or document parts) that miss it, for the recommendation. */
  missing: string[]
  fix: string
}

export default defineCheck({
  meta: {
    id: 'openapi-operation-quality',
    name: 'OpenAPI operation quality',
    description:
      'Agents pick and call operations from their ids, summaries, parameter descriptions and response schemas; a bare document tells them the paths but not how to use them.',
    layer: 'usability',
    applicability: 'api',
    protocol: 'rest',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 4,
    specUrl: 'https://spec.openapis.org/oas/latest.html',
    recommendation:
      'Give every operation a unique operationId, a summary, described parameters and a 2xx response schema; declare securitySchemes for any security requirement; use absolute servers URLs.',
    needs: ['apiSignals', 'openapi'],
  },
  run({ apiSignals, openapi }) {
    const document = openapi.document
    if (!document) {
      return na(
        apiSignals.hasApi
          ? 'No OpenAPI document was found, so there are no operations to assess (openapi-description reports the missing document)'
          : 'No API signals and no OpenAPI document',
      )
    }
    const operations = collectOperations(document)
    if (operations.length === 0) return na(`The OpenAPI document at ${openapi.url ?? 'the API'} declares no operations`)

    const criteria = [
      uniqueIds(operations),
      perOperation(
        operations,
        'summary or description',
        (op) => Boolean(text(op.value.summary) || text(op.value.description)),
        'add a summary',
      ),
      perOperation(
        operations,
        '2xx response schema',
        (op) => hasSuccessSchema(document, op.value),
        'document the 2xx response schema',
      ),
      perOperation(
        operations.filter((op) => op.parameters.length > 0),
        'parameters described',
        (op) => op.parameters.every((parameter) => text(parameter.description) !== ''),
        'describe every parameter',
      ),
      securityDeclared(document, operations),
      absoluteServers(document),
    ].filter((criterion): criterion is Criterion => criterion !== null && criterion.total > 0)

    const ratio = criteria.reduce((sum, criterion) => sum + criterion.met / criterion.total, 0) / criteria.length
    const options = { fraction: ratio, occurrences: operations.length }
    const summary = `${operations.length} operation(s) in ${openapi.url ?? 'the OpenAPI document'}: ${criteria.map((criterion) => `${criterion.name} ${criterion.met}/${criterion.total}`).join(', ')} (${Math.round(ratio * 100)}%)`
    const gaps = criteria.filter((criterion) => criterion.met < criterion.total)
    if (gaps.length === 0) return pass(summary, options)
    const recommendation = gaps
      .map((criterion) => {
        const shown = criterion.missing.slice(0, 3).join(', ')
        const more = criterion.missing.length > 3 ? ` (+${criterion.missing.length - 3} more)` : ''
        return `${criterion.fix}: ${shown}${more}`
      })
      .join('; ')
    if (ratio >= 0.8) return { ...pass(summary, options), recommendation: `${recommendation}.` }
    return ratio >= 0.5 ? warn(summary, `${recommendation}.`, options) : fail(summary, `${recommendation}.`, options)
  },
})

function collectOperations(document: Record<string, unknown>): Operation[] {
  const paths = isRecord(document.paths) ? document.paths : {}
  const operations: Operation[] = []
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolve(document, rawItem)
    if (!isRecord(item)) continue
    const shared = resolveAll(document, item.parameters)
    for (const method of METHODS) {
      const value = item[method]
      if (!isRecord(value)) continue
      const own = resolveAll(document, value.parameters)
      // Operation-level parameters override path-level ones with the same name and location.
      const key = (parameter: Record<string, unknown>) => `${String(parameter.in)}:${String(parameter.name)}`
      const ownKeys = new Set(own.map(key))
      operations.push({
        label: `${method.toUpperCase()} ${path}`,
        value,
        parameters: [...shared.filter((p) => !ownKeys.has(key(p))), ...own],
      })
    }
  }
  return operations
}

function uniqueIds(operations: Operation[]): Criterion {
  const counts = new Map<string, number>()
  for (const op of operations) {
    const id = text(op.value.operationId)
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  const missing = operations.filter((op) => {
    const id = text(op.value.operationId)
    return !id || counts.get(id)! > 1
  })
  return {
    name: 'unique operationId',
    met: operations.length - missing.length,
    total: operations.length,
    missing: missing.map((op) => op.label),
    fix: 'give a unique operationId to',
  }
}

function perOperation(operations: Operation[], name: string, test: (op: Operation) => boolean, fix: string): Criterion {
  const missing = operations.filter((op) => !test(op)).map((op) => op.label)
  return { name, met: operations.length - missing.length, total: operations.length, missing, fix: `${fix} to` }
}

function hasSuccessSchema(document: Record<string, unknown>, operation: Record<string, unknown>): boolean {
  const responses = isRecord(operation.responses) ? operation.responses : {}
  return Object.entries(responses).some(([status, raw]) => {
    if (!/^2(?:\d\d|XX)$/i.test(status)) return false
    if (status === '204') return true
    const response = resolve(document, raw)
    if (!isRecord(response)) return false
    if (response.schema !== undefined) return true // Swagger 2.0
    const content = isRecord(response.content) ? response.content : {}
    return Object.values(content).some((media) => isRecord(media) && media.schema !== undefined)
  })
}

/** Applies only when some security requirement is used; null otherwise. */
function securityDeclared(document: Record<string, unknown>, operations: Operation[]): Criterion | null {
  const requirements = [document.security, ...operations.map((op) => op.value.security)].flatMap((value) =>
    Array.isArray(value) ? value.filter(isRecord) : [],
  )
  const used = [...new Set(requirements.flatMap((requirement) => Object.keys(requirement)))]
  if (used.length === 0) return null
  const components = isRecord(document.components) ? document.components : {}
  const schemes = isRecord(components.securitySchemes)
    ? components.securitySchemes
    : isRecord(document.securityDefinitions)
      ? document.securityDefinitions
      : {}
  const undeclared = used.filter((name) => !(name in schemes))
  return {
    name: 'security schemes declared',
    met: undeclared.length === 0 ? 1 : 0,
    total: 1,
    missing: undeclared.map((name) => `"${name}"`),
    fix: 'declare in components.securitySchemes the scheme(s)',
  }
}

function absoluteServers(document: Record<string, unknown>): Criterion {
  if (typeof document.swagger === 'string') {
    const ok = typeof document.host === 'string' && document.host !== ''
    return {
      name: 'absolute server URL',
      met: ok ? 1 : 0,
      total: 1,
      missing: ok ? [] : ['host'],
      fix: 'set an absolute API location in',
    }
  }
  const servers = Array.isArray(document.servers) ? document.servers.filter(isRecord) : []
  const relative = servers.filter((server) => !/^https?:\/\//i.test(text(server.url)))
  const ok = servers.length > 0 && relative.length === 0
  return {
    name: 'absolute server URL',
    met: ok ? 1 : 0,
    total: 1,
    missing:
      servers.length === 0
        ? ['servers (missing, so it defaults to "/")']
        : relative.map((server) => `servers url "${text(server.url)}"`),
    fix: 'use an absolute https URL in',
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

/** Follows local `$ref`s (`#/components/...`), at most a few hops; external refs stay unresolved. */
function resolve(document: Record<string, unknown>, value: unknown): unknown {
  let current = value
  for (let hop = 0; hop < 5 && isRecord(current) && typeof current.$ref === 'string'; hop += 1) {
    const ref: string = current.$ref
    if (!ref.startsWith('#/')) return current
    current = ref
      .slice(2)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, segment) => (isRecord(node) ? node[segment] : undefined), document)
  }
  return current
}

function resolveAll(document: Record<string, unknown>, value: unknown): Record<string, unknown>[] {
  return (Array.isArray(value) ? value : []).map((item) => resolve(document, item)).filter(isRecord)
}
