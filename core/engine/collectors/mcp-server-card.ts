import { defineCollector } from '../contract.ts'
import { catalogEntries, discoveryHeaders, MEDIA, nullOnCollectorError, readJsonObject, settle } from '../lib/discovery.ts'
import { fetchSnapshot, type HttpSnapshot, isRecord } from '../snapshot.ts'

type Via = 'mcp-url' | 'ai-catalog' | 'well-known' | 'well-known-legacy'

/** Probe order of checks.md §7: <mcp-url>/server-card, ai-catalog card entries, /.well-known/mcp/server-card.json, /.well-known/mcp.json. */
export interface McpServerCardArtifact {
  probes: { url: string; via: Via; response: HttpSnapshot | null; error?: string }[]
  /**
   * The first probe answering 2xx with a JSON object. A card inlined in an AI catalog entry (`data`) is found
   * with the catalog's response, a `#entries/<n>` URL and `inline: true`.
   */
  found: { url: string; via: string; response: HttpSnapshot; card: Record<string, unknown>; inline?: boolean } | null
  /** Runtime identity to compare with, for mcp kinds (serverInfo from initialize); null for domains. */
  runtime: { name: string; version?: string } | null
}

const MAX_CATALOG_CARDS = 2

export const mcpServerCardCollector = defineCollector({
  key: 'mcpServerCard',
  async collect({ http, target, get }) {
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
      if (found) return { probes, found, runtime: null }
    }
    const catalog = await get('aiCatalog').catch(nullOnCollectorError)
    if (catalog) {
      const cards = (catalogEntries(catalog.document, catalog.response.url) ?? []).filter((entry) => entry.type === MEDIA.serverCard)
      for (const entry of cards.slice(0, MAX_CATALOG_CARDS)) {
        if (entry.url) {
          const found = await tryUrl(entry.url, 'ai-catalog')
          if (found) return { probes, found, runtime: null }
        } else if (isRecord(entry.data)) {
          const url = `${catalog.response.url}#entries/${entry.index}`
          probes.push({ url, via: 'ai-catalog', response: catalog.response })
          return { probes, found: { url, via: 'ai-catalog', response: catalog.response, card: entry.data, inline: true }, runtime: null }
        }
      }
    }
    const found =
      (await tryUrl(`${origin}/.well-known/mcp/server-card.json`, 'well-known')) ??
      (await tryUrl(`${origin}/.well-known/mcp.json`, 'well-known-legacy'))
    return { probes, found, runtime: null }
  },
})
