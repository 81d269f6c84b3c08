import { randomUUID } from 'node:crypto'
import { CollectorError, defineCollector } from '../check.ts'
import { BROWSER_HEADERS, fetchSnapshot, type HttpSnapshot } from '../snapshot.ts'

export interface NotFoundArtifact {
  /** GET /<random-uuid> */
  page: HttpSnapshot
  /** GET /api/<random-uuid>, only when the target has API signals; null otherwise. */
  api: HttpSnapshot | null
  /** Why `api` is null although the target has API signals (the probe failed); absent otherwise. */
  apiError?: string
}

const API_HEADERS = { accept: 'application/json, application/problem+json;q=0.9, */*;q=0.5' }

function asCollectorError(error: unknown): CollectorError {
  if (error instanceof CollectorError) return error
  throw error
}

/** Asks for paths that cannot exist (a fresh UUID each scan) to see how the site answers a miss. */
export const notFoundCollector = defineCollector({
  key: 'notFound',
  async collect(ctx) {
    const { http, target } = ctx
    const missing = randomUUID()
    const [page, apiSignals] = await Promise.all([
      fetchSnapshot(http, `${target.origin}/${missing}`, { headers: { ...BROWSER_HEADERS } }),
      ctx.get('apiSignals').catch(asCollectorError),
    ])
    if (apiSignals instanceof CollectorError)
      return { page, api: null, apiError: `API signals unavailable: ${apiSignals.message}` }
    if (!apiSignals.hasApi) return { page, api: null }
    const api = await fetchSnapshot(http, `${target.origin}/api/${missing}`, { headers: API_HEADERS }).catch(
      asCollectorError,
    )
    return api instanceof CollectorError ? { page, api: null, apiError: api.message } : { page, api }
  },
})
