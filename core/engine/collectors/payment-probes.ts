import { CollectorError, defineCollector } from '../check.ts'
import { isSameSite } from '../lib/links.ts'
import { BROWSER_HEADERS, fetchSnapshot, isRecord, type HttpSnapshot } from '../snapshot.ts'

/** Responses from URLs likely to demand payment: /, /api, and paid OpenAPI operations (never pays). */
export interface PaymentProbesArtifact {
  responses: {
    url: string
    response: HttpSnapshot | null
    error?: string
    /**
     * Why the URL was probed: the homepage, the conventional /api root, an OpenAPI operation that declares payment,
     * or a same-site URL that had already answered 402 to another collector of this scan.
     */
    via?: 'root' | 'api' | 'openapi-paid'
    /** For `openapi-paid`: the operation as `METHOD /path` from the document. */
    operation?: string
  }[]
}

type Via = NonNullable<PaymentProbesArtifact['responses'][number]['via']>

/** An OpenAPI operation that declares a 402 response or `x-payment-info` (MPP's discovery extension). */
export interface PaidOperation {
  method: string
  path: string
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const
const MAX_PAID_PROBES = 2
const API_HEADERS = { accept: 'application/json, application/problem+json;q=0.9, */*;q=0.5' }

/** Paid operations in document order, GET (safe to probe) first. */
export function paidOperations(document: Record<string, unknown> | null): PaidOperation[] {
  if (!document || !isRecord(document.paths)) return []
  const found: PaidOperation[] = []
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue
    for (const method of METHODS) {
      const operation = item[method]
      if (!isRecord(operation)) continue
      const responses = isRecord(operation.responses) ? operation.responses : {}
      if ('402' in responses || 'x-payment-info' in operation) found.push({ method, path })
    }
  }
  return found.sort((a, b) => Number(a.method !== 'get') - Number(b.method !== 'get'))
}

/**
 * Where the document's operations live: servers[0] (OpenAPI 3) or host + basePath (Swagger 2), resolved against
 * the document URL; the target origin when the document names another site.
 */
export function operationsBase(
  document: Record<string, unknown> | null,
  documentUrl: string | null,
  origin: string,
  domain: string,
): string {
  let base: string | null = null
  if (document && Array.isArray(document.servers) && isRecord(document.servers[0])) {
    const server = document.servers[0]
    const variables = isRecord(server.variables) ? server.variables : {}
    const url = typeof server.url === 'string' ? server.url : ''
    base = url.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const variable = variables[name]
      return isRecord(variable) && typeof variable.default === 'string' ? variable.default : ''
    })
  } else if (document && typeof document.host === 'string') {
    const scheme =
      Array.isArray(document.schemes) && typeof document.schemes[0] === 'string'
        ? document.schemes[0]
        : new URL(origin).protocol.slice(0, -1)
    base = `${scheme}://${document.host}${typeof document.basePath === 'string' ? document.basePath : ''}`
  }
  if (base === null) return origin
  try {
    const resolved = new URL(base, documentUrl ?? origin).href
    return isSameSite(resolved, domain) ? resolved.replace(/\/$/, '') : origin
  } catch {
    return origin
  }
}

export const paymentProbesCollector = defineCollector({
  key: 'paymentProbes',
  async collect(ctx) {
    const { http, target } = ctx
    const openapi = await ctx.get('openapi').catch((error: unknown) => {
      if (error instanceof CollectorError) return null
      throw error
    })
    const base = operationsBase(openapi?.document ?? null, openapi?.url ?? null, target.origin, target.domain)
    const plan: { url: string; via: Via; operation?: string; headers: Record<string, string> }[] = [
      // Same URL and headers as the homepage collector, so the session memo answers it without a second request.
      { url: `${target.origin}/`, via: 'root', headers: { ...BROWSER_HEADERS } },
      { url: `${target.origin}/api`, via: 'api', headers: API_HEADERS },
    ]
    for (const { method, path } of paidOperations(openapi?.document ?? null)) {
      const url = `${base}${path.replace(/\{[^}]+\}/g, '1')}`
      if (plan.some((probe) => probe.url === url)) continue
      plan.push({ url, via: 'openapi-paid', operation: `${method.toUpperCase()} ${path}`, headers: API_HEADERS })
      if (plan.length === 2 + MAX_PAID_PROBES) break
    }
    // Only GET, whatever the operation's method: a probe must never change state, and it never sends payment headers.
    const responses = await Promise.all(
      plan.map(async ({ url, via, operation, headers }) => {
        try {
          return { url, via, operation, response: await fetchSnapshot(http, url, { headers }) }
        } catch (error) {
          if (!(error instanceof CollectorError)) throw error
          return { url, via, operation, response: null, error: error.message }
        }
      }),
    )
    if (responses.every((probe) => probe.response === null)) {
      throw new CollectorError(`no payment probe got a response: ${responses.map((probe) => probe.error).join('; ')}`)
    }
    return { responses }
  },
})
