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
import check from './mcp-protocol-version.ts'

const legacy = (protocolVersion: unknown, overrides: Parameters<typeof mcpServer>[0] = {}) =>
  mcpServer({ handshake: { ...mcpServer().handshake!, protocolVersion }, ...overrides })
const dualEra = rpcResult('server/discover', {
  supportedVersions: ['2025-06-18', '2025-11-25', '2026-07-28'],
  capabilities: {},
})

describe('mcp-protocol-version', () => {
  test.each([
    ['2025-11-25 with a strict version header', 'pass', mcpServer()],
    ['2025-06-18 negotiated for a 2025-11-25 request', 'pass', legacy('2025-06-18')],
    ['a modern server', 'pass', modernServer()],
    ['only HTTP+SSE, current version, headers not probed', 'pass', legacy('2025-06-18', { legacySseOnly: true })],
    ['deprecated 2025-03-26', 'warning', legacy('2025-03-26')],
    ['deprecated 2024-11-05 over HTTP+SSE', 'warning', legacy('2024-11-05', { legacySseOnly: true })],
    ['an unpublished date', 'warning', legacy('2025-02-30')],
    ['a bogus header is accepted', 'warning', mcpServer({ probes: { bogusVersionHeader: rpcResult('ping', {}) } })],
    [
      'a bogus header gets 500',
      'warning',
      mcpServer({ probes: { bogusVersionHeader: rpcError('ping', -32603, { status: 500 }) } }),
    ],
    ['requested version supported but not echoed', 'warning', legacy('2025-06-18', { discover: dualEra })],
    ['not a date', 'fail', legacy('v1')],
    ['no version at all', 'fail', legacy(undefined)],
    [
      'errors whenever the header is present',
      'fail',
      mcpServer({ probes: { correctVersionHeader: rpcError('ping', -32600, { status: 400 }) } }),
    ],
    ['no handshake', 'fail', mcpServer({ initialize: rpcError('initialize', -32603), handshake: null })],
    ['the bogus-header probe timed out', 'error', mcpServer({ probes: { bogusVersionHeader: noResponse('ping') } })],
    ['initialize timed out', 'error', mcpServer({ initialize: noResponse('initialize'), handshake: null })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('a JSON-RPC error inside a 200 is about the method, not the header', () => {
    const mcp = mcpServer({ probes: { correctVersionHeader: rpcError('tools/list', -32601) } })
    expect(check.run({ mcp }, mcpContext).status).toBe('pass')
  })

  test('requests refused for their session id say nothing about the header', () => {
    const refused = httpReply('ping', 404, 'Session not found')
    const mcp = mcpServer({
      probes: { withSession: refused, correctVersionHeader: refused, bogusVersionHeader: refused },
    })
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe('pass')
    expect(outcome.details).toContain('could not be judged')
  })

  test('says which version to move to', () => {
    const outcome = check.run({ mcp: legacy('2025-03-26') }, mcpContext)
    expect(outcome.recommendation).toContain('2025-03-26 to 2025-11-25')
  })
})
