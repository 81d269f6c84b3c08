// MCP 2026-07-28 results say what they are and how long they stay fresh: server/discover, the list methods and
// resources/read carry resultType and the cache hints ttlMs (an integer >= 0) and cacheScope ("public" or "private").
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
import { type McpServerArtifact, type ResultEnvelope, resultEnvelope } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, na, pass, warn } from '../../core/engine/check.ts'
import { listSome } from '../../core/engine/lib/describe.ts'
import { unreachable } from '../lib/outcomes.ts'
import { describeExchange, isModern, MCP_MODERN_SPEC, resultOf, speaksModern, unfinished } from '../lib/mcp-checks.ts'

const CACHE_SCOPES: readonly unknown[] = ['public', 'private']

/** What one result's envelope lacks or gets wrong; empty when it is complete. */
export function envelopeProblems(envelope: ResultEnvelope): string[] {
  const problems: string[] = []
  if (envelope.resultType === undefined) problems.push('no resultType')
  else if (typeof envelope.resultType !== 'string') problems.push('a resultType that is not a string')
  if (envelope.ttlMs === undefined) problems.push('no ttlMs')
  else if (typeof envelope.ttlMs !== 'number' || !Number.isInteger(envelope.ttlMs) || envelope.ttlMs < 0) {
    problems.push(`ttlMs ${JSON.stringify(envelope.ttlMs)} (not an integer >= 0)`)
  }
  if (envelope.cacheScope === undefined) problems.push('no cacheScope')
  else if (!CACHE_SCOPES.includes(envelope.cacheScope))
    problems.push(`cacheScope ${JSON.stringify(envelope.cacheScope)} (not "public" or "private")`)
  return problems
}

/**
 * The cacheable results the scan read, by method: interim `input_required` results carry no hints and are left
 * out, as are lists that were not fetched. Of a server that also speaks the handshake-based revisions, only
 * server/discover is a 2026-07-28 result: its lists were read over the older handshake.
 */
function cacheableResults(mcp: McpServerArtifact): [string, ResultEnvelope][] {
  const results: [string, ResultEnvelope][] = []
  const discovered = resultOf(mcp.discover)
  if (discovered) results.push(['server/discover', resultEnvelope(discovered)])
  if (!isModern(mcp)) return results
  for (const [method, list] of [
    ['tools/list', mcp.tools],
    ['resources/list', mcp.resources],
    ['prompts/list', mcp.prompts],
  ] as const) {
    if (list.pages > 0 && list.envelope) results.push([method, list.envelope])
  }
  for (const [method, exchange] of [
    ['resources/templates/list', mcp.resourceTemplates],
    ['resources/read', mcp.resourceRead],
  ] as const) {
    const result = exchange ? resultOf(exchange) : undefined
    if (result) results.push([method, resultEnvelope(result)])
  }
  return results.filter(([, envelope]) => envelope.resultType !== 'input_required')
}

const FIX =
  'Give every complete result of server/discover, tools/list, resources/list, resources/templates/list, prompts/list and resources/read "resultType": "complete", "ttlMs" (milliseconds the client may treat it as fresh, 0 for always stale) and "cacheScope" ("public" when identical for every user, else "private").'

export default defineCheck({
  meta: {
    id: 'mcp-cache-hints',
    name: 'Result type and cache hints (2026-07-28)',
    description:
      'A 2026-07-28 client caches server/discover, lists and resource reads for as long as ttlMs says, and shares them across users only when cacheScope is public; without the hints it refetches everything every time.',
    layer: 'usability',
    applicability: 'mcp',
    tier: 'emerging',
    maturity: 'emerging',
    maxScore: 2,
    specUrl: `${MCP_MODERN_SPEC}/server/utilities/caching`,
    recommendation: FIX,
    needs: ['mcp'],
  },
  run({ mcp }) {
    if (!speaksModern(mcp))
      return na(
        'The server speaks only handshake-based revisions (2025-11-25 or earlier), whose results carry no resultType or cache hints',
      )
    if (unfinished(mcp.discover))
      return unreachable(`server/discover did not complete: ${describeExchange(mcp.discover)}`)
    const results = cacheableResults(mcp)
    if (results.length === 0)
      return na(
        'No cacheable result came back (server/discover, the lists and resources/read all failed; other checks report why)',
      )
    const flawed = results.flatMap(([method, envelope]) => {
      const problems = envelopeProblems(envelope)
      return problems.length > 0 ? [`${method} has ${problems.join(', ')}`] : []
    })
    const methods = listSome(
      results.map(([method]) => method),
      6,
    )
    if (flawed.length > 0)
      return warn(
        `${flawed.length} of ${results.length} cacheable results lack what 2026-07-28 requires: ${listSome(flawed, 4)}`,
        FIX,
      )
    return pass(`${methods} ${results.length === 1 ? 'carries' : 'carry'} resultType, ttlMs and cacheScope`)
  },
})
