import type { McpServerArtifact, McpTool } from '../../core/engine/collectors/mcp.ts'
import { MCP_APP_MIME_TYPE, UI_EXTENSION_ID } from '../../core/engine/lib/mcp-app.ts'
import { MCP_URL, mcpList, mcpServer, noResponse, rpcError, rpcResult, tool } from './mcp-artifacts.ts'

/**
 * Builders for literal MCP App artifacts (docs/checks.md §9), on top of the core MCP builders: `mcpAppServer()` is a
 * well-made MCP App (the UI extension negotiated, one model-visible UI tool whose ui:// template reads back as a
 * complete HTML document with a matching CSP); a test states only what differs.
 */

export const mcpAppContext = {
  target: {
    kind: 'mcp-app' as const,
    domain: 'mcp.acme.test',
    origin: 'https://mcp.acme.test',
    url: MCP_URL,
    mcpUrl: MCP_URL,
  },
}

export const DASHBOARD_URI = 'ui://acme/anvil-dashboard'
export const DASHBOARD_HTML =
  '<!doctype html><html><head><script src="https://cdn.acme.test/app.js"></script></head><body><div id="app"></div>' +
  '<script>fetch("https://api.acme.test/anvils").then((r) => r.json())</script></body></html>'
export const DASHBOARD_CSP = { connectDomains: ['https://api.acme.test'], resourceDomains: ['https://cdn.acme.test'] }

/** A tool linked to a UI template through `_meta.ui.resourceUri` (plus the deprecated key, as registerAppTool writes). */
export function uiTool(
  name: string,
  uri = DASHBOARD_URI,
  overrides: Partial<Omit<McpTool, 'raw'>> & { ui?: Record<string, unknown> } = {},
): McpTool {
  const { ui, ...rest } = overrides
  return tool(name, {
    description: `Shows the ${name.replaceAll('_', ' ')} view of the Acme anvil catalogue, with a text summary.`,
    inputSchema: { type: 'object', additionalProperties: false },
    _meta: { ui: { resourceUri: uri, ...ui }, 'ui/resourceUri': uri },
    ...rest,
  })
}

type ReadContent = McpServerArtifact['uiResources'][number]['contents'][number]

/** A UI resource read back by URI: one content with the mcp-app mimeType, the HTML and `_meta.ui` as stated. */
export function uiResource(
  uri = DASHBOARD_URI,
  options: { html?: string; content?: Partial<ReadContent>; toolNames?: string[]; ui?: unknown } = {},
): McpServerArtifact['uiResources'][number] {
  const content: ReadContent = {
    uri,
    mimeType: MCP_APP_MIME_TYPE,
    text: options.html ?? DASHBOARD_HTML,
    _meta: { ui: options.ui ?? { csp: DASHBOARD_CSP, prefersBorder: true } },
    ...options.content,
  }
  return {
    uri,
    toolNames: options.toolNames ?? ['show_dashboard'],
    read: rpcResult('resources/read', { contents: [content] }),
    contents: [content],
  }
}

/** A UI resource whose `resources/read` came back as a JSON-RPC error (or never came back). */
export function unreadableUiResource(
  uri = DASHBOARD_URI,
  how: 'error' | 'no-response' = 'error',
): McpServerArtifact['uiResources'][number] {
  const read = how === 'error' ? rpcError('resources/read', -32002) : noResponse('resources/read')
  return { uri, toolNames: ['show_dashboard'], read, contents: [] }
}

const CLIENT_CAPABILITIES = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [MCP_APP_MIME_TYPE] } } }

/** A well-made MCP App: the scanner advertised the UI extension and the server declared it back. */
export function mcpAppServer(overrides: Partial<McpServerArtifact> = {}): McpServerArtifact {
  const base = mcpServer()
  const handshake = {
    ...base.handshake!,
    capabilities: { ...base.handshake!.capabilities, extensions: { [UI_EXTENSION_ID]: {} } },
  }
  const initializeBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: CLIENT_CAPABILITIES,
      clientInfo: { name: 'agent-readiness', version: '1.0.0' },
    },
  })
  return mcpServer({
    handshake,
    initialize: {
      ...rpcResult('initialize', handshake),
      request: { ...base.initialize.request, body: initializeBody },
    },
    tools: mcpList([uiTool('show_dashboard'), tool('search_anvils')]),
    resources: mcpList([
      {
        uri: DASHBOARD_URI,
        name: 'anvil-dashboard',
        mimeType: MCP_APP_MIME_TYPE,
        raw: { uri: DASHBOARD_URI, name: 'anvil-dashboard' },
      },
    ]),
    uiResources: [uiResource()],
    ...overrides,
  })
}

/** A deep-mode call of a tool and the result it returned. */
export function toolCall(
  name: string,
  result: NonNullable<McpServerArtifact['toolCalls'][number]['result']>,
): McpServerArtifact['toolCalls'][number] {
  return { name, exchange: rpcResult('tools/call', result), result }
}
