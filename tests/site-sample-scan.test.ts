import { afterEach, describe, expect, test } from 'bun:test'
import { createEngine } from '../app/engine.ts'
import { MULTIPAGE_ROBOTS, type MultipageSite, startMultipageSite } from './fixtures/sites/multipage/site.ts'
import { testConfig } from './helpers.ts'
import { scanUrl } from './support/scan.ts'

/** The sampler against the multipage fixture with other robots.txt files: the scanner's own group, a long Crawl-delay. */
let site: MultipageSite | null = null
afterEach(async () => {
  await site?.stop()
  site = null
})

async function sampleOf(robots: string, pages: number) {
  site = startMultipageSite('robots-sample.test', robots)
  const engine = createEngine(testConfig({ SCANNER_RESOLVE: site.resolveRule }), { browser: null })
  return scanUrl(site.host, engine, { phase: 'static', pages })
}

describe('the sample and robots.txt', () => {
  test("the scanner's own group is the one obeyed: /blog/ is disallowed for AgentReadiness, never fetched", async () => {
    const report = await sampleOf(`User-agent: AgentReadiness\nDisallow: /blog/\n\n${MULTIPAGE_ROBOTS}`, 40)
    const fetchedBlog = site!.requests.filter((path) => path.startsWith('/blog/'))
    expect(fetchedBlog).toEqual([])
    // Its own group replaces `*`: /private/ and /drafts/ are allowed to it, /blog/'s 10 pages are not.
    expect(report.pageSample).toMatchObject({ candidates: 42, robotsSkipped: 10 })
    expect(report.pages!.some((page) => page.url.includes('/private/'))).toBe(true)
  })

  test('a Crawl-delay beyond 2 s leaves the homepage alone, and the result says why', async () => {
    const robots = `User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n\nSitemap: {{origin}}/sitemap_index.xml\n`
    const pagePaths = () =>
      new Set(site!.requests.filter((path) => /^\/(docs|blog|guides|products)\/[^.]*$/.test(path)))
    await sampleOf(robots, 1)
    // What a one-page scan fetches anyway (a product page for the commerce checks): the sample adds nothing to it.
    const onePage = pagePaths()
    await site!.stop()
    const report = await sampleOf(robots, 25)
    expect(report.pages!.map((page) => page.source)).toEqual(['home'])
    expect(report.pageSample!.note).toContain('Crawl-delay of 10 s')
    expect(pagePaths()).toEqual(onePage)
  })
})

describe('a re-check over a stored sample', () => {
  test("the stored pages are fetched again under today's robots.txt: a page it now disallows is dropped, never fetched", async () => {
    const first = await sampleOf(`User-agent: AgentReadiness\nDisallow: /blog/\n\n${MULTIPAGE_ROBOTS}`, 40)
    const stored = { pages: first.pages!, summary: first.pageSample! }
    // MULTIPAGE_ROBOTS keeps the scanner out of /private/ and /drafts/, which the first robots.txt let it sample.
    const nowDisallowed = (url: string) => /\/(private|drafts)\//.test(url)
    const privatePages = stored.pages.filter((page) => nowDisallowed(page.url))
    expect(privatePages.length).toBeGreaterThan(0)
    await site!.stop()
    site = startMultipageSite('robots-sample.test', MULTIPAGE_ROBOTS)
    const engine = createEngine(testConfig({ SCANNER_RESOLVE: site.resolveRule }), { browser: null })
    const report = await scanUrl(site.host, engine, {
      phase: 'all',
      checkIds: ['structured-data-jsonld'],
      storedSample: async () => stored,
    })
    expect(site.requests.filter(nowDisallowed)).toEqual([])
    const samePages = stored.pages.filter((page) => !nowDisallowed(page.url)).map((page) => page.url)
    expect(report.pages!.map((page) => page.url)).toEqual(samePages)
    expect(report.pageSample!.robotsSkipped).toBe(stored.summary.robotsSkipped + privatePages.length)
    for (const url of samePages.slice(1)) expect(site.requests).toContain(new URL(url).pathname)
    const [jsonld] = report.layers.flatMap((layer) => layer.checks)
    expect(jsonld!.pages!.checked).toBe(samePages.length)
  })
})
