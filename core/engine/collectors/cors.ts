import { type CollectorContext, defineCollector } from '../check.ts'
import { nullOnCollectorError, settle } from './lib/fetch.ts'
import { MCP_INITIALIZE_BODY } from '../lib/mcp-wire.ts'
import { fetchSnapshot, isOk, looksLikeHtml, type HttpSnapshot } from '../snapshot.ts'
import { SSE_ACCEPT, streamHead } from '../../mcp-client/sse.ts'

/** Responses to `Origin: https://agent.example` on public metadata documents (and, for MCP, a preflight). */
export interface CorsProbe {
  url: string
  /**
   * What was probed: `llms.txt`, `openapi`, `ai-catalog`, `mcp-preflight`, `mcp-initialize`, or for an HTTP+SSE-only
   * server `mcp-stream` (the GET that opens the stream, where `mcp-preflight` is the announced message endpoint's).
   */
  resource: string
  status: number | null
  allowOrigin: string | null
  allowHeaders: string | null
  exposeHeaders: string | null
  allowMethods: string | null
  /** Why no response arrived (status is then null). */
  error?: string
  /** `mcp-initialize` only: the server issued an `Mcp-Session-Id`, so browsers must be allowed to read it. */
  sessionId?: boolean
  /** `mcp-preflight` only: the request headers it asked for, which the answer must allow. */
  requestHeaders?: string[]
}

export interface CorsArtifact {
  /** Only resources that exist (2xx without the Origin header) are listed. */
  probes: CorsProbe[]
}

export const AGENT_ORIGIN = 'https://agent.example'
/** The request headers a browser-based MCP client sends (docs/checks.md §16). */
export const MCP_REQUEST_HEADERS = ['content-type', 'mcp-protocol-version', 'mcp-session-id'] as const
/** Over HTTP+SSE the session is named in the message endpoint's URL: no Mcp-Session-Id header is sent. */
const SSE_MESSAGE_HEADERS = ['content-type', 'mcp-protocol-version'] as const

function corsFields(
  response: HttpSnapshot,
): Pick<CorsProbe, 'status' | 'allowOrigin' | 'allowHeaders' | 'exposeHeaders' | 'allowMethods'> {
  const header = (name: string) => response.headers[name] ?? null
  return {
    status: response.status,
    allowOrigin: header('access-control-allow-origin'),
    allowHeaders: header('access-control-allow-headers'),
    exposeHeaders: header('access-control-expose-headers'),
    allowMethods: header('access-control-allow-methods'),
  }
}

async function corsProbe(
  ctx: CollectorContext,
  resource: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<CorsProbe> {
  const headers = { ...options.headers, origin: AGENT_ORIGIN }
  // Only the headers are judged: no body is read (an event stream never ends by itself, and a document read again
  // with an Origin would spend the scan's byte budget a second time).
  const request =
    resource === 'mcp-stream'
      ? streamHead(ctx.http, url, { headers }, 0)
      : fetchSnapshot(ctx.http, url, { ...options, headers, maxBytes: 0 })
  const { response, error } = await settle(request)
  if (!response)
    return {
      url,
      resource,
      status: null,
      allowOrigin: null,
      allowHeaders: null,
      exposeHeaders: null,
      allowMethods: null,
      error,
    }
  return {
    url,
    resource,
    ...corsFields(response),
    ...(resource === 'mcp-initialize' ? { sessionId: response.headers['mcp-session-id'] !== undefined } : {}),
  }
}

function preflight(ctx: CollectorContext, url: string, requestHeaders: readonly string[]): Promise<CorsProbe> {
  const headers = {
    'access-control-request-method': 'POST',
    'access-control-request-headers': requestHeaders.join(', '),
  }
  return corsProbe(ctx, 'mcp-preflight', url, { method: 'OPTIONS', headers }).then((probe) => ({
    ...probe,
    requestHeaders: [...requestHeaders],
  }))
}

const exists = (response: HttpSnapshot | null | undefined): response is HttpSnapshot =>
  response != null && isOk(response) && !looksLikeHtml(response.body)

/** The public documents of the target that exist, read from the artifacts that already fetched them. */
async function publicDocuments(ctx: CollectorContext): Promise<{ resource: string; url: string }[]> {
  const isDomain = ctx.target.kind === 'domain'
  const [llmsTxt, openapi, aiCatalog, apiCatalog] = await Promise.all([
    isDomain ? ctx.get('llmsTxt').catch(nullOnCollectorError) : null,
    isDomain ? ctx.get('openapi').catch(nullOnCollectorError) : null,
    ctx.get('aiCatalog').catch(nullOnCollectorError),
    isDomain ? ctx.get('apiCatalog').catch(nullOnCollectorError) : null,
  ])
  const documents: { resource: string; url: string }[] = []
  if (exists(llmsTxt)) documents.push({ resource: 'llms.txt', url: llmsTxt.requestedUrl })
  if (openapi?.document && openapi.url) documents.push({ resource: 'openapi', url: openapi.url })
  if (exists(aiCatalog?.response)) documents.push({ resource: 'ai-catalog', url: aiCatalog.response.requestedUrl })
  if (exists(apiCatalog?.get)) documents.push({ resource: 'api-catalog', url: apiCatalog.get.requestedUrl })
  return documents
}

/**
 * CORS as a browser-based agent meets it (docs/checks.md §16): the existing public documents fetched with an
 * Origin, and for MCP kinds a preflight of the endpoint plus an initialize POST to see what it exposes (over HTTP+SSE,
 * a preflight of the message endpoint plus the GET that opens the stream).
 */
export const corsCollector = defineCollector({
  key: 'cors',
  async collect(ctx) {
    const documents = await publicDocuments(ctx)
    const probes = documents.map(({ resource, url }) => corsProbe(ctx, resource, url))
    const mcpUrl = ctx.target.kind === 'domain' ? undefined : ctx.target.mcpUrl
    // HTTP+SSE defines other requests: the GET that opens the stream, and POSTs to the endpoint the stream announced.
    const mcp = mcpUrl ? await ctx.get('mcp').catch(nullOnCollectorError) : null
    if (mcpUrl && mcp?.legacySseOnly && mcp.messageUrl) {
      probes.push(
        preflight(ctx, mcp.messageUrl, SSE_MESSAGE_HEADERS),
        corsProbe(ctx, 'mcp-stream', mcpUrl, { headers: { accept: SSE_ACCEPT } }),
      )
    } else if (mcpUrl) {
      probes.push(
        preflight(ctx, mcpUrl, MCP_REQUEST_HEADERS),
        corsProbe(ctx, 'mcp-initialize', mcpUrl, {
          method: 'POST',
          headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
          body: MCP_INITIALIZE_BODY,
        }),
      )
    }
    return { probes: await Promise.all(probes) }
  },
})
