// ping is answered with an empty result within 5 seconds; not applicable to modern-only servers, as 2026-07-28
// removed it. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping
import { defineCheck, fail, na, pass } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import { describeExchange, describeRpcError, isModern, MCP_SPEC, resultOf, unfinished } from '../lib/mcp-checks.ts'

const LIMIT_MS = 5000
const FIX =
  'Answer {"jsonrpc": "2.0", "id": ..., "method": "ping"} promptly with {"result": {}} (the MCP SDKs do this for you).'

export default defineCheck({
  meta: {
    id: 'mcp-ping',
    name: 'Ping answered',
    description:
      'Clients ping to keep connections alive and to tell a slow tool from a dead server; a server that does not answer gets dropped.',
    layer: 'usability',
    applicability: 'mcp',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 2,
    specUrl: `${MCP_SPEC}/basic/utilities/ping`,
    recommendation: FIX,
    needs: ['mcp'],
  },
  run({ mcp }) {
    if (isModern(mcp)) return na('The server speaks only MCP 2026-07-28, which removed ping')
    const { ping } = mcp
    if (!ping) return na('ping was not sent because the handshake did not succeed (mcp-initialize reports it)')
    if (unfinished(ping)) return unreachable(`ping did not complete: ${describeExchange(ping)}`)
    const error = ping.response?.error
    if (error) {
      return fail(`ping answered ${describeRpcError(error)}${error.code === -32601 ? ': not implemented' : ''}`, FIX)
    }
    const result = resultOf(ping)
    if (!result) return fail(`ping got ${describeExchange(ping)}, not a result object`, FIX)
    if (ping.durationMs > LIMIT_MS) {
      return fail(
        `ping took ${Math.round(ping.durationMs)} ms, over the ${LIMIT_MS / 1000} s a client waits`,
        'Answer ping straight away, before any slow work (do not queue it behind tool calls).',
      )
    }
    const extra = Object.keys(result).length > 0 ? ` (with extra fields ${Object.keys(result).join(', ')})` : ''
    return pass(`ping answered with an empty result${extra} in ${Math.round(ping.durationMs)} ms`)
  },
})
