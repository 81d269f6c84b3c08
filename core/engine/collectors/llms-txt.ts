/**
 * llms.txt as llmstxt.org v2 (August 2026) finds it, and the links it lists.
 *
 * v2 lets the file sit at any path: `/llms.txt` first, then what the homepage names with `rel="describedby"` (its
 * `Link` header or an HTML `<link>`), then `llms.txt` beside the homepage a redirect led to (`/en/` → `/en/llms.txt`).
 * The alternatives are tried only when the root has no file, so a site with one costs no request more.
 */
import { defineCollector } from '../check.ts'
import { parseLinkHeader } from '../lib/links.ts'
import { outlineMarkdown } from '../lib/markdown.ts'
import { SCANNER_ROBOTS_TOKEN } from '../site-sample.ts'
import { fetchSnapshot, type HtmlPage, type HttpSnapshot, isOk, looksLikeHtml } from '../snapshot.ts'
import { nullOnCollectorError, settle } from './lib/fetch.ts'
import { TEXT } from './well-known.ts'

/** How a file found away from `/llms.txt` was found. */
export type LlmsTxtVia = 'describedby-header' | 'describedby-link' | 'homepage-path'

/** The llms.txt response; `foundAt` is set when it is not the root's (which then answered `rootStatus`). */
export interface LlmsTxtArtifact extends HttpSnapshot {
  foundAt?: { via: LlmsTxtVia; rootStatus: number }
}

/** Same-origin links of llms.txt, a deterministic sample of them requested to see which are dead. */
export interface LlmsTxtLinksArtifact {
  /** Distinct same-origin links the file lists (outside code blocks). */
  total: number
  /** The sampled links and what each answered (status null when no response came: `error` says why). */
  probes: { url: string; status: number | null; error?: string }[]
}

/** llms.txt is judged "over 1 MiB" past that size (checks/domain/llms-txt.ts): one byte more tells it so. */
const LLMS_TXT_MAX_BYTES = 1024 * 1024 + 1
/** Alternative locations tried at most, so a homepage naming many describedby documents costs a few requests. */
const MAX_ALTERNATIVES = 3
/** Links of llms.txt requested per scan. */
export const LINK_SAMPLE = 10

/** A served llms.txt: 2xx and not an HTML page standing in for it. */
export function isServedLlmsTxt(snapshot: HttpSnapshot): boolean {
  return isOk(snapshot) && !looksLikeHtml(snapshot.body)
}

/** `describedby` targets of the homepage that can be a markdown file, header first, then `<link>` elements. */
function describedBy(homepage: HtmlPage): { url: string; via: LlmsTxtVia }[] {
  const textual = (type: string | undefined, href: string) =>
    type ? /^text\/(markdown|plain|x-markdown)\b/i.test(type) : /\.(txt|md)$/i.test(new URL(href).pathname)
  const found: { url: string; via: LlmsTxtVia }[] = []
  for (const link of parseLinkHeader(homepage.headers.link, homepage.url)) {
    if (link.rel.includes('describedby') && textual(link.type, link.href))
      found.push({ url: link.href, via: 'describedby-header' })
  }
  homepage.$('link[href]').each((_index, element) => {
    const link = homepage.$(element)
    const rel = (link.attr('rel') ?? '').toLowerCase().split(/\s+/)
    const href = URL.parse(link.attr('href')!, homepage.url)?.href
    if (href && rel.includes('describedby') && textual(link.attr('type'), href))
      found.push({ url: href, via: 'describedby-link' })
  })
  const path = new URL(homepage.url).pathname
  if (path !== '/') found.push({ url: new URL('llms.txt', homepage.url).href, via: 'homepage-path' })
  return found
}

export const llmsTxtCollector = defineCollector({
  key: 'llmsTxt',
  async collect(ctx): Promise<LlmsTxtArtifact> {
    const rootUrl = `${ctx.target.origin}/llms.txt`
    const root = await fetchSnapshot(ctx.http, rootUrl, { ...TEXT, maxBytes: LLMS_TXT_MAX_BYTES })
    if (isServedLlmsTxt(root)) return root
    const homepage = await ctx.get('homepage').catch(nullOnCollectorError)
    if (!homepage) return root
    const candidates = describedBy(homepage).filter(
      (candidate, index, all) =>
        candidate.url !== rootUrl && all.findIndex((other) => other.url === candidate.url) === index,
    )
    for (const candidate of candidates.slice(0, MAX_ALTERNATIVES)) {
      const { response } = await settle(
        fetchSnapshot(ctx.http, candidate.url, { ...TEXT, maxBytes: LLMS_TXT_MAX_BYTES }),
      )
      if (response && isServedLlmsTxt(response) && outlineMarkdown(response.body).startsWithH1) {
        return { ...response, foundAt: { via: candidate.via, rootStatus: root.status } }
      }
    }
    return root
  },
})

/** Spreads `count` picks evenly over `items`, first one included: the same links on every scan of the same file. */
export function evenSample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items]
  return Array.from({ length: count }, (_, index) => items[Math.floor((index * items.length) / count)]!)
}

/**
 * Requests a sample of llms.txt's same-origin links for their status only: the body is not read (maxBytes 0), so
 * the sample costs the scan's byte budget nothing, and a link the scan fetches anyway is answered from its memo.
 * Links robots.txt disallows for the scanner are never requested.
 */
export const llmsTxtLinksCollector = defineCollector({
  key: 'llmsTxtLinks',
  async collect(ctx): Promise<LlmsTxtLinksArtifact> {
    const llmsTxt = await ctx.get('llmsTxt')
    if (!isServedLlmsTxt(llmsTxt)) return { total: 0, probes: [] }
    const origin = new URL(llmsTxt.url).origin
    const robots = await ctx.get('robots').catch(nullOnCollectorError)
    const urls = new Set<string>()
    for (const link of outlineMarkdown(llmsTxt.body).links) {
      const url = URL.parse(link.url, llmsTxt.url)
      if (!url || url.origin !== origin) continue
      if (robots && !robots.isAllowed(SCANNER_ROBOTS_TOKEN, `${url.pathname}${url.search}`)) continue
      url.hash = ''
      urls.add(url.href)
    }
    const probes = await Promise.all(
      evenSample([...urls], LINK_SAMPLE).map(async (url) => {
        const { response, error } = await settle(fetchSnapshot(ctx.http, url, { maxBytes: 0 }))
        return response ? { url, status: response.status } : { url, status: null, error }
      }),
    )
    return { total: urls.size, probes }
  },
})
