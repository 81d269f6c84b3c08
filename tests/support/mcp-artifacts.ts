import type {
  JsonRpcError,
  McpExchange,
  McpList,
  McpServerArtifact,
  McpTool,
} from '../../core/engine/collectors/mcp.ts'

/**
 * Builders for literal MCP artifacts in check table tests. `mcpServer()` is a well-made legacy (2025-11-25)
 * server that passes every MCP core check and `modernServer()` a stateless 2026-07-28 one; a test states only
 * what differs.
 */

export const MCP_URL = 'https://mcp.acme.test/mcp'
export const mcpContext = {
  target: {
    kind: 'mcp' as const,
    domain: 'mcp.acme.test',
    origin: 'https://mcp.acme.test',
    url: MCP_URL,
    mcpUrl: MCP_URL,
  },
}

type ExchangeSpec = Partial<Omit<McpExchange, 'request'>> & {
  request?: Partial<McpExchange['request']>
  /** The JSON-RPC method sent (default `ping`). */
  rpc?: string
  /** Send it as a notification (no id). */
  notification?: boolean
}

/** One raw exchange: a POSTed JSON-RPC message answered 200 with an empty body unless stated. */
export function exchange(spec: ExchangeSpec = {}): McpExchange {
  const { rpc = 'ping', notification = false, request, ...rest } = spec
  const message = notification ? { jsonrpc: '2.0', method: rpc } : { jsonrpc: '2.0', id: 1, method: rpc }
  const contentType = rest.contentType ?? ''
  return {
    request: {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify(message),
      ...request,
    },
    status: 200,
    contentType,
    headers: contentType ? { 'content-type': contentType } : {},
    messages: [],
    html: false,
    body: '',
    durationMs: 12,
    ...rest,
  }
}

/** A JSON-RPC result, as application/json (or SSE with `sse: true`). */
export function rpcResult(rpc: string, result: unknown = {}, spec: ExchangeSpec & { sse?: boolean } = {}): McpExchange {
  return answered(rpc, { result }, spec)
}

const MESSAGES: Record<number, string> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-32002]: 'Resource not found',
  [-32022]: 'Unsupported protocol version',
  [-32020]: 'Header mismatch',
}

/** A JSON-RPC error with the standard message for its code. */
export function rpcError(rpc: string, code: number, spec: ExchangeSpec & { sse?: boolean } = {}): McpExchange {
  const error: JsonRpcError = { code, message: MESSAGES[code] ?? 'Error' }
  return answered(rpc, { error }, spec)
}

function answered(
  rpc: string,
  payload: { result: unknown } | { error: JsonRpcError },
  spec: ExchangeSpec & { sse?: boolean },
): McpExchange {
  const { sse = false, ...rest } = spec
  const message = { jsonrpc: '2.0', id: 1, ...payload }
  const json = JSON.stringify(message)
  return exchange({
    rpc,
    contentType: sse ? 'text/event-stream' : 'application/json',
    messages: [message],
    response: payload,
    body: sse ? `event: message\ndata: ${json}\n\n` : json,
    ...rest,
  })
}

/** An HTTP answer that is not JSON-RPC (plain text, HTML, an empty 405). */
export function httpReply(
  rpc: string,
  status: number,
  body = '',
  contentType = body ? 'text/plain' : '',
  spec: ExchangeSpec = {},
): McpExchange {
  return exchange({ rpc, status, body, contentType, html: contentType === 'text/html', ...spec })
}

/** An exchange that never completed. */
export function noResponse(rpc: string, error = 'timed out after 10000 ms', spec: ExchangeSpec = {}): McpExchange {
  return exchange({ rpc, status: null, error, durationMs: 10_000, ...spec })
}

/** A tool with a description, a described, closed input schema and a read-only annotation unless stated. */
export function tool(name: string, overrides: Partial<Omit<McpTool, 'raw'>> = {}): McpTool {
  const fields: Omit<McpTool, 'raw'> = {
    name,
    description: `Runs ${name} against the Acme anvil catalogue and returns what it found.`,
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Words to look for' } },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    ...overrides,
  }
  const raw = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
  return { ...fields, raw }
}

export function mcpList<T>(items: T[], overrides: Partial<McpList<T>> = {}): McpList<T> {
  return { declared: true, items, pages: 1, cursorLoop: false, duplicatesAcrossPages: [], ...overrides }
}

export const SEARCH_OUTPUT = {
  type: 'object',
  properties: { anvils: { type: 'array', items: { type: 'string' } } },
  required: ['anvils'],
}

const INSTRUCTIONS = 'Search the Acme anvil catalogue with search_anvils, then order with order_anvil.'
const SESSION_ID = '6f1c2d3e4b5a69788796a5b4c3d2e1f0'

type ServerOverrides = Partial<Omit<McpServerArtifact, 'probes'>> & { probes?: Partial<McpServerArtifact['probes']> }

/** A well-made legacy server (2025-11-25, stateful, tools + resources + prompts). */
export function mcpServer(overrides: ServerOverrides = {}): McpServerArtifact {
  const { probes, ...rest } = overrides
  const handshake = {
    protocolVersion: '2025-11-25',
    capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
    serverInfo: { name: 'acme-anvils', version: '1.4.0', title: 'Acme Anvils' },
    instructions: INSTRUCTIONS,
  }
  return {
    url: MCP_URL,
    era: 'legacy',
    legacySseOnly: false,
    initialize: rpcResult('initialize', handshake, {
      headers: { 'content-type': 'application/json', 'mcp-session-id': SESSION_ID },
    }),
    handshake,
    requestedVersion: '2025-11-25',
    sessionId: SESSION_ID,
    initialized: httpReply('notifications/initialized', 202, '', '', { notification: true }),
    discover: rpcError('server/discover', -32601),
    tools: mcpList([
      tool('search_anvils', { outputSchema: SEARCH_OUTPUT }),
      tool('order_anvil', {
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
        outputSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
      }),
    ]),
    resources: mcpList([
      {
        uri: 'acme://catalogue',
        name: 'catalogue',
        mimeType: 'application/json',
        raw: { uri: 'acme://catalogue', name: 'catalogue' },
      },
    ]),
    prompts: mcpList([{ name: 'find-anvil', description: 'Find the right anvil', raw: { name: 'find-anvil' } }]),
    ping: rpcResult('ping', {}),
    probes: {
      bogusVersionHeader: rpcError('tools/list', -32600, { status: 400 }),
      correctVersionHeader: rpcResult('tools/list', { tools: [] }),
      unknownMethod: rpcError('foo/bar', -32601),
      unknownTool: rpcError('tools/call', -32602),
      unknownResource: rpcError('resources/read', -32002),
      malformedJson: rpcError('', -32700, { status: 400, request: { body: '{"jsonrpc": "2.0", "id": 1,' } }),
      invalidCursor: rpcError('tools/list', -32602),
      getStream: httpReply('', 405, '', '', {
        request: { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': SESSION_ID } },
      }),
      postWithoutAccept: rpcError('tools/list', -32600, {
        status: 406,
        request: { headers: { 'content-type': 'application/json' } },
      }),
      withoutSession: rpcError('tools/list', -32600, { status: 400 }),
      withSession: rpcResult('tools/list', { tools: [] }),
      deleteSession: httpReply('', 200, '', '', {
        request: { method: 'DELETE', headers: { 'mcp-session-id': SESSION_ID } },
      }),
      headerMismatch: rpcError('server/discover', -32601),
      ...probes,
    },
    resourceRead: null,
    resourceTemplates: null,
    uiResources: [],
    toolCalls: [],
    challenges: [],
    ...rest,
  }
}

/** A list whose first page carries the 2026-07-28 result envelope: complete, fresh for a minute, the same for everyone. */
const withCacheHints = <T>(list: McpList<T>): McpList<T> => ({
  ...list,
  envelope: { resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' },
})

/**
 * A stateless 2026-07-28 server: initialize refused with -32022, `server/discover` answered, no session, no ping,
 * results with resultType and cache hints, a mismatching Mcp-Method header refused with 400 -32020.
 */
export function modernServer(overrides: ServerOverrides = {}): McpServerArtifact {
  const legacy = mcpServer()
  const capabilities = { tools: {}, resources: {}, prompts: {} }
  const serverInfo = { name: 'acme-anvils', version: '2.0.0', description: 'The Acme anvil catalogue' }
  const discovered = {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities,
    _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
    instructions: INSTRUCTIONS,
    ttlMs: 60_000,
    cacheScope: 'public',
  }
  return mcpServer({
    era: 'modern',
    initialize: rpcError('initialize', -32022, { status: 400 }),
    handshake: { protocolVersion: '2026-07-28', capabilities, serverInfo, instructions: INSTRUCTIONS },
    sessionId: null,
    initialized: null,
    discover: rpcResult('server/discover', discovered),
    ping: null,
    tools: withCacheHints(legacy.tools),
    resources: withCacheHints(legacy.resources),
    prompts: withCacheHints(legacy.prompts),
    resourceRead: rpcResult('resources/read', {
      resultType: 'complete',
      contents: [{ uri: 'acme://catalogue', mimeType: 'application/json', text: '[]' }],
      ttlMs: 5_000,
      cacheScope: 'private',
    }),
    resourceTemplates: rpcResult('resources/templates/list', {
      resultType: 'complete',
      resourceTemplates: [],
      ttlMs: 60_000,
      cacheScope: 'public',
    }),
    ...overrides,
    probes: {
      bogusVersionHeader: rpcError('tools/list', -32022, { status: 400 }),
      unknownMethod: rpcError('foo/bar', -32601, { status: 404 }),
      unknownResource: rpcError('resources/read', -32602),
      getStream: httpReply('', 405, '', '', { request: { method: 'GET', headers: { accept: 'text/event-stream' } } }),
      withoutSession: null,
      withSession: null,
      deleteSession: null,
      headerMismatch: rpcError('server/discover', -32020, { status: 400 }),
      ...overrides.probes,
    },
  })
}
