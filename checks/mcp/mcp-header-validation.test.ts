import { describe, expect, test } from 'bun:test'
import type { McpExchange } from '../../core/engine/collectors/mcp.ts'
import {
  httpReply,
  mcpContext,
  mcpServer,
  modernServer,
  noResponse,
  rpcError,
  rpcResult,
} from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-header-validation.ts'

const VALIDATION = 'MCP 2026-07-28 basic/transports/streamable-http#server-validation'
const DUAL_ERA = {
  resultType: 'complete',
  supportedVersions: ['2025-11-25', '2026-07-28'],
  capabilities: {},
  ttlMs: 0,
  cacheScope: 'public',
}
const probed = (headerMismatch: McpExchange) => modernServer({ probes: { headerMismatch } })

describe('mcp-header-validation', () => {
  test.each([
    [`${VALIDATION}: Mcp-Method disagreeing with the body refused with 400 and -32020 passes`, 'pass', modernServer()],
    [
      `${VALIDATION}: the mismatching request answered with a result fails`,
      'fail',
      probed(rpcResult('server/discover', { supportedVersions: ['2026-07-28'], capabilities: {} })),
    ],
    [
      `${VALIDATION}: refused with 400 but another code warns`,
      'warning',
      probed(rpcError('server/discover', -32600, { status: 400 })),
    ],
    [`${VALIDATION}: -32020 with HTTP 200 warns`, 'warning', probed(rpcError('server/discover', -32020))],
    [
      `${VALIDATION}: an HTML error page warns`,
      'warning',
      probed(httpReply('server/discover', 403, '<html>Forbidden</html>', 'text/html')),
    ],
    ['MCP 2025-11-25 (earlier era): no Mcp-Method header, not applicable', 'na', mcpServer()],
    [
      `${VALIDATION}: a server speaking 2025-11-25 and 2026-07-28 that accepts the mismatch fails`,
      'fail',
      mcpServer({
        discover: rpcResult('server/discover', DUAL_ERA),
        probes: { headerMismatch: rpcResult('server/discover', DUAL_ERA) },
      }),
    ],
    ['the probe timed out', 'error', probed(noResponse('server/discover'))],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'fail' || expected === 'warning') expect(outcome.recommendation).toContain('-32020')
  })
})
