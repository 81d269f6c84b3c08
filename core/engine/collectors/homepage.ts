import { defineCollector } from '../check.ts'
import { isSameSite } from '../lib/links.ts'
import { fetchPage, type HtmlPage } from '../snapshot.ts'

const DOCS_LINK_TEXT = /\b(docs|documentation|developers?|api reference|api docs)\b/i
const DOCS_LINK_HREF = /(^|[/.])(docs?|documentation|developers?|reference)([/.]|$)/i

export const homepageCollector = defineCollector({
  key: 'homepage',
  async collect({ http, page }) {
    return fetchPage(http, page)
  },
})

/** The first same-site link that reads or points like documentation. */
export function findDocsLink(homepage: HtmlPage, domain: string): string | null {
  for (const element of homepage.$('a[href]').toArray()) {
    const anchor = homepage.$(element)
    const href = anchor.attr('href')!
    let url: string
    try {
      url = new URL(href, homepage.url).href
    } catch {
      continue
    }
    if (!isSameSite(url, domain) || url.replace(/#.*$/, '') === homepage.url) continue
    if (DOCS_LINK_TEXT.test(anchor.text()) || DOCS_LINK_HREF.test(new URL(url).hostname + new URL(url).pathname)) {
      return url
    }
  }
  return null
}

export const docsPageCollector = defineCollector({
  key: 'docsPage',
  async collect({ http, target, get, isHomepage }) {
    // A sampled page is judged as itself; the docs page is the homepage's companion (and is sampled in its own right).
    if (!isHomepage) return null
    const link = findDocsLink(await get('homepage'), target.domain)
    return link ? fetchPage(http, link) : null
  },
})
