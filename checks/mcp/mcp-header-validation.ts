// A 2026-07-28 server checks the routing headers against the body: a request whose Mcp-Method header names another
// method than the body gets 400 Bad Request with JSON-RPC error -32020 (HeaderMismatch), so gateways that route on
// headers cannot be steered past the server's own judgement.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import { describeExchange, errorCode, MCP_MODERN_SPEC, resultOf, speaksModern, unfinished } from '../lib/mcp-checks.ts'

const HEADER_MISMATCH = -32020
const FIX =
  'Compare Mcp-Method (and Mcp-Name, MCP-Protocol-Version) with the JSON-RPC body before handling a request, and answer a disagreement with HTTP 400 and {"error": {"code": -32020, "message": "Header mismatch: …"}}.'

export default defineCheck({
  meta: {
    id: 'mcp-header-validation',
    name: 'Mcp-Method header validated (2026-07-28)',
    description:
      'Load balancers and gateways route 2026-07-28 requests on the Mcp-Method and Mcp-Name headers; a server that does not check them against the body lets a request be routed as one method and run as another.',
    layer: 'accessibility',
    applicability: 'mcp',
    tier: 'emerging',
    maturity: 'emerging',
    maxScore: 2,
    specUrl: `${MCP_MODERN_SPEC}/basic/transports/streamable-http#server-validation`,
    recommendation: FIX,
    needs: ['mcp'],
  },
  run({ mcp }) {
    if (!speaksModern(mcp))
      return na(
        'The server speaks only handshake-based revisions (2025-11-25 or earlier), which have no Mcp-Method header',
      )
    const probe = mcp.probes.headerMismatch
    if (unfinished(probe))
      return unreachable(
        `server/discover sent with Mcp-Method: tools/list did not complete: ${describeExchange(probe)}`,
      )
    const what = 'server/discover sent with the header Mcp-Method: tools/list'
    const code = errorCode(probe)
    if (probe.status === 400 && code === HEADER_MISMATCH)
      return pass(`${what} is refused with HTTP 400 and -32020 (HeaderMismatch)`)
    if (
      resultOf(probe) !== undefined ||
      (probe.status !== null && probe.status >= 200 && probe.status < 300 && code === undefined)
    ) {
      return fail(
        `${what} is accepted (${describeExchange(probe)}): the server does not check the header against the body`,
        FIX,
      )
    }
    return warn(
      `${what} is refused, but with ${describeExchange(probe)} instead of HTTP 400 and -32020 (HeaderMismatch)`,
      FIX,
    )
  },
})
