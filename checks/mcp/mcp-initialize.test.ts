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
import check from './mcp-initialize.ts'

const handshake = mcpServer().handshake!
const html = httpReply('initialize', 200, '<!doctype html><html><body>Welcome</body></html>', 'text/html')

describe('mcp-initialize', () => {
  test.each([
    ['a well-made legacy server', 'pass', mcpServer()],
    ['a modern server answering server/discover', 'pass', modernServer()],
    [
      'the notification gets 200',
      'warning',
      mcpServer({ initialized: httpReply('notifications/initialized', 200, '', '', { notification: true }) }),
    ],
    ['serverInfo.version missing', 'warning', mcpServer({ handshake: { ...handshake, serverInfo: { name: 'acme' } } })],
    ['only HTTP+SSE answers', 'warning', mcpServer({ legacySseOnly: true, initialize: httpReply('initialize', 405) })],
    [
      'modern serverInfo without version',
      'warning',
      modernServer({ handshake: { ...modernServer().handshake, serverInfo: { name: 'acme' } } }),
    ],
    [
      'a JSON-RPC error on initialize',
      'fail',
      mcpServer({ initialize: rpcError('initialize', -32603), handshake: null }),
    ],
    [
      'an HTML page',
      'fail',
      mcpServer({
        initialize: html,
        handshake: null,
        handshakeError: 'Streamable HTTP error: Unexpected content type: text/html',
      }),
    ],
    [
      'a result without capabilities',
      'fail',
      mcpServer({ handshake: { protocolVersion: '2025-11-25', serverInfo: { name: 'acme', version: '1' } } }),
    ],
    [
      'HTTP+SSE fallback failing too',
      'fail',
      mcpServer({ legacySseOnly: true, initialize: httpReply('initialize', 404), handshake: null }),
    ],
    [
      'MCP 2026-07-28 server/discover (modern servers MUST implement it): -32601 on discover fails',
      'fail',
      modernServer({ discover: rpcError('server/discover', -32601), handshake: null }),
    ],
    [
      'modern, discover result without supportedVersions',
      'fail',
      modernServer({ discover: rpcResult('server/discover', { capabilities: {} }) }),
    ],
    ['initialize timed out', 'error', mcpServer({ initialize: noResponse('initialize'), handshake: null })],
    [
      'the notification timed out',
      'error',
      mcpServer({ initialized: noResponse('notifications/initialized', undefined, { notification: true }) }),
    ],
    ['modern, discover timed out', 'error', modernServer({ discover: noResponse('server/discover'), handshake: null })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('names the JSON-RPC error and the notification status it saw', () => {
    expect(
      check.run({ mcp: mcpServer({ initialize: rpcError('initialize', -32603), handshake: null }) }, mcpContext)
        .details,
    ).toContain('-32603')
    const outcome = check.run(
      {
        mcp: mcpServer({
          initialized: httpReply('notifications/initialized', 400, 'bad', 'text/plain', { notification: true }),
        }),
      },
      mcpContext,
    )
    expect(outcome.details).toContain('HTTP 400')
    expect(outcome.recommendation).toContain('202 Accepted')
  })

  test('a fail found before a probe timed out stands', () => {
    const mcp = mcpServer({ handshake: { protocolVersion: 1 }, initialized: noResponse('notifications/initialized') })
    expect(check.run({ mcp }, mcpContext).status).toBe('fail')
  })
})
