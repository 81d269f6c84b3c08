import { describe, expect, test } from 'bun:test'
import { gzipSync } from 'node:zlib'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import { robotsCollector } from './robots.ts'
import { sitemapCollector } from './sitemap.ts'

/** The fixture site: a home page; each test adds its routes. */
const { origin, routes } = recordingSite({
  routes: {
    '/': () =>
      new Response('<!doctype html><html><body>Home</body></html>', { headers: { 'content-type': 'text/html' } }),
  },
})

function collect() {
  return sitemapCollector.collect(
    collectorContext({ target: localTarget(origin), collectors: { robots: robotsCollector } }),
  )
}

const xml = (body: string) => () => new Response(body, { headers: { 'content-type': 'application/xml' } })
const URLSET = (loc: string) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${loc}</loc></url></urlset>`

describe('sitemapCollector', () => {
  test('follows the robots.txt Sitemap line and probes the first <loc>', async () => {
    routes['/robots.txt'] = () => new Response(`User-agent: *\nAllow: /\nSitemap: ${origin}/maps/main.xml\n`)
    routes['/maps/main.xml'] = xml(URLSET(`${origin}/`))
    const sitemap = await collect()
    expect(sitemap).toMatchObject({
      source: 'robots',
      url: `${origin}/maps/main.xml`,
      robotsSitemaps: [`${origin}/maps/main.xml`],
    })
    expect(sitemap.parsed).toMatchObject({ wellFormed: true, root: 'urlset', namespaceOk: true, locs: [`${origin}/`] })
    expect(sitemap.firstLoc).toEqual({ url: `${origin}/`, status: 200 })
  })

  test('guesses conventional paths in order, skipping soft 404s', async () => {
    routes['/sitemap.xml'] = () =>
      new Response('<!doctype html><html><body>Not here</body></html>', { headers: { 'content-type': 'text/html' } })
    routes['/sitemap_index.xml'] = xml(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/missing.xml</loc></sitemap></sitemapindex>`,
    )
    const sitemap = await collect()
    expect(sitemap).toMatchObject({ source: 'guess', url: `${origin}/sitemap_index.xml`, robotsSitemaps: [] })
    expect(sitemap.parsed?.root).toBe('sitemapindex')
    expect(sitemap.firstLoc).toEqual({ url: `${origin}/missing.xml`, status: 404 })
    expect(sitemap.attempts?.[0]).toEqual({ url: `${origin}/sitemap.xml`, status: 200, note: 'an HTML page' })
  })

  test('a gzip file (not a Content-Encoding) is recorded as compressed, unread', async () => {
    routes['/sitemap.xml.gz'] = () =>
      new Response(gzipSync(URLSET(`${origin}/`)), { headers: { 'content-type': 'application/gzip' } })
    const sitemap = await collect()
    expect(sitemap).toMatchObject({ url: `${origin}/sitemap.xml.gz`, compressed: true, parsed: null })
  })

  test('a Content-Encoding: gzip sitemap is decoded by the client and parsed', async () => {
    routes['/sitemap.xml'] = () =>
      new Response(gzipSync(URLSET(`${origin}/`)), {
        headers: { 'content-type': 'application/xml', 'content-encoding': 'gzip' },
      })
    expect((await collect()).parsed?.locs).toEqual([`${origin}/`])
  })

  test('nothing found', async () => {
    const sitemap = await collect()
    expect(sitemap).toMatchObject({ source: null, url: null, response: null, parsed: null })
    expect(sitemap.tried).toHaveLength(4)
  })
})
