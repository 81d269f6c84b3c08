import { defineCollector } from '../check.ts'
import { ACCEPT } from '../lib/media-types.ts'
import { nullOnCollectorError, settle } from './lib/fetch.ts'
import { fetchSnapshot, type HttpSnapshot, isRecord, parseJson } from '../snapshot.ts'

export interface GraphqlArtifact {
  /** The first of /graphql, /api/graphql that answered like GraphQL (JSON with data or errors); null when none. */
  endpoint: string | null
  /** The introspection response body, parsed, from that endpoint. */
  introspection: unknown
  /** Every probe made, for details. */
  probes: { url: string; status: number | null; contentType: string; error?: string }[]
  /** GET /schema.graphql, fetched only when introspection is disabled; null otherwise. */
  sdl: HttpSnapshot | null
}

const GRAPHQL_PATHS = ['/graphql', '/api/graphql']
/** The smallest introspection query (docs/checks.md §14.4): enough to tell whether introspection is on. */
const INTROSPECTION_QUERY = '{__schema{queryType{name}}}'

/** A GraphQL response (spec §7.1): a JSON object with `data` or `errors`. */
function graphqlResponse(body: string): Record<string, unknown> | null {
  const value = parseJson(body)
  return isRecord(value) && ('data' in value || Array.isArray(value.errors)) ? value : null
}

function hasSchema(introspection: unknown): boolean {
  return isRecord(introspection) && isRecord(introspection.data) && isRecord(introspection.data.__schema)
}

export const graphqlCollector = defineCollector({
  key: 'graphql',
  async collect({ http, target }) {
    const probes: GraphqlArtifact['probes'] = []
    for (const path of GRAPHQL_PATHS) {
      const url = `${target.origin}${path}`
      const { response, error } = await settle(
        fetchSnapshot(http, url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: ACCEPT.graphql },
          body: JSON.stringify({ query: INTROSPECTION_QUERY }),
        }),
      )
      if (!response) {
        probes.push({ url, status: null, contentType: '', error })
        continue
      }
      probes.push({ url, status: response.status, contentType: response.contentType })
      const introspection = graphqlResponse(response.body)
      if (!introspection) continue
      let sdl: HttpSnapshot | null = null
      if (!hasSchema(introspection)) {
        // Introspection is off: a published SDL makes up for it.
        sdl = await fetchSnapshot(http, `${target.origin}/schema.graphql`, {
          headers: { accept: 'application/graphql, text/plain;q=0.9, */*;q=0.1' },
        }).catch(nullOnCollectorError)
      }
      return { endpoint: url, introspection, probes, sdl }
    }
    return { endpoint: null, introspection: null, probes, sdl: null }
  },
})
