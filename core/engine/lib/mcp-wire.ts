/**
 * How MCP endpoints answer on the wire: the initialize request every probe sends, JSON-RPC responses in JSON or
 * server-sent-event bodies, Bearer challenges, and the URLs sites use for MCP endpoints.
 */
import { type HttpSnapshot, isRecord, parseJson } from '../snapshot.ts'

/** The `data` of each SSE event, parsed as JSON where it is JSON (other events are skipped). */
function parseSseJson(body: string): unknown[] {
  const messages: unknown[] = []
  let data: string[] = []
  const flush = (): void => {
    if (data.length > 0) {
      const value = parseJson(data.join('\n'))
      if (value !== undefined) messages.push(value)
    }
    data = []
  }
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (line === '') flush()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  flush()
  return messages
}

/** The JSON values a response carries: the body itself, or every SSE event. */
export function jsonMessages(snapshot: HttpSnapshot): unknown[] {
  if (snapshot.contentType === 'text/event-stream') return parseSseJson(snapshot.body)
  const value = parseJson(snapshot.body)
  return value === undefined ? [] : [value]
}

/**
 * The MCP initialize request (legacy era, docs/checks.md §6.3) every probe of an MCP endpoint sends: kind detection,
 * endpoint discovery and the agent probes, so that they all meet the endpoint the same way. It advertises the MCP
 * Apps extension (§9) as a UI-capable host does, because servers may register UI tools only for such clients.
 */
export const MCP_INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } },
    clientInfo: { name: 'agent-readiness', version: '1.0.0' },
  },
})

/** The first JSON-RPC 2.0 response (a result or an error) in a JSON or SSE body; null when there is none. */
export function readJsonRpcResponse(snapshot: HttpSnapshot): Record<string, unknown> | null {
  for (const message of jsonMessages(snapshot)) {
    const candidates = Array.isArray(message) ? message : [message]
    for (const candidate of candidates) {
      if (isRecord(candidate) && candidate.jsonrpc === '2.0' && ('result' in candidate || 'error' in candidate))
        return candidate
    }
  }
  return null
}

/** A `WWW-Authenticate` header carrying a Bearer challenge. */
export function isBearerChallenge(header: string | undefined): boolean {
  return header !== undefined && /(^|,)\s*bearer(\s|,|$)/i.test(header)
}

/** A URL whose path ends in /mcp or /sse: how sites link their MCP endpoints (docs/checks.md §0, kind detection). */
export function isMcpLikeUrl(url: string): boolean {
  try {
    return /\/(mcp|sse)\/?$/i.test(new URL(url).pathname)
  } catch {
    return false
  }
}
