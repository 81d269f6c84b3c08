import { type CollectorContext, defineCollector } from '../check.ts'
import { catalogEntries } from '../lib/ai-catalog.ts'
import { MEDIA } from '../lib/media-types.ts'
import { discoveryHeaders, nullOnCollectorError, settle } from './lib/fetch.ts'
import { parseLinkHeader } from '../lib/links.ts'
import { fetchSnapshot, type HttpSnapshot, isOk, looksLikeHtml, parseJson } from '../snapshot.ts'

export interface AiCatalogArtifact {
  /** GET /.well-known/ai-catalog.json on the target origin (the MCP URL's origin for mcp kinds). */
  response: HttpSnapshot
  /** Parsed JSON body, undefined when it is not JSON. */
  document: unknown
  /** Up to 3 `url`s referenced by entries, fetched to see whether they resolve. */
  referenced: { url: string; status: number | null; error?: string }[]
  /**
   * How `response` was found: the well-known path, or (for domains whose well-known path is not 2xx) a
   * `<link rel="ai-catalog">`, a `Link: …; rel="ai-catalog"` header or an `Agentmap:` line in robots.txt.
   */
  via?: 'well-known' | 'link-element' | 'link-header' | 'agentmap'
}

const MAX_REFERENCED = 3

/** Where the homepage and robots.txt say the catalog is, in that order; failures of either are skipped. */
async function advertisedCatalog(
  ctx: CollectorContext,
): Promise<{ url: string; via: NonNullable<AiCatalogArtifact['via']> } | null> {
  const [homepage, robots] = await Promise.all([
    ctx.get('homepage').catch(nullOnCollectorError),
    ctx.get('robots').catch(nullOnCollectorError),
  ])
  if (homepage) {
    const href = homepage.$('link[rel~="ai-catalog"][href]').first().attr('href')
    if (href) {
      try {
        return { url: new URL(href, homepage.url).href, via: 'link-element' }
      } catch {
        // an unusable href: try the other sources
      }
    }
    const header = parseLinkHeader(homepage.headers.link, homepage.url).find((link) => link.rel.includes('ai-catalog'))
    if (header) return { url: header.href, via: 'link-header' }
  }
  const agentmap = robots?.agentmaps[0]
  if (agentmap) {
    try {
      return { url: new URL(agentmap, `${ctx.target.origin}/`).href, via: 'agentmap' }
    } catch {
      return null
    }
  }
  return null
}

export const aiCatalogCollector = defineCollector({
  key: 'aiCatalog',
  async collect(ctx) {
    const origin = ctx.target.mcpUrl ? new URL(ctx.target.mcpUrl).origin : ctx.target.origin
    const wellKnown = `${origin}/.well-known/ai-catalog.json`
    const headers = discoveryHeaders(MEDIA.aiCatalog)
    let response = await fetchSnapshot(ctx.http, wellKnown, { headers })
    let via: NonNullable<AiCatalogArtifact['via']> = 'well-known'
    if (!isOk(response) && ctx.target.kind === 'domain') {
      const advertised = await advertisedCatalog(ctx)
      if (advertised && advertised.url !== wellKnown) {
        const alternative = await fetchSnapshot(ctx.http, advertised.url, { headers }).catch(nullOnCollectorError)
        if (alternative && isOk(alternative)) {
          response = alternative
          via = advertised.via
        }
      }
    }
    const document = isOk(response) && !looksLikeHtml(response.body) ? parseJson(response.body) : undefined
    const targets = (catalogEntries(document, response.url) ?? []).filter((entry) => entry.url).slice(0, MAX_REFERENCED)
    const referenced = await Promise.all(
      targets.map(async ({ url, type }) => {
        // The same headers the server-card collector uses, so a card is fetched once.
        const { response, error } = await settle(fetchSnapshot(ctx.http, url!, { headers: discoveryHeaders(type) }))
        return response ? { url: url!, status: response.status } : { url: url!, status: null, error }
      }),
    )
    return { response, document, referenced, via }
  },
})
