import { describe, expect, test } from 'bun:test'
import {
  httpReply,
  mcpContext,
  mcpList,
  mcpServer,
  modernServer,
  noResponse,
  rpcError,
  rpcResult,
} from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-error-handling.ts'

const html = (rpc: string, status: number) =>
  httpReply(rpc, status, '<!doctype html><html><body>Oops</body></html>', 'text/html')
const undeclared = { declared: false, items: [] }

describe('mcp-error-handling', () => {
  test.each([
    ['every probe gets the right JSON-RPC error', 'pass', mcpServer()],
    ['a modern server: 404 + -32601, -32602 for a missing resource', 'pass', modernServer()],
    [
      'an unknown tool as an isError result',
      'pass',
      mcpServer({
        probes: {
          unknownTool: rpcResult('tools/call', { content: [{ type: 'text', text: 'Unknown tool' }], isError: true }),
        },
      }),
    ],
    [
      'malformed JSON as a bare 400',
      'pass',
      mcpServer({ probes: { malformedJson: httpReply('', 400, 'Bad Request') } }),
    ],
    [
      'resources/read -32601 without the resources capability',
      'pass',
      mcpServer({
        resources: mcpList([], undeclared),
        probes: { unknownResource: rpcError('resources/read', -32601) },
      }),
    ],
    [
      'tools/call -32601 without the tools capability',
      'pass',
      mcpServer({ tools: mcpList([], undeclared), probes: { unknownTool: rpcError('tools/call', -32601) } }),
    ],
    ['an unknown method with -32600', 'warning', mcpServer({ probes: { unknownMethod: rpcError('foo/bar', -32600) } })],
    [
      'an unknown resource with -32603',
      'warning',
      mcpServer({ probes: { unknownResource: rpcError('resources/read', -32603) } }),
    ],
    [
      'modern: -32601 without the 404',
      'warning',
      modernServer({ probes: { unknownMethod: rpcError('foo/bar', -32601) } }),
    ],
    [
      'an unknown method gets HTTP 500',
      'fail',
      mcpServer({ probes: { unknownMethod: rpcError('foo/bar', -32603, { status: 500 }) } }),
    ],
    ['malformed JSON gets an HTML page', 'fail', mcpServer({ probes: { malformedJson: html('', 400) } })],
    [
      'an unknown tool "succeeds"',
      'fail',
      mcpServer({ probes: { unknownTool: rpcResult('tools/call', { content: [] }) } }),
    ],
    [
      'an unknown method gets a bare 404',
      'fail',
      mcpServer({ probes: { unknownMethod: httpReply('foo/bar', 404, 'Not found') } }),
    ],
    ['only HTTP+SSE: the same probes, sent over its session', 'pass', mcpServer({ legacySseOnly: true })],
    ['a probe got no answer', 'error', mcpServer({ probes: { malformedJson: noResponse('') } })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('a 500 fails even when another probe got no answer', () => {
    const mcp = mcpServer({ probes: { unknownMethod: html('foo/bar', 500), malformedJson: noResponse('') } })
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe('fail')
    expect(outcome.details).toContain('did not complete')
  })

  test('names the code seen and the code expected', () => {
    const outcome = check.run(
      { mcp: mcpServer({ probes: { unknownMethod: rpcError('foo/bar', -32600) } }) },
      mcpContext,
    )
    expect(outcome.details).toContain('-32600')
    expect(outcome.recommendation).toContain('-32601')
  })
})
