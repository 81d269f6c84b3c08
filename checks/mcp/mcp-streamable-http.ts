// Streamable HTTP conformance: requests answered as JSON or parseable SSE, notifications with 202 and no body, GET
// with an SSE stream or 405, never HTML. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
import type { McpExchange } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { listSome } from '../../core/engine/lib/describe.ts'
import { unreachable } from '../lib/outcomes.ts'
import { describeExchange, is2xx, isModern, isRequest, MCP_SPEC, settle, unfinished } from '../lib/mcp-checks.ts'

const JSON_TYPE = 'application/json'
const SSE_TYPE = 'text/event-stream'

export default defineCheck({
  meta: {
    id: 'mcp-streamable-http',
    name: 'Streamable HTTP transport conformance',
    description:
      'Remote MCP clients speak Streamable HTTP: they parse JSON or SSE answers, expect 202 for notifications and probe GET for a stream; anything else breaks them before any tool is called.',
    layer: 'accessibility',
    applicability: 'mcp',
    tier: 'required',
    maturity: 'verified',
    maxScore: 10,
    specUrl: `${MCP_SPEC}/basic/transports#streamable-http`,
    recommendation:
      'Answer every JSON-RPC request POST with application/json or text/event-stream, notifications with 202 and no body, and GET with an SSE stream or 405; never with an HTML page.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    if (mcp.legacySseOnly) {
      return warn(
        `Only the deprecated HTTP+SSE transport (2024-11-05) answered; a Streamable HTTP POST to ${mcp.url} got ${describeExchange(mcp.initialize)}`,
        `Serve Streamable HTTP at ${mcp.url} (one endpoint: POST answered with JSON or SSE); keep the HTTP+SSE endpoint only for old clients.`,
      )
    }
    const handshake: [string, McpExchange] = isModern(mcp)
      ? ['server/discover', mcp.discover]
      : ['initialize', mcp.initialize]
    if (unfinished(handshake[1]))
      return unreachable(`${handshake[0]} did not complete: ${describeExchange(handshake[1])}`)

    const { probes } = mcp
    const failures: string[] = []
    const problems: string[] = []
    const fixes = new Set<string>()
    const pending: string[] = []
    const mediaSeen = new Set<string>()

    // Every POSTed request that completed with 2xx; the probes meant to be refused are judged by other checks.
    const requests: [string, McpExchange | null][] = [
      handshake,
      ...(isModern(mcp) ? [] : ([['server/discover', mcp.discover]] as [string, McpExchange][])),
      ['ping', mcp.ping],
      ['a request with the version header', probes.correctVersionHeader],
      ['foo/bar', probes.unknownMethod],
      ['tools/call of an unknown tool', probes.unknownTool],
      ['resources/read of an unknown URI', probes.unknownResource],
      ['tools/list with an invalid cursor', probes.invalidCursor],
      ['a request with the session id', probes.withSession],
      ...mcp.toolCalls.map((call): [string, McpExchange] => [`tools/call "${call.name}"`, call.exchange]),
      ...mcp.uiResources.map((resource): [string, McpExchange] => [`resources/read ${resource.uri}`, resource.read]),
    ]
    const malformedSse: string[] = []
    for (const [label, exchange] of requests) {
      if (!exchange || unfinished(exchange) || exchange.request.method !== 'POST') continue
      if (exchange.sseMalformed) malformedSse.push(label)
      if (!isRequest(exchange) || !is2xx(exchange)) continue
      const media = exchange.contentType
      if (media !== JSON_TYPE && media !== SSE_TYPE) {
        failures.push(`${label} got ${describeExchange(exchange)}, not JSON or SSE`)
        fixes.add(
          'Answer every request with Content-Type application/json (one JSON-RPC response) or text/event-stream.',
        )
      } else if (exchange.response === undefined && !exchange.sseMalformed) {
        failures.push(`${label} got ${media} without a JSON-RPC response in it`)
        fixes.add(
          `Return the JSON-RPC response in the ${media} body (for SSE, as a data: event before closing the stream).`,
        )
      } else mediaSeen.add(media)
    }
    if (malformedSse.length > 0) {
      problems.push(`SSE events whose data: line is not JSON answered ${listSome(malformedSse, 2)}`)
      fixes.add('Put exactly one JSON-RPC message in the data: field of each SSE event.')
    }

    const notification = mcp.initialized
    if (notification) {
      if (unfinished(notification)) pending.push('notifications/initialized')
      else if (notification.status !== 202 || notification.body.trim() !== '') {
        problems.push(
          `the notification notifications/initialized got ${describeExchange(notification)}, not 202 with an empty body`,
        )
        fixes.add('Answer notifications with 202 Accepted and no body.')
      }
    }

    const stream = probes.getStream
    // A GET stream may send no headers until its first event (Bun and others buffer them), and clients open it in
    // the background, so a GET left unanswered is noted, never counted against the server nor left pending.
    if (stream.status !== null && !(stream.status === 405 || (is2xx(stream) && stream.contentType === SSE_TYPE))) {
      problems.push(`GET with Accept: text/event-stream got ${describeExchange(stream)}, not an SSE stream or 405`)
      fixes.add(`Answer GET ${mcp.url} with an SSE stream, or 405 Method Not Allowed if you push no server messages.`)
    }

    const bare = probes.postWithoutAccept
    if (unfinished(bare)) pending.push('the POST without an Accept header')
    else if (bare.html) {
      problems.push(`a POST without Accept: ${JSON_TYPE}, ${SSE_TYPE} got an HTML page`)
      fixes.add(
        'Answer a POST lacking the MCP Accept header with 406 Not Acceptable (a JSON-RPC error body), not an HTML page.',
      )
    }

    const recommendation = [...fixes].join(' ')
    if (failures.length > 0)
      return settle(fail([...failures.slice(0, 3), ...problems].join('; '), recommendation), pending)
    const summary = `Requests are answered as ${[...mediaSeen].join(' and ') || 'JSON or SSE'}`
    const outcome =
      problems.length > 0
        ? warn(`${summary}, but ${problems.join('; ')}`, recommendation)
        : pass(`${summary}${notification ? ', notifications get 202' : ''}, ${getAnswer(stream)}, no HTML anywhere`)
    return settle(outcome, pending)
  },
})

function getAnswer(stream: McpExchange): string {
  if (stream.status === null) return 'GET sent no headers in time (likely an SSE stream waiting for its first event)'
  return stream.status === 405 ? 'GET gets 405' : 'GET opens an SSE stream'
}
