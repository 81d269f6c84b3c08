/** Raw JSON-RPC requests to one MCP endpoint, shaped as a client of the endpoint's era shapes them. */
import type { ScanSession } from '../outbound/session.ts'
import { MCP_INITIALIZE_BODY } from '../engine/lib/mcp-wire.ts'
import { ACCEPT } from '../engine/lib/media-types.ts'
import { authRefusal, type Outgoing, send } from './exchange.ts'
import { INITIALIZE, MCP_LEGACY_VERSION, MCP_MODERN_VERSION, MODERN_META } from './protocol.ts'
import type { SseChannel } from './sse.ts'
import type { Call, CallOutcome, Limits, McpEra, McpExchange } from './types.ts'

export function outcomeOf(exchange: McpExchange): CallOutcome {
  if (exchange.response?.error) return { error: exchange.response.error }
  if (exchange.response) return { result: exchange.response.result }
  if (exchange.error) return { error: exchange.error }
  const refused = authRefusal(exchange)
  return {
    error: `HTTP ${exchange.status ?? 'no status'} without a JSON-RPC response${exchange.html ? ' (an HTML page)' : ''}`,
    ...(refused ? { refused } : {}),
  }
}

export interface RequestOptions {
  /** Leave the session id out (a legacy session probe). */
  withoutSession?: boolean
  /** The MCP-Protocol-Version header to send instead of the negotiated one. */
  version?: string
  accept?: string
  /** A body sent as is instead of the JSON-RPC request (malformed JSON). */
  rawBody?: string
  /** The `Mcp-Method` header to send instead of the body's method (a 2026-07-28 header-validation probe). */
  methodHeader?: string
}

/**
 * Raw JSON-RPC over one MCP endpoint, with the headers a client of the endpoint's era sends: legacy requests carry
 * the session id and negotiated `MCP-Protocol-Version`; modern ones `MCP-Protocol-Version: 2026-07-28`, `Mcp-Method`,
 * `Mcp-Name` and the client's `_meta` (docs/checks.md §6.2).
 */
export class McpWire {
  era: McpEra = 'legacy'
  sessionId: string | null = null
  protocolVersion: string | null = null
  /** Set when the endpoint speaks only HTTP+SSE: every POST goes to the announced message endpoint instead. */
  sse: SseChannel | null = null
  private nextId = 0
  /**
   * Ids unique to this conversation: a bridge that writes every answer to every open stream mixes in other clients'
   * answers, whose ids (often small integers) must never match one of ours.
   */
  private readonly idPrefix = `ar-${crypto.randomUUID().slice(0, 8)}-`

  constructor(
    private readonly http: ScanSession,
    readonly url: string,
    private readonly limits: Limits,
  ) {}

  /** Takes over a legacy session: later requests carry its id and negotiated version. */
  adopt(sessionId: string | null, protocolVersion: unknown): void {
    this.sessionId = sessionId
    this.protocolVersion = typeof protocolVersion === 'string' ? protocolVersion : MCP_LEGACY_VERSION
  }

  /** The legacy handshake's first request, raw, exactly as endpoint discovery sends it (kind detection). */
  initialize(): Promise<McpExchange> {
    return this.send({ method: 'POST', headers: this.legacyHeaders(), body: MCP_INITIALIZE_BODY, id: INITIALIZE.id })
  }

  /** `server/discover` as a 2026-07-28 client sends it, whatever the endpoint's era. */
  discover(options: Pick<RequestOptions, 'version' | 'accept' | 'methodHeader'> = {}): Promise<McpExchange> {
    return this.send({ method: 'POST', ...this.modernRequest('server/discover', {}, options) })
  }

  request(method: string, params: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<McpExchange> {
    if (this.era === 'modern') return this.send({ method: 'POST', ...this.modernRequest(method, params, options) })
    return this.post(method, params, options)
  }

  readonly call: Call = async (method, params) => outcomeOf(await this.request(method, params))

  notify(method: string): Promise<McpExchange> {
    return this.send({
      method: 'POST',
      headers: this.legacyHeaders(),
      body: JSON.stringify({ jsonrpc: '2.0', method }),
    })
  }

  /** GET with `Accept: text/event-stream`, read up to the headers (over HTTP+SSE, the GET that opened the session). */
  openStream(): Promise<McpExchange> {
    if (this.sse) return Promise.resolve(this.sse.opening)
    const headers = this.era === 'modern' ? { 'mcp-protocol-version': MCP_MODERN_VERSION } : this.legacyHeaders()
    delete headers['content-type']
    return this.send({ method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }, true)
  }

  endSession(): Promise<McpExchange> {
    const headers = this.legacyHeaders()
    delete headers['content-type']
    return this.send({ method: 'DELETE', headers })
  }

  private send(outgoing: Outgoing, headersOnly = false): Promise<McpExchange> {
    if (this.sse && outgoing.method === 'POST') return this.sse.post(outgoing)
    return send(this.http, this.url, outgoing, this.limits, headersOnly)
  }

  private post(method: string, params: Record<string, unknown>, options: RequestOptions): Promise<McpExchange> {
    const id = this.id()
    const body = options.rawBody ?? JSON.stringify({ jsonrpc: '2.0', id, method, params })
    return this.send({
      method: 'POST',
      headers: this.legacyHeaders(options),
      body,
      ...(options.rawBody === undefined ? { id } : {}),
    })
  }

  private legacyHeaders(options: RequestOptions = {}): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: options.accept ?? ACCEPT.mcp }
    if (this.sessionId && !options.withoutSession) headers['mcp-session-id'] = this.sessionId
    const version = options.version ?? this.protocolVersion
    if (version) headers['mcp-protocol-version'] = version
    return headers
  }

  private modernRequest(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
  ): Omit<Outgoing, 'method'> {
    const id = this.id()
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: options.accept ?? ACCEPT.mcp,
      'mcp-protocol-version': options.version ?? MCP_MODERN_VERSION,
      'mcp-method': options.methodHeader ?? method,
    }
    // 2026-07-28 servers reject a request whose Mcp-Name header does not repeat the named tool, prompt or resource.
    const name =
      method === 'resources/read'
        ? params.uri
        : method === 'tools/call' || method === 'prompts/get'
          ? params.name
          : undefined
    if (typeof name === 'string') headers['mcp-name'] = name
    if (options.rawBody !== undefined) return { headers, body: options.rawBody }
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } })
    return { headers, body, id }
  }

  private id(): string {
    this.nextId += 1
    return `${this.idPrefix}${this.nextId}`
  }
}
