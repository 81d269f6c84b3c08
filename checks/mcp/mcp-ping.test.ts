import { describe, expect, test } from 'bun:test'
import {
  httpReply,
  mcpContext,
  mcpServer,
  modernServer,
  noResponse,
  rpcError,
  rpcResult,
} from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-ping.ts'

describe('mcp-ping', () => {
  test.each([
    ['an empty result', 'pass', mcpServer()],
    ['an empty result over SSE', 'pass', mcpServer({ ping: rpcResult('ping', {}, { sse: true }) })],
    ['method not found', 'fail', mcpServer({ ping: rpcError('ping', -32601) })],
    ['answered after 6 s', 'fail', mcpServer({ ping: rpcResult('ping', {}, { durationMs: 6200 }) })],
    ['a 500 page', 'fail', mcpServer({ ping: httpReply('ping', 500, 'Internal Server Error') })],
    ['a modern-only server', 'na', modernServer()],
    ['only HTTP+SSE: the same probes, sent over its session', 'pass', mcpServer({ legacySseOnly: true })],
    ['no answer at all', 'error', mcpServer({ ping: noResponse('ping') })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('says when ping is not implemented', () => {
    expect(check.run({ mcp: mcpServer({ ping: rpcError('ping', -32601) }) }, mcpContext).details).toContain(
      'not implemented',
    )
  })
})
