import { type CollectorContext, defineCollector } from '../check.ts'
import { catalogEntries } from '../lib/ai-catalog.ts'
import { readJsonObject } from '../lib/json-document.ts'
import { MEDIA } from '../lib/media-types.ts'
import { discoveryHeaders, nullOnCollectorError, settle } from './lib/fetch.ts'
import { fetchSnapshot, type HttpSnapshot, isRecord } from '../snapshot.ts'

type Via = 'mcp-url' | 'ai-catalog' | 'well-known' | 'well-known-legacy'

/** Probe order of docs/checks.md §7: <mcp-url>/server-card, ai-catalog card entries, /.well-known/mcp/server-card.json, /.well-known/mcp.json. */
export interface McpServerCardArtifact {
  probes: { url: string; via: Via; response: HttpSnapshot | null; error?: string }[]
  /**
   * The first probe answering 2xx with a JSON object. A card inlined in an AI catalog entry (`data`) is found
   * with the catalog's response, a `#entries/<n>` URL and `inline: true`.
   */
  found: { url: string; via: string; response: HttpSnapshot; card: Record<string, unknown>; inline?: boolean } | null
  /**
   * Runtime identity to compare with, for mcp kinds: serverInfo from the handshake (initialize, or server/discover
   * for a modern server) and the negotiated protocol version; null for domains, or when the handshake failed.
   */
  runtime: { name: string; version?: string; protocolVersion?: string } | null
}

const MAX_CATALOG_CARDS = 2

/** The MCP server's own identity (docs/checks.md §7: the card should match runtime), for mcp kinds only. */
async function runtimeIdentity(ctx: CollectorContext): Promise<McpServerCardArtifact['runtime']> {
  if (ctx.target.kind === 'domain' || !ctx.target.mcpUrl) return null
  const mcp = await ctx.get('mcp').catch(nullOnCollectorError)
  const serverInfo = mcp?.handshake?.serverInfo
  if (typeof serverInfo?.name !== 'string') return null
  const { version } = serverInfo
  const protocolVersion = mcp!.handshake!.protocolVersion
  return {
    name: serverInfo.name,
    ...(typeof version === 'string' ? { version } : {}),
    ...(typeof protocolVersion === 'string' ? { protocolVersion } : {}),
  }
}

export const mcpServerCardCollector = defineCollector({
  key: 'mcpServerCard',
  async collect(ctx) {
    const { http, target, get } = ctx
    // Started at once: the handshake runs alongside the card probes.
    const identity = runtimeIdentity(ctx)
    identity.catch(() => {}) // observed by the awaits below; this keeps an early return from leaving it unhandled
    const origin = target.mcpUrl ? new URL(target.mcpUrl).origin : target.origin
    const probes: McpServerCardArtifact['probes'] = []
    const headers = discoveryHeaders(MEDIA.serverCard)
    const tryUrl = async (url: string, via: Via): Promise<McpServerCardArtifact['found']> => {
      const { response, error } = await settle(fetchSnapshot(http, url, { headers }))
      probes.push(response ? { url, via, response } : { url, via, response: null, error })
      const document = response ? readJsonObject(response) : null
      return response && document?.state === 'ok' ? { url, via, response, card: document.value } : null
    }

    if (target.mcpUrl) {
      const found = await tryUrl(`${target.mcpUrl.replace(/\/+$/, '')}/server-card`, 'mcp-url')
      if (found) return { probes, found, runtime: await identity }
    }
    const catalog = await get('aiCatalog').catch(nullOnCollectorError)
    if (catalog) {
      const cards = (catalogEntries(catalog.document, catalog.response.url) ?? []).filter(
        (entry) => entry.type === MEDIA.serverCard,
      )
      for (const entry of cards.slice(0, MAX_CATALOG_CARDS)) {
        if (entry.url) {
          const found = await tryUrl(entry.url, 'ai-catalog')
          if (found) return { probes, found, runtime: await identity }
        } else if (isRecord(entry.data)) {
          const url = `${catalog.response.url}#entries/${entry.index}`
          probes.push({ url, via: 'ai-catalog', response: catalog.response })
          return {
            probes,
            found: { url, via: 'ai-catalog', response: catalog.response, card: entry.data, inline: true },
            runtime: await identity,
          }
        }
      }
    }
    const found =
      (await tryUrl(`${origin}/.well-known/mcp/server-card.json`, 'well-known')) ??
      (await tryUrl(`${origin}/.well-known/mcp.json`, 'well-known-legacy'))
    return { probes, found, runtime: await identity }
  },
})
