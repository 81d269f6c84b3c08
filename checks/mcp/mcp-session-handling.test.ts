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
import check from './mcp-session-handling.ts'

const stateless = mcpServer({
  sessionId: null,
  probes: { withoutSession: null, withSession: null, deleteSession: null },
})

describe('mcp-session-handling', () => {
  test.each([
    ['a session id accepted, 400 without, DELETE ends it', 'pass', mcpServer()],
    ['stateless legacy server', 'pass', stateless],
    ['MCP 2026-07-28 streamable-http: a stateless modern server passes', 'pass', modernServer()],
    [
      'MCP 2026-07-28 streamable-http ("do not mint or echo session IDs"): a modern-only server minting Mcp-Session-Id warns',
      'warning',
      modernServer({
        discover: rpcResult('server/discover', modernServer().discover.response!.result, {
          headers: { 'content-type': 'application/json', 'mcp-session-id': 'minted-by-a-modern-server' },
        }),
      }),
    ],
    [
      'works without the session id too, DELETE 405',
      'pass',
      mcpServer({ probes: { withoutSession: mcpServer().probes.withSession, deleteSession: httpReply('', 405) } }),
    ],
    ['a short session id', 'warning', mcpServer({ sessionId: 'abc123' })],
    [
      'a missing session id gets 500',
      'warning',
      mcpServer({ probes: { withoutSession: rpcError('ping', -32603, { status: 500 }) } }),
    ],
    ['DELETE gets 500', 'warning', mcpServer({ probes: { deleteSession: httpReply('', 500, 'boom') } })],
    [
      'the issued id gets 404 on the next request',
      'fail',
      mcpServer({ probes: { withSession: httpReply('ping', 404, 'Session not found') } }),
    ],
    [
      'the issued id gets 400',
      'fail',
      mcpServer({ probes: { withSession: rpcError('ping', -32000, { status: 400 }) } }),
    ],
    ['an id with a space', 'fail', mcpServer({ sessionId: 'session id with spaces 1234' })],
    ['only HTTP+SSE', 'na', mcpServer({ legacySseOnly: true })],
    ['the follow-up request timed out', 'error', mcpServer({ probes: { withSession: noResponse('ping') } })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('names the status the session id got', () => {
    const outcome = check.run(
      { mcp: mcpServer({ probes: { withSession: httpReply('ping', 404, 'Session not found') } }) },
      mcpContext,
    )
    expect(outcome.details).toContain('HTTP 404')
  })
})
