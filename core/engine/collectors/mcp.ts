/**
 * What one MCP server looked like to the scanner: the handshake and lists through the MCP client
 * (core/mcp-client), plus raw exchanges for transport conformance (docs/checks.md §6). Read-only: the collector never
 * calls a tool that is not annotated readOnlyHint: true.
 */
import { connect, type Connection } from '../../mcp-client/handshake.ts'
import { collectList, LISTS, optionalRecord, optionalString } from '../../mcp-client/lists.ts'
import { MCP_EXCHANGE_TIMEOUT_MS, MCP_LEGACY_VERSION, MCP_MODERN_VERSION } from '../../mcp-client/protocol.ts'
import type {
  Handshake,
  McpEra,
  McpExchange,
  McpList,
  McpPrompt,
  McpResource,
  McpTool,
} from '../../mcp-client/types.ts'
import { McpWire, type RequestOptions } from '../../mcp-client/wire.ts'
import { CollectorError, defineCollector } from '../check.ts'
import { uiLink } from '../lib/mcp-app.ts'
import { isRecord } from '../snapshot.ts'

// The client's result types are the artifact's vocabulary: checks import them from the artifact's module.
export type {
  JsonRpcError,
  McpExchange,
  McpList,
  McpPrompt,
  McpResource,
  McpTool,
  ResultEnvelope,
} from '../../mcp-client/types.ts'
export { resultEnvelope } from '../../mcp-client/lists.ts'

export interface McpServerArtifact {
  url: string
  /** `legacy`: initialize handshake (2025-03-26 … 2025-11-25); `modern`: stateless 2026-07-28 (`server/discover`). */
  era: McpEra
  /** Only the deprecated HTTP+SSE transport (2024-11-05) answered: every request and probe went over its session. */
  legacySseOnly: boolean
  /** HTTP+SSE only: the message endpoint the stream announced, where requests are POSTed. */
  messageUrl?: string
  initialize: McpExchange
  /** The initialize result (legacy) or the discover result mapped to the same fields (modern); null on failure. */
  handshake: Handshake | null
  /** The protocol version the scanner asked for. */
  requestedVersion: string
  /** Why no handshake was established when `handshake` is null, or why the SDK refused an answer it got. */
  handshakeError?: string
  sessionId: string | null
  /** notifications/initialized (legacy only). */
  initialized: McpExchange | null
  /** server/discover (always probed, over HTTP+SSE inside the session; a legacy server answering -32601 is expected). */
  discover: McpExchange
  tools: McpList<McpTool>
  resources: McpList<McpResource>
  prompts: McpList<McpPrompt>
  /** ping (null for modern-only servers: removed in 2026-07-28). */
  ping: McpExchange | null
  probes: {
    /** A request carrying `MCP-Protocol-Version: 1999-01-01`. */
    bogusVersionHeader: McpExchange
    /** A request carrying the negotiated version header. */
    correctVersionHeader: McpExchange
    /** Method `foo/bar`. */
    unknownMethod: McpExchange
    /** tools/call of a tool that does not exist. */
    unknownTool: McpExchange
    /** resources/read of `x-unknown://nope`. */
    unknownResource: McpExchange
    /** A body that is not JSON. */
    malformedJson: McpExchange
    /** tools/list with cursor `invalid!!`. */
    invalidCursor: McpExchange
    /** GET with `Accept: text/event-stream` (over HTTP+SSE, the GET that opened the session). */
    getStream: McpExchange
    /** A request POSTed without the `Accept: application/json, text/event-stream` header. */
    postWithoutAccept: McpExchange
    /** When a session id was issued: a request without it, one with it, and DELETE with it. */
    withoutSession: McpExchange | null
    withSession: McpExchange | null
    deleteSession: McpExchange | null
    /**
     * `server/discover` sent with `Mcp-Method: tools/list`, a header that disagrees with the body, which a server
     * speaking 2026-07-28 must refuse with 400 and -32020 (HeaderMismatch). Sent to every server, as discover is:
     * one that also speaks the older revisions is judged on it too.
     */
    headerMismatch: McpExchange
  }
  /** Modern servers only (null otherwise): resources/read of the first listed resource, whose result carries cache hints. */
  resourceRead: McpExchange | null
  /** Modern servers declaring resources only (null otherwise): resources/templates/list, also a cacheable result. */
  resourceTemplates: McpExchange | null
  /** ui:// (or legacy-key) resources referenced by tools, read directly by URI. */
  uiResources: {
    uri: string
    toolNames: string[]
    read: McpExchange
    contents: { uri?: string; mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> }[]
  }[]
  /** Deep mode: tools annotated readOnlyHint true with no required arguments, called once each (at most 3). */
  toolCalls: {
    name: string
    exchange: McpExchange
    result?: { content?: unknown[]; structuredContent?: unknown; isError?: boolean }
  }[]
  /** `WWW-Authenticate` challenges and `resource_metadata` seen on any exchange (partial protection). */
  challenges: { status: number; header: string }[]
}

/** The whole collection, under the runner's per-check timeout so that a slow server still yields an artifact. */
const COLLECT_BUDGET_MS = 35_000
const MAX_UI_RESOURCES = 10
const MAX_TOOL_CALLS = 3
const UNKNOWN_TOOL = 'agent-readiness-probe-no-such-tool'

// ---------------------------------------------------------------------------------------------------------
// MCP Apps (docs/checks.md §9)

/** Every UI resource URI a tool names: the one hosts render and any other a different key names. */
function uiResourceUris(tool: McpTool): string[] {
  const link = uiLink(tool)
  return link ? [link.uri, ...link.conflicts.map((conflict) => conflict.uri)] : []
}

function contentsOf(exchange: McpExchange): McpServerArtifact['uiResources'][number]['contents'] {
  const result = exchange.response?.result
  const contents = isRecord(result) && Array.isArray(result.contents) ? result.contents : []
  return contents.filter(isRecord).map((content) => ({
    ...optionalString('uri', content.uri),
    ...optionalString('mimeType', content.mimeType),
    ...optionalString('text', content.text),
    ...optionalString('blob', content.blob),
    ...optionalRecord('_meta', content._meta),
  }))
}

async function readUiResources(wire: McpWire, tools: readonly McpTool[]): Promise<McpServerArtifact['uiResources']> {
  const byUri = new Map<string, string[]>()
  for (const tool of tools)
    for (const uri of uiResourceUris(tool)) byUri.set(uri, [...(byUri.get(uri) ?? []), tool.name])
  const entries = [...byUri].slice(0, MAX_UI_RESOURCES)
  return Promise.all(
    entries.map(async ([uri, toolNames]) => {
      const read = await wire.request('resources/read', { uri })
      return { uri, toolNames, read, contents: contentsOf(read) }
    }),
  )
}

// ---------------------------------------------------------------------------------------------------------
// Read-only tool calls

/** A tool the scanner may call: annotated readOnlyHint true and needing no argument. UI tools first (text fallback). */
function callableTools(tools: readonly McpTool[]): McpTool[] {
  const callable = tools.filter((tool) => {
    if (tool.annotations?.readOnlyHint !== true || !isRecord(tool.inputSchema)) return false
    const required = tool.inputSchema.required
    return required === undefined || (Array.isArray(required) && required.length === 0)
  })
  const ui = callable.filter((tool) => uiResourceUris(tool).length > 0)
  return [...ui, ...callable.filter((tool) => !ui.includes(tool))].slice(0, MAX_TOOL_CALLS)
}

async function callTools(wire: McpWire, tools: readonly McpTool[]): Promise<McpServerArtifact['toolCalls']> {
  return Promise.all(
    callableTools(tools).map(async (tool) => {
      const exchange = await wire.request('tools/call', { name: tool.name, arguments: {} })
      const result = exchange.response?.result
      if (!isRecord(result)) return { name: tool.name, exchange }
      return {
        name: tool.name,
        exchange,
        result: {
          ...(Array.isArray(result.content) ? { content: result.content } : {}),
          ...('structuredContent' in result ? { structuredContent: result.structuredContent } : {}),
          ...(typeof result.isError === 'boolean' ? { isError: result.isError } : {}),
        },
      }
    }),
  )
}

// ---------------------------------------------------------------------------------------------------------
// The collector

/** Conformance probes (docs/checks.md §6.3, §6.4); the session ones only when the server issued a session id. */
async function probe(
  wire: McpWire,
  tools: readonly McpTool[],
): Promise<Omit<McpServerArtifact['probes'], 'deleteSession'>> {
  const modern = wire.era === 'modern'
  // Legacy servers must answer ping; modern ones have dropped it for server/discover.
  const simple = (options: RequestOptions = {}): Promise<McpExchange> =>
    modern ? wire.discover(options) : wire.request('ping', {}, options)
  let unknownTool = UNKNOWN_TOOL
  while (tools.some((tool) => tool.name === unknownTool)) unknownTool += '-x'
  const session = wire.sessionId !== null && !modern
  const [
    bogusVersionHeader,
    correctVersionHeader,
    unknownMethod,
    unknownToolCall,
    unknownResource,
    malformedJson,
    invalidCursor,
    getStream,
    postWithoutAccept,
    withoutSession,
    withSession,
    headerMismatch,
  ] = await Promise.all([
    simple({ version: '1999-01-01' }),
    simple(),
    wire.request('foo/bar'),
    wire.request('tools/call', { name: unknownTool, arguments: {} }),
    wire.request('resources/read', { uri: 'x-unknown://nope' }),
    wire.request('tools/list', {}, { rawBody: '{"jsonrpc":"2.0","id":"malformed","method":"tools/list"' }),
    wire.request('tools/list', { cursor: 'invalid!!' }),
    wire.openStream(),
    // What a generic HTTP client sends: the server must still not answer with an HTML page.
    simple({ accept: '*/*' }),
    session ? wire.request('ping', {}, { withoutSession: true }) : null,
    session ? wire.request('ping') : null,
    wire.discover({ methodHeader: 'tools/list' }),
  ])
  return {
    bogusVersionHeader,
    correctVersionHeader,
    unknownMethod,
    unknownTool: unknownToolCall,
    unknownResource,
    malformedJson,
    invalidCursor,
    getStream,
    postWithoutAccept,
    withoutSession,
    withSession,
    headerMismatch,
  }
}

/** Every distinct `WWW-Authenticate` challenge: a public server that still challenges some requests is partly protected. */
function challengesIn(exchanges: readonly (McpExchange | null)[]): McpServerArtifact['challenges'] {
  const challenges: McpServerArtifact['challenges'] = []
  for (const exchange of exchanges) {
    if (exchange === null || exchange.status === null) continue
    const { status } = exchange
    const header = exchange.headers['www-authenticate']
    if (header !== undefined && !challenges.some((seen) => seen.header === header && seen.status === status))
      challenges.push({ status, header })
  }
  return challenges
}

/** Everything read over an established connection: the lists, then probes, UI resources and read-only calls. */
async function gather(connection: Connection, wire: McpWire) {
  const capabilities = connection.handshake?.capabilities ?? {}
  const [tools, resources, prompts] = await Promise.all([
    collectList(connection.call, 'tools', 'tools' in capabilities, LISTS.tools),
    collectList(connection.call, 'resources', 'resources' in capabilities, LISTS.resources),
    collectList(connection.call, 'prompts', 'prompts' in capabilities, LISTS.prompts),
  ])
  const modern = wire.era === 'modern'
  const firstResource = resources.items.find((resource) => resource.uri !== '')
  const [probes, ping, uiResources, toolCalls, resourceRead, resourceTemplates] = await Promise.all([
    probe(wire, tools.items),
    modern ? null : wire.request('ping'),
    readUiResources(wire, tools.items),
    callTools(wire, tools.items),
    modern && firstResource ? wire.request('resources/read', { uri: firstResource.uri }) : null,
    modern && resources.declared ? wire.request('resources/templates/list') : null,
  ])
  return { tools, resources, prompts, probes, ping, uiResources, toolCalls, resourceRead, resourceTemplates }
}

export const mcpCollector = defineCollector({
  key: 'mcp',
  async collect(ctx) {
    const url = ctx.target.mcpUrl
    if (!url) throw new CollectorError('no MCP endpoint: the target has no mcpUrl')
    const limits = {
      timeoutMs: Math.min(ctx.config.scanner.timeoutMs, MCP_EXCHANGE_TIMEOUT_MS),
      budget: AbortSignal.timeout(COLLECT_BUDGET_MS),
    }
    const wire = new McpWire(ctx.http, url, limits)
    // Always probed, and independent of the legacy session: a legacy server's -32601 (or 400) is expected.
    const discover = wire.discover()
    const connection = await connect(ctx.http, wire, discover, limits)
    // An HTTP+SSE URL answers GET only: discover is asked inside the session, where a legacy server can answer it.
    const discovering = connection.legacySseOnly ? wire.discover() : discover
    const messageUrl = wire.sse?.messageUrl
    // The SDK client is done before the session ends, so that it never sees the session vanish.
    const [{ probes, ...gathered }, discovered] = await Promise.all([gather(connection, wire), discovering]).finally(
      () => connection.close(),
    )
    const deleteSession = probes.withSession ? await wire.endSession() : null
    const exchanges = [
      connection.initialize,
      connection.initialized,
      discovered,
      gathered.ping,
      ...Object.values(probes),
      deleteSession,
      ...gathered.uiResources.map((resource) => resource.read),
      ...gathered.toolCalls.map((call) => call.exchange),
      gathered.resourceRead,
      gathered.resourceTemplates,
    ]
    return {
      url,
      era: connection.era,
      legacySseOnly: connection.legacySseOnly,
      ...(messageUrl ? { messageUrl } : {}),
      initialize: connection.initialize,
      handshake: connection.handshake,
      requestedVersion: connection.era === 'modern' ? MCP_MODERN_VERSION : MCP_LEGACY_VERSION,
      ...(connection.handshakeError ? { handshakeError: connection.handshakeError } : {}),
      sessionId: wire.sessionId,
      initialized: connection.initialized,
      discover: discovered,
      ...gathered,
      probes: { ...probes, deleteSession },
      challenges: challengesIn(exchanges),
    }
  },
})
