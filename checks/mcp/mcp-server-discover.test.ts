import { describe, expect, test } from 'bun:test'
import {
  httpReply,
  mcpContext,
  mcpServer,
  modernServer,
  noResponse,
  rpcResult,
} from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-server-discover.ts'

const dualEra = rpcResult('server/discover', {
  resultType: 'complete',
  supportedVersions: ['2025-11-25', '2026-07-28'],
  capabilities: { tools: {} },
})

describe('mcp-server-discover', () => {
  test.each([
    ['a modern server', 'pass', modernServer()],
    ['a legacy server that also answers discover', 'pass', mcpServer({ discover: dualEra })],
    ['a legacy server answering -32601 (bonus unearned)', 'fail', mcpServer()],
    [
      'a result without supportedVersions',
      'fail',
      mcpServer({ discover: rpcResult('server/discover', { capabilities: {} }) }),
    ],
    [
      'an HTML page',
      'fail',
      mcpServer({ discover: httpReply('server/discover', 404, '<html><body>Not found</body></html>', 'text/html') }),
    ],
    ['discover timed out', 'error', mcpServer({ discover: noResponse('server/discover') })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'fail') expect(outcome.recommendation).toContain('server/discover')
  })

  test('reports the versions and capabilities it found', () => {
    expect(check.run({ mcp: mcpServer({ discover: dualEra }) }, mcpContext).details).toContain(
      '[2025-11-25, 2026-07-28]',
    )
  })
})
