import type { ArtifactMap } from '../artifacts.ts'
import { type CollectorContext, defineCollector } from '../check.ts'
import { catalogEntries } from '../lib/ai-catalog.ts'
import { absoluteUrlsIn, outlineMarkdown } from '../lib/markdown.ts'
import { MCP_INITIALIZE_BODY, isBearerChallenge, isMcpLikeUrl, readJsonRpcResponse } from '../lib/mcp-wire.ts'
import { ACCEPT, MEDIA } from '../lib/media-types.ts'
import { serverCardEndpoints } from '../lib/server-card.ts'
import { nullOnCollectorError, settle } from './lib/fetch.ts'
import { isSameSite } from '../lib/links.ts'
import { fetchSnapshot, isOk, isRecord, looksLikeHtml } from '../snapshot.ts'

/** Where the domain says its MCP servers are, and whether each answered an MCP initialize. */
export type McpEndpointSource =
  | 'server-card'
  | 'ai-catalog'
  | 'api-catalog'
  | 'link-header'
  | 'llms-txt'
  | 'homepage'
  | 'blind-probe'

export interface McpEndpointProbe {
  url: string
  source: McpEndpointSource
  /** A JSON-RPC result (or a JSON-RPC error body) came back from initialize. */
  answered: boolean
  /** 401, or 403 with a Bearer challenge. */
  authRequired: boolean
  status: number | null
  serverName?: string
  error?: string
  /** Media type of the answer (`text/html` says the URL is a page about MCP, not an endpoint). */
  contentType?: string
}

export interface McpEndpointsArtifact {
  /**
   * Advertised endpoints (deduplicated, in source order), each probed; blind probes of /mcp and /api/mcp only
   * when no advertised endpoint answered.
   */
  probes: McpEndpointProbe[]
}

const MAX_ADVERTISED = 5
const BLIND_PATHS = ['/mcp', '/api/mcp']
/** A candidate endpoint: `url` absolute, `source` the first place it was found. */
interface Candidate {
  url: string
  source: McpEndpointSource
}

const mentionsMcp = (value: string | undefined): boolean => value !== undefined && /mcp/i.test(value)

/**
 * Every advertised MCP URL in docs/checks.md §7 source order, from the artifacts other collectors produced (any of
 * them may be missing). Explicit declarations (cards, catalogs, typed links) may point anywhere; URLs merely
 * written on pages must be same-site and look like an endpoint (path ending in /mcp or /sse).
 */
function advertisedMcpUrls(
  sources: {
    mcpServerCard: ArtifactMap['mcpServerCard'] | null
    aiCatalog: ArtifactMap['aiCatalog'] | null
    apiCatalog: ArtifactMap['apiCatalog'] | null
    linkHeader: ArtifactMap['linkHeader'] | null
    llmsTxt: ArtifactMap['llmsTxt'] | null
    homepage: ArtifactMap['homepage'] | null
  },
  domain: string,
): Candidate[] {
  const candidates: Candidate[] = []
  const add = (source: McpEndpointSource, href: string, base: string): void => {
    let url: string
    try {
      url = new URL(href, base).href.replace(/#.*$/, '')
    } catch {
      return
    }
    if (!/^https?:/.test(url) || candidates.some((candidate) => candidate.url === url)) return
    candidates.push({ url, source })
  }
  const onPage = (url: string): boolean => isMcpLikeUrl(url) && isSameSite(url, domain)

  const { mcpServerCard, aiCatalog, apiCatalog, linkHeader, llmsTxt, homepage } = sources
  if (mcpServerCard?.found) {
    for (const url of serverCardEndpoints(mcpServerCard.found.card, mcpServerCard.found.url))
      add('server-card', url, url)
  }
  if (aiCatalog) {
    for (const entry of catalogEntries(aiCatalog.document, aiCatalog.response.url) ?? []) {
      if (entry.type === MEDIA.serverCard) {
        // A card's own URL is not an endpoint; an inlined card names its remotes.
        for (const url of serverCardEndpoints(entry.data, aiCatalog.response.url)) add('ai-catalog', url, url)
      } else if (mentionsMcp(entry.type) && entry.url) {
        add('ai-catalog', entry.url, entry.url)
      }
    }
  }
  for (const entry of apiCatalog?.linkset ?? []) {
    for (const [relation, links] of Object.entries(entry.relations)) {
      for (const link of links)
        if (mentionsMcp(link.type) || mentionsMcp(relation)) add('api-catalog', link.href, link.href)
    }
  }
  for (const link of linkHeader?.links ?? []) {
    if (mentionsMcp(link.type) || link.rel.some(mentionsMcp) || onPage(link.href))
      add('link-header', link.href, link.href)
  }
  if (llmsTxt && isOk(llmsTxt) && !looksLikeHtml(llmsTxt.body)) {
    const urls = [...outlineMarkdown(llmsTxt.body).links.map((link) => link.url), ...absoluteUrlsIn(llmsTxt.body)]
    for (const href of urls) {
      try {
        const url = new URL(href, llmsTxt.url).href
        if (onPage(url)) add('llms-txt', url, url)
      } catch {
        // not a URL
      }
    }
  }
  if (homepage) {
    const hrefs = homepage
      .$('a[href], link[href]')
      .toArray()
      .map((element) => homepage.$(element).attr('href')!)
    // Configuration snippets ({"url": "https://…/mcp"}) and code samples name endpoints too.
    for (const href of [...hrefs, ...absoluteUrlsIn(homepage.body)]) {
      try {
        const url = new URL(href, homepage.url).href
        if (onPage(url)) add('homepage', url, url)
      } catch {
        // not a URL
      }
    }
  }
  return candidates
}

/** POSTs an MCP initialize (legacy era, §6.3) and reads a JSON or SSE answer. */
async function probeInitialize(ctx: CollectorContext, { url, source }: Candidate): Promise<McpEndpointProbe> {
  const { response, error } = await settle(
    fetchSnapshot(ctx.http, url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT.mcp },
      body: MCP_INITIALIZE_BODY,
    }),
  )
  if (!response) return { url, source, answered: false, authRequired: false, status: null, error }
  const message = readJsonRpcResponse(response)
  const result = message && isRecord(message.result) ? message.result : null
  const serverInfo = result && isRecord(result.serverInfo) ? result.serverInfo : null
  const sessionId = response.headers['mcp-session-id']
  if (sessionId) {
    // Polite: end the session this probe opened (servers may refuse; nothing depends on it).
    await settle(fetchSnapshot(ctx.http, url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } }))
  }
  return {
    url,
    source,
    answered: message !== null,
    authRequired:
      response.status === 401 || (response.status === 403 && isBearerChallenge(response.headers['www-authenticate'])),
    status: response.status,
    contentType: response.contentType,
    ...(typeof serverInfo?.name === 'string' ? { serverName: serverInfo.name } : {}),
  }
}

export const mcpEndpointsCollector = defineCollector({
  key: 'mcpEndpoints',
  async collect(ctx) {
    const optional = <K extends keyof ArtifactMap>(key: K) => ctx.get(key).catch(nullOnCollectorError)
    const [mcpServerCard, aiCatalog, apiCatalog, linkHeader, llmsTxt, homepage] = await Promise.all([
      optional('mcpServerCard'),
      optional('aiCatalog'),
      optional('apiCatalog'),
      optional('linkHeader'),
      optional('llmsTxt'),
      optional('homepage'),
    ])
    const advertised = advertisedMcpUrls(
      { mcpServerCard, aiCatalog, apiCatalog, linkHeader, llmsTxt, homepage },
      ctx.target.domain,
    ).slice(0, MAX_ADVERTISED)
    const probes = await Promise.all(advertised.map((candidate) => probeInitialize(ctx, candidate)))
    if (!probes.some((probe) => probe.answered || probe.authRequired)) {
      const blind = BLIND_PATHS.map((path) => new URL(path, ctx.target.origin).href)
        .filter((url) => !probes.some((probe) => probe.url === url))
        .map((url) => ({ url, source: 'blind-probe' as const }))
      probes.push(...(await Promise.all(blind.map((candidate) => probeInitialize(ctx, candidate)))))
    }
    return { probes }
  },
})
