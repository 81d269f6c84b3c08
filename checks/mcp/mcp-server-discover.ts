// Bonus for the stateless revision: server/discover returns supportedVersions[] and capabilities, so a 2026-07-28
// client can talk to the server without a handshake. Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/discover
import { defineCheck, fail, pass } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import {
  describeExchange,
  discoverProblems,
  discoverResult,
  errorCode,
  MCP_MODERN_SPEC,
  unfinished,
} from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const FIX =
  'Implement server/discover (MCP 2026-07-28) next to initialize: answer {"resultType": "complete", "supportedVersions": ["2026-07-28", "2025-11-25"], "capabilities": {...}} with serverInfo in _meta["io.modelcontextprotocol/serverInfo"].'

export default defineCheck({
  meta: {
    id: 'mcp-server-discover',
    name: 'server/discover (2026-07-28)',
    description:
      'The 2026-07-28 revision drops the initialize handshake: clients learn versions and capabilities from server/discover, which also lets stateless deployments scale behind plain load balancers.',
    layer: 'discovery',
    applicability: 'mcp',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: true,
    maxScore: 2,
    specUrl: `${MCP_MODERN_SPEC}/server/discover`,
    recommendation: FIX,
    needs: ['mcp'],
  },
  run({ mcp }) {
    const { discover } = mcp
    if (unfinished(discover)) return unreachable(`server/discover did not complete: ${describeExchange(discover)}`)
    const result = discoverResult(mcp)
    if (result) {
      const problems = discoverProblems(result)
      if (problems.length > 0) return fail(`server/discover answers, but ${problems.join('; ')}`, FIX)
      const capabilities = isRecord(result.capabilities) ? Object.keys(result.capabilities) : []
      return pass(
        `server/discover answers supportedVersions [${(result.supportedVersions as string[]).join(', ')}] and capabilities {${capabilities.join(', ')}}`,
      )
    }
    if (errorCode(discover) === -32601) {
      return fail(
        "server/discover answers -32601 (method not found): the server speaks only the handshake-based revisions, which is fine for today's clients",
        FIX,
      )
    }
    return fail(`server/discover got ${describeExchange(discover)}, not a result`, FIX)
  },
})
