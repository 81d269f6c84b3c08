import { defineCollector } from '../check.ts'
import { nullOnCollectorError, settle } from './lib/fetch.ts'
import { parseLinkHeader } from '../lib/links.ts'
import { fetchSnapshot, type HtmlPage, type HttpSnapshot, isOk, looksLikeHtml } from '../snapshot.ts'

/** Markdown variants of the homepage: advertised ones (<link rel=alternate type=text/markdown>, Link header) and the conventional paths. */
export interface MarkdownVariantsArtifact {
  advertised: { href: string; via: 'link-element' | 'link-header' }[]
  /** The first advertised URL and /index.md and /index.html.md, fetched. */
  probes: {
    url: string
    via: 'link-element' | 'link-header' | 'conventional'
    response: HttpSnapshot | null
    error?: string
  }[]
  /**
   * The docs page fetched with the markdown Accept header, so that negotiation is judged on more than the
   * homepage; null when the homepage links no docs page.
   */
  docsNegotiation?: { url: string; response: HttpSnapshot | null; error?: string } | null
}

/** What an agent that prefers markdown sends (docs/checks.md §11). */
export const MARKDOWN_ACCEPT = 'text/markdown, text/html;q=0.5'
/** For URLs that should be markdown: say so, but take whatever comes so the check can see what it was. */
const VARIANT_ACCEPT = 'text/markdown, text/plain;q=0.9, */*;q=0.1'
const MARKDOWN_TYPES = /^text\/(x-)?markdown\b/i
/**
 * What a markdown probe reads: the checks judge its status, headers and first 8 KiB (markdownServed), so a large
 * document (or an endless one) does not spend the scan's byte budget three times over.
 */
const PROBE_MAX_BYTES = 256 * 1024

/** A body with markdown structure (a heading, a link, a list or a fence) that is not an HTML document. */
export function looksLikeMarkdown(body: string): boolean {
  if (looksLikeHtml(body) || /<(html|body|div)[\s>]/i.test(body.slice(0, 2048))) return false
  const sample = body.slice(0, 8192)
  return (
    /^#{1,6}\s+\S/m.test(sample) ||
    /\[[^\]]+\]\([^)\s]+\)/.test(sample) ||
    /^\s*([-*+]|\d+\.)\s+\S/m.test(sample) ||
    /^```/m.test(sample)
  )
}

/**
 * How a response serves markdown: `markdown` (2xx, text/markdown, not HTML), `plain` (2xx text/plain whose body
 * is markdown: usable, but the type is wrong), or null (not markdown).
 */
export function markdownServed(response: HttpSnapshot): 'markdown' | 'plain' | null {
  if (!isOk(response) || looksLikeHtml(response.body)) return null
  if (MARKDOWN_TYPES.test(response.contentType)) return 'markdown'
  if (response.contentType === 'text/plain' && looksLikeMarkdown(response.body)) return 'plain'
  return null
}

/** The homepage requested with `Accept: text/markdown, text/html;q=0.5`. */
export const markdownHomeCollector = defineCollector({
  key: 'markdownHome',
  async collect({ http, page }) {
    return fetchSnapshot(http, page, { headers: { accept: MARKDOWN_ACCEPT }, maxBytes: PROBE_MAX_BYTES })
  },
})

/**
 * The `.md` twins of a page URL, as llmstxt.org v2 (August 2026) names them: the URL with `.md` appended
 * (`/docs/intro` → `/docs/intro.md`, `/guide.html` → `/guide.html.md`), or for a page with an extension the same
 * name with `.md` in its place (`/guide.md`); a directory URL has `index.html.md` or `index.md`.
 */
export function markdownTwins(pageUrl: string): string[] {
  const url = new URL(pageUrl)
  url.search = ''
  url.hash = ''
  const path = url.pathname
  const stems = path.endsWith('/')
    ? [`${path}index.html`, `${path}index`]
    : [path, ...(/\.[a-z0-9]+$/i.test(path) ? [path.replace(/\.[a-z0-9]+$/i, '')] : [])]
  return stems.map((stem) => new URL(`${stem}.md`, url).href)
}

function advertisedVariants(homepage: HtmlPage): MarkdownVariantsArtifact['advertised'] {
  const advertised: MarkdownVariantsArtifact['advertised'] = []
  homepage.$('head link[href]').each((_index, element) => {
    const link = homepage.$(element)
    const rel = (link.attr('rel') ?? '').toLowerCase().split(/\s+/)
    if (!rel.includes('alternate') || !MARKDOWN_TYPES.test(link.attr('type') ?? '')) return
    try {
      advertised.push({ href: new URL(link.attr('href')!, homepage.url).href, via: 'link-element' })
    } catch {
      // An unparsable href advertises nothing.
    }
  })
  for (const link of parseLinkHeader(homepage.headers.link, homepage.url)) {
    if (link.rel.includes('alternate') && MARKDOWN_TYPES.test(link.type ?? ''))
      advertised.push({ href: link.href, via: 'link-header' })
  }
  return advertised.filter((entry, index) => advertised.findIndex((other) => other.href === entry.href) === index)
}

/**
 * Advertised markdown alternates of the homepage, the conventional `.md` paths (the homepage's twins /index.html.md
 * and /index.md, and the docs page's), and the docs page under markdown negotiation.
 */
export const markdownVariantsCollector = defineCollector({
  key: 'markdownVariants',
  async collect(ctx) {
    const [homepage, docsPage] = await Promise.all([
      ctx.get('homepage'),
      ctx.get('docsPage').catch(nullOnCollectorError),
    ])
    const advertised = advertisedVariants(homepage)
    const candidates: { url: string; via: MarkdownVariantsArtifact['probes'][number]['via'] }[] = []
    const first = advertised[0]
    if (first) candidates.push({ url: first.href, via: first.via })
    if (ctx.isHomepage) {
      for (const path of ['/index.md', '/index.html.md'])
        candidates.push({ url: new URL(path, ctx.target.origin).href, via: 'conventional' })
    } else {
      for (const url of markdownTwins(ctx.page)) candidates.push({ url, via: 'conventional' })
    }
    for (const url of docsPage ? markdownTwins(docsPage.url) : []) candidates.push({ url, via: 'conventional' })
    const unique = candidates.filter(
      (candidate, index) => candidates.findIndex((other) => other.url === candidate.url) === index,
    )

    const [probes, docsNegotiation] = await Promise.all([
      Promise.all(
        unique.map(async ({ url, via }) => ({
          url,
          via,
          ...(await settle(
            fetchSnapshot(ctx.http, url, { headers: { accept: VARIANT_ACCEPT }, maxBytes: PROBE_MAX_BYTES }),
          )),
        })),
      ),
      docsPage
        ? settle(
            fetchSnapshot(ctx.http, docsPage.url, { headers: { accept: MARKDOWN_ACCEPT }, maxBytes: PROBE_MAX_BYTES }),
          ).then((result) => ({ url: docsPage.url, ...result }))
        : null,
    ])
    return { advertised, probes, docsNegotiation }
  },
})
