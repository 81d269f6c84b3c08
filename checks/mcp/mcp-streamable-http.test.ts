import { describe, expect, test } from 'bun:test'
import {
  exchange,
  httpReply,
  mcpContext,
  mcpServer,
  modernServer,
  noResponse,
  rpcResult,
} from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-streamable-http.ts'

const server = mcpServer()
const sseStream = httpReply('', 200, '', 'text/event-stream', {
  request: { method: 'GET', headers: { accept: 'text/event-stream' } },
})
const html = (rpc: string, status = 200) =>
  httpReply(rpc, status, '<!doctype html><html><body>Hello</body></html>', 'text/html')
const malformedSse = exchange({
  rpc: 'ping',
  contentType: 'text/event-stream',
  body: 'event: message\ndata: {oops\n\n',
  sseMalformed: true,
})

describe('mcp-streamable-http', () => {
  test.each([
    ['JSON answers, 202 notification, GET 405', 'pass', server],
    [
      'SSE answers and a GET stream',
      'pass',
      mcpServer({ ping: rpcResult('ping', {}, { sse: true }), probes: { getStream: sseStream } }),
    ],
    ['a modern server', 'pass', modernServer()],
    ['GET answers 404', 'warning', mcpServer({ probes: { getStream: httpReply('', 404, 'Not found') } })],
    ['GET answers an HTML page', 'warning', mcpServer({ probes: { getStream: html('', 200) } })],
    [
      'the notification gets 200',
      'warning',
      mcpServer({ initialized: httpReply('notifications/initialized', 200, '', '', { notification: true }) }),
    ],
    ['an SSE data line is not JSON', 'warning', mcpServer({ ping: malformedSse })],
    ['a POST without Accept gets HTML', 'warning', mcpServer({ probes: { postWithoutAccept: html('tools/list') } })],
    ['only HTTP+SSE', 'warning', mcpServer({ legacySseOnly: true, initialize: httpReply('initialize', 405) })],
    ['ping answered as text/plain', 'fail', mcpServer({ ping: httpReply('ping', 200, '{}', 'text/plain') })],
    [
      'a request answered with an HTML page',
      'fail',
      mcpServer({ probes: { correctVersionHeader: html('tools/list') } }),
    ],
    [
      'application/json that is not JSON-RPC',
      'fail',
      mcpServer({ ping: httpReply('ping', 200, 'ok', 'application/json') }),
    ],
    ['initialize timed out', 'error', mcpServer({ initialize: noResponse('initialize'), handshake: null })],
    [
      'the notification timed out',
      'error',
      mcpServer({ initialized: noResponse('notifications/initialized', undefined, { notification: true }) }),
    ],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('error answers are judged by mcp-error-handling, not here', () => {
    const mcp = mcpServer({
      probes: { unknownMethod: html('foo/bar', 404), malformedJson: httpReply('', 500, 'boom') },
    })
    expect(check.run({ mcp }, mcpContext).status).toBe('pass')
  })

  test('a GET stream that sends no headers is noted, not held against the server', () => {
    const mcp = mcpServer({
      probes: { getStream: noResponse('', 'no complete answer in time', { request: { method: 'GET', headers: {} } }) },
    })
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe('pass')
    expect(outcome.details).toContain('GET sent no headers')
  })

  test('names the request and what it got', () => {
    const outcome = check.run({ mcp: mcpServer({ ping: httpReply('ping', 200, '{}', 'text/plain') }) }, mcpContext)
    expect(outcome.details).toContain('ping got HTTP 200 text/plain')
  })
})
