import { defineCollector } from '../check.ts'
import { acceptFor, MEDIA } from '../lib/media-types.ts'
import { nullOnCollectorError } from './lib/fetch.ts'
import { parseLinkHeader, type WebLink } from '../lib/links.ts'
import { fetchSnapshot, type HttpSnapshot, isOk, isRecord, looksLikeHtml, parseJson } from '../snapshot.ts'

/** RFC 9727: GET and HEAD /.well-known/api-catalog. */
export interface ApiCatalogArtifact {
  get: HttpSnapshot
  /** HEAD response; null when the HEAD request itself failed. */
  head: HttpSnapshot | null
  /** Parsed linkset entries when the body is a linkset (`{linkset:[…]}`), else null. */
  linkset: { anchor?: string; relations: Record<string, { href: string; type?: string }[]> }[] | null
  /** `Link` header of the HEAD response, parsed. */
  headLinks: WebLink[]
}

type LinksetEntry = NonNullable<ApiCatalogArtifact['linkset']>[number]

/**
 * RFC 9264 JSON linkset: `{linkset: [{anchor, <relation>: [{href, type?}, …]}, …]}`. Hrefs are resolved against
 * the catalog URL; entries are kept even when malformed (no anchor, no relation) so that checks can count them.
 * Null when the document is not a linkset at all.
 */
export function parseLinkset(document: unknown, baseUrl: string): LinksetEntry[] | null {
  if (!isRecord(document) || !Array.isArray(document.linkset)) return null
  return document.linkset.map((raw): LinksetEntry => {
    if (!isRecord(raw)) return { relations: {} }
    const relations: LinksetEntry['relations'] = {}
    for (const [relation, targets] of Object.entries(raw)) {
      if (relation === 'anchor' || !Array.isArray(targets)) continue
      const links: { href: string; type?: string }[] = []
      for (const target of targets) {
        if (!isRecord(target) || typeof target.href !== 'string') continue
        let href: string
        try {
          href = new URL(target.href, baseUrl).href
        } catch {
          continue
        }
        links.push(typeof target.type === 'string' ? { href, type: target.type } : { href })
      }
      if (links.length > 0) relations[relation] = links
    }
    return typeof raw.anchor === 'string' ? { anchor: raw.anchor, relations } : { relations }
  })
}

export const apiCatalogCollector = defineCollector({
  key: 'apiCatalog',
  async collect({ http, target }) {
    const url = `${target.origin}/.well-known/api-catalog`
    const options = { headers: { accept: acceptFor(MEDIA.linkset) } }
    const [get, head] = await Promise.all([
      fetchSnapshot(http, url, options),
      fetchSnapshot(http, url, { ...options, method: 'HEAD' }).catch(nullOnCollectorError),
    ])
    const linkset = isOk(get) && !looksLikeHtml(get.body) ? parseLinkset(parseJson(get.body), get.url) : null
    return { get, head, linkset, headLinks: head ? parseLinkHeader(head.headers.link, head.url) : [] }
  },
})
