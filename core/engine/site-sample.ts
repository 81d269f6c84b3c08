import type { ScanSession } from '../outbound/session.ts'
import type { ByteBudget } from '../outbound/client.ts'
import type { ScanTarget } from './check.ts'
import { READ_CAP, parseSitemap } from './collectors/sitemap.ts'
import { ACCEPT } from './lib/media-types.ts'
import type { Collection } from './runner.ts'
import { fetchPage, fetchSnapshot, isOk, looksLikeHtml } from './snapshot.ts'

/**
 * Which pages of a site a multi-page scan judges. Candidates come from the sitemap (an index's child sitemaps
 * followed), the links of llms.txt and the homepage's own links; they are normalised, kept on the homepage's
 * origin, filtered by robots.txt for the scanner's own token, and sampled across the site's sections so that one
 * large section does not crowd out the others. The order is deterministic: the same site gives the same sample.
 */

export type PageSource = 'home' | 'sitemap' | 'llms' | 'link'

/** One page of the sample, as the result lists it. */
export interface SampledPage {
  url: string
  source: PageSource
  /** Null when no response arrived. */
  httpStatus: number | null
  durationMs: number
}

/** How the sample came about, beside the pages themselves. */
export interface PageSampleSummary {
  /** The `pages` the request asked for. */
  requested: number
  /** Distinct same-origin HTML page URLs found, before robots.txt. */
  candidates: number
  /** Candidates robots.txt disallows for the scanner's token: never fetched. */
  robotsSkipped: number
  /** The pages whose rendered (browser) checks ran: the first few of the sample. */
  renderedPages: string[]
  /** Set when the sample is smaller than asked and why (a long Crawl-delay, too few candidates). */
  note?: string
}

export interface PageSample {
  pages: SampledPage[]
  summary: PageSampleSummary
}

/** The product token robots.txt rules are matched against (the scanner's User-Agent carries it). */
export const SCANNER_ROBOTS_TOKEN = 'AgentReadiness'
/** Rendering costs a browser page each: a multi-page scan renders this many sampled pages at most. */
export const MAX_RENDERED_PAGES = 3
/** Fetches of sampled pages in flight at once (the session also caps every host at its hostConcurrency). */
export const PAGE_FETCH_CONCURRENCY = 4
/** Crawl-delay is obeyed up to this; a longer one shrinks the sample to the homepage. */
export const MAX_CRAWL_DELAY_SECONDS = 2
/** With a Crawl-delay, the page fetches are spread over at most this long; the sample shrinks to fit. */
export const CRAWL_DELAY_WINDOW_MS = 30_000
/**
 * Decoded HTML bytes the sampled pages may read in all, beside the scan's own budget (SCAN_MAX_BYTES), so that 100
 * pages of 200 KiB neither exhaust the budget the site-level checks need nor grow the scan past a few tens of MB.
 */
export const PAGES_MAX_BYTES = 24 * 1024 * 1024
/** Child sitemaps of a sitemap index read for candidates. */
const MAX_CHILD_SITEMAPS = 5
/** Candidate URLs kept, so that a 50,000-URL sitemap costs a bounded amount of sorting. */
const MAX_CANDIDATES = 5_000
/** Paths that name documents other than HTML pages. */
const NOT_A_PAGE =
  /\.(xml|txt|md|json|pdf|png|jpe?g|gif|svg|webp|avif|ico|css|js|mjs|zip|gz|tgz|mp3|mp4|webm|woff2?|ttf)$/i

/** The canonical form two spellings of one page share: no fragment, the default port dropped by URL, query kept. */
export function normalisePageUrl(raw: string, base: string): string | null {
  const url = URL.parse(raw, base)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null
  url.hash = ''
  if (url.pathname !== '/' && url.pathname.endsWith('/index.html'))
    url.pathname = url.pathname.slice(0, -'index.html'.length)
  return url.href
}

/** The section a page belongs to: its first path segment (`/docs/a/b` → `docs`; the root is ``). */
export function sectionOf(url: string): string {
  return new URL(url).pathname.split('/')[1] ?? ''
}

/**
 * Picks `count - 1` pages besides the homepage, round-robin over the sections in name order and within each
 * section in URL order: a 25-page sample of a site with a 400-page /docs and a 10-page /blog holds both.
 */
export function spreadSample(candidates: readonly string[], count: number): string[] {
  const sections = new Map<string, string[]>()
  for (const url of [...candidates].sort()) {
    const section = sectionOf(url)
    sections.set(section, [...(sections.get(section) ?? []), url])
  }
  const queues = [...sections.keys()].sort().map((section) => sections.get(section)!)
  const picked: string[] = []
  for (let round = 0; picked.length < count && queues.some((queue) => round < queue.length); round += 1) {
    for (const queue of queues) {
      if (picked.length === count) break
      const url = queue[round]
      if (url !== undefined) picked.push(url)
    }
  }
  return picked
}

/** Markdown links and bare URLs of an llms.txt, resolved against it. */
function llmsLinks(body: string, base: string): string[] {
  const links = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!)
  return [
    ...links,
    ...[...body.matchAll(/https?:\/\/[^\s"'`<>()[\]{},\\]+/g)].map((match) => match[0].replace(/[.;:!?]+$/, '')),
  ].map((link) => URL.parse(link, base)?.href ?? link)
}

/** The sitemap's page URLs; for an index, those of its first child sitemaps (read within the sitemap's own cap). */
async function sitemapPages(collection: Collection, http: ScanSession): Promise<string[]> {
  const sitemap = await collection.get('sitemap').catch(() => null)
  if (!sitemap?.parsed || !sitemap.response) return []
  if (sitemap.parsed.root !== 'sitemapindex') return sitemap.parsed.locs
  const children = sitemap.parsed.locs
    .slice(0, MAX_CHILD_SITEMAPS)
    .map((loc) => URL.parse(loc, sitemap.response!.url)?.href)
  const read = await Promise.all(
    children.map(async (url) => {
      if (!url) return []
      const response = await fetchSnapshot(http, url, { headers: { accept: ACCEPT.xml }, maxBytes: READ_CAP }).catch(
        () => null,
      )
      if (!response || !isOk(response)) return []
      const parsed = parseSitemap(response)
      return parsed?.root === 'urlset' ? parsed.locs : []
    }),
  )
  return read.flat()
}

/** Same-origin links of the homepage, in document order. */
async function homepageLinks(collection: Collection): Promise<string[]> {
  const homepage = await collection.get('homepage').catch(() => null)
  if (!homepage || !isOk(homepage)) return []
  return homepage
    .$('a[href]')
    .toArray()
    .map((element) => URL.parse(homepage.$(element).attr('href')!, homepage.url)?.href)
    .filter((href): href is string => href !== undefined)
}

async function llmsTxtLinks(collection: Collection): Promise<string[]> {
  const llms = await collection.get('llmsTxt').catch(() => null)
  if (!llms || !isOk(llms) || looksLikeHtml(llms.body)) return []
  return llmsLinks(llms.body, llms.url)
}

/** Runs `work` over `items` with at most `limit` at once, `spacingMs` apart at the start (Crawl-delay). */
async function pooled<T, R>(
  items: readonly T[],
  limit: number,
  spacingMs: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  let lastStart = 0
  const lane = async () => {
    while (next < items.length) {
      const index = next++
      if (spacingMs > 0) {
        const wait = lastStart + spacingMs - Date.now()
        lastStart = Math.max(Date.now(), lastStart + spacingMs)
        if (wait > 0) await Bun.sleep(wait)
      }
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return results
}

/**
 * Finds the candidates, draws the sample and fetches its pages (the homepage is the scan's own fetch, memoised).
 * A page is fetched exactly as the page-level collectors fetch it, so their `homepage` artifact is this response.
 */
export async function samplePages(
  collection: Collection,
  http: ScanSession,
  target: ScanTarget,
  requested: number,
): Promise<PageSample> {
  const homepage = await collection.get('homepage').catch(() => null)
  const homeUrl = `${target.origin}/`
  const origins = new Set([target.origin, ...(homepage ? [new URL(homepage.url).origin] : [])])
  const [fromSitemap, fromLlms, fromLinks, robots] = await Promise.all([
    sitemapPages(collection, http),
    llmsTxtLinks(collection),
    homepageLinks(collection),
    collection.get('robots').catch(() => null),
  ])
  const sources = new Map<string, PageSource>()
  const homeForms = new Set([homeUrl, ...(homepage ? [normalisePageUrl(homepage.url, homeUrl)] : [])])
  for (const [source, urls] of [
    ['sitemap', fromSitemap],
    ['llms', fromLlms],
    ['link', fromLinks],
  ] as const) {
    for (const raw of urls) {
      if (sources.size === MAX_CANDIDATES) break
      const url = normalisePageUrl(raw, homeUrl)
      if (
        !url ||
        homeForms.has(url) ||
        sources.has(url) ||
        !origins.has(new URL(url).origin) ||
        NOT_A_PAGE.test(new URL(url).pathname)
      )
        continue
      sources.set(url, source)
    }
  }
  const allowed = [...sources.keys()].filter((url) => {
    const { pathname, search } = new URL(url)
    return robots?.isAllowed(SCANNER_ROBOTS_TOKEN, `${pathname}${search}`) ?? true
  })
  const crawlDelay = robots?.crawlDelay(SCANNER_ROBOTS_TOKEN) ?? 0
  const { count, note } = affordableCount(requested, crawlDelay)
  const picked = spreadSample(allowed, count - 1)
  const home: SampledPage = { url: homeUrl, source: 'home', httpStatus: homepage?.status ?? null, durationMs: 0 }
  const pages = [
    home,
    ...(await fetchPages(
      http,
      picked.map((url) => ({ url, source: sources.get(url)! })),
      crawlDelay,
    )),
  ]
  const short =
    pages.length < requested && !note
      ? `The site offered ${allowed.length} allowed pages besides the homepage`
      : undefined
  return {
    pages,
    summary: {
      requested,
      candidates: sources.size,
      robotsSkipped: sources.size - allowed.length,
      renderedPages: pages.slice(0, MAX_RENDERED_PAGES).map((page) => page.url),
      ...((note ?? short) ? { note: note ?? short } : {}),
    },
  }
}

/**
 * A stored sample's pages fetched again (a selective re-check of a multi-page scan), under today's robots.txt and
 * Crawl-delay: a page robots.txt now disallows is dropped, never fetched, and a longer Crawl-delay shrinks the
 * sample as it would a new one. The homepage is the run's own fetch, memoised.
 */
export async function refetchSample(
  collection: Collection,
  http: ScanSession,
  target: ScanTarget,
  stored: PageSample,
): Promise<PageSample> {
  const [homepage, robots] = await Promise.all([
    collection.get('homepage').catch(() => null),
    collection.get('robots').catch(() => null),
  ])
  const others = stored.pages.slice(1).filter((page) => {
    const { pathname, search } = new URL(page.url)
    return robots?.isAllowed(SCANNER_ROBOTS_TOKEN, `${pathname}${search}`) ?? true
  })
  const crawlDelay = robots?.crawlDelay(SCANNER_ROBOTS_TOKEN) ?? 0
  const { count, note } = affordableCount(stored.summary.requested, crawlDelay)
  const home: SampledPage = {
    url: `${target.origin}/`,
    source: 'home',
    httpStatus: homepage?.status ?? null,
    durationMs: 0,
  }
  const pages = [home, ...(await fetchPages(http, others.slice(0, count - 1), crawlDelay))]
  const skipped = stored.pages.length - 1 - others.length
  return {
    pages,
    summary: {
      ...stored.summary,
      robotsSkipped: stored.summary.robotsSkipped + skipped,
      renderedPages: pages.slice(0, MAX_RENDERED_PAGES).map((page) => page.url),
      ...(note ? { note } : {}),
    },
  }
}

/** Fetches sampled pages within the pages' byte budget, at most PAGE_FETCH_CONCURRENCY at once, Crawl-delay apart. */
async function fetchPages(
  http: ScanSession,
  picked: readonly Pick<SampledPage, 'url' | 'source'>[],
  crawlDelay: number,
): Promise<SampledPage[]> {
  const budget: ByteBudget = { remaining: PAGES_MAX_BYTES }
  return pooled(picked, PAGE_FETCH_CONCURRENCY, crawlDelay * 1000, async ({ url, source }): Promise<SampledPage> => {
    const started = performance.now()
    const page = await fetchPage(http, url, { budget }).catch(() => null)
    return { url, source, httpStatus: page?.status ?? null, durationMs: Math.round(performance.now() - started) }
  })
}

/** How many pages a Crawl-delay leaves room for, and why the sample shrank when it did. */
export function affordableCount(requested: number, crawlDelaySeconds: number): { count: number; note?: string } {
  if (crawlDelaySeconds > MAX_CRAWL_DELAY_SECONDS) {
    return {
      count: 1,
      note: `robots.txt asks for a Crawl-delay of ${crawlDelaySeconds} s, more than the ${MAX_CRAWL_DELAY_SECONDS} s the scanner waits: only the homepage was sampled`,
    }
  }
  if (crawlDelaySeconds <= 0) return { count: requested }
  const fits = 1 + Math.floor(CRAWL_DELAY_WINDOW_MS / (crawlDelaySeconds * 1000))
  if (fits >= requested) return { count: requested }
  return {
    count: fits,
    note: `robots.txt asks for a Crawl-delay of ${crawlDelaySeconds} s: ${fits} pages fit in the ${CRAWL_DELAY_WINDOW_MS / 1000} s the scanner spends on fetching pages`,
  }
}
