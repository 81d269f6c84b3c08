import { describe, expect, test } from 'bun:test'
import { parseSitemap, type SitemapArtifact } from '../../core/engine/collectors/sitemap.ts'
import { context, snapshot } from '../../tests/support/artifacts.ts'
import check from './sitemap-xml.ts'

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'
const urlset = (locs: string[], attributes = ` xmlns="${NS}"`, extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset${attributes}>${locs.map((loc) => `<url><loc>${loc}</loc>${extra}</url>`).join('')}</urlset>`

function found(body: string, overrides: Partial<SitemapArtifact> = {}): SitemapArtifact {
  const url = overrides.url ?? 'https://acme.test/sitemap.xml'
  const response = snapshot({ url, headers: { 'content-type': 'application/xml' }, body })
  return {
    source: 'robots',
    url,
    response,
    tried: [url],
    parsed: parseSitemap(response),
    firstLoc: { url: 'https://acme.test/', status: 200 },
    robotsSitemaps: [url],
    attempts: [{ url, status: 200 }],
    ...overrides,
  }
}

const none: SitemapArtifact = {
  source: null,
  url: null,
  response: null,
  tried: ['https://acme.test/sitemap.xml', 'https://acme.test/sitemap_index.xml'],
  parsed: null,
  firstLoc: null,
  robotsSitemaps: [],
  attempts: [
    { url: 'https://acme.test/sitemap.xml', status: 404 },
    { url: 'https://acme.test/sitemap_index.xml', status: 200, note: 'an HTML page' },
  ],
}

const good = urlset(
  ['https://acme.test/', 'https://acme.test/about'],
  ` xmlns="${NS}"`,
  '<lastmod>2026-01-02</lastmod>',
)

describe('sitemap-xml', () => {
  test.each([
    ['declared, valid urlset, first URL 200', found(good), 'pass'],
    [
      'valid sitemap index',
      found(`<sitemapindex xmlns="${NS}"><sitemap><loc>https://acme.test/s1.xml</loc></sitemap></sitemapindex>`),
      'pass',
    ],
    ['found only by guessing', found(good, { source: 'guess', robotsSitemaps: [] }), 'warning'],
    [
      'robots.txt declares a broken sitemap',
      found(good, { source: 'guess', robotsSitemaps: ['https://acme.test/old-sitemap.xml'] }),
      'warning',
    ],
    ['namespace missing', found(urlset(['https://acme.test/'], '')), 'warning'],
    ['loc on another host', found(urlset(['https://acme.test/', 'https://other.test/x'])), 'warning'],
    [
      'invalid lastmod',
      found(urlset(['https://acme.test/'], ` xmlns="${NS}"`, '<lastmod>yesterday</lastmod>')),
      'warning',
    ],
    ['plain-text sitemap', found('https://acme.test/\nhttps://acme.test/about\n'), 'warning'],
    ['first URL 404', found(good, { firstLoc: { url: 'https://acme.test/', status: 404 } }), 'warning'],
    ['gzip that could not be read', { ...found(''), parsed: null, compressed: true }, 'warning'],
    ['nothing found', none, 'fail'],
    ['not well-formed XML', found('<urlset><url><loc>x</url></urlset>'), 'fail'],
    ['empty urlset', found(urlset([])), 'fail'],
    ['wrong root element', found(`<rss version="2.0"><channel/></rss>`), 'fail'],
  ] as const)('%s -> %s', (_name, sitemap, expected) => {
    const outcome = check.run({ sitemap }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('an undeclared sitemap is a small deduction, not half the points', () => {
    expect(check.run({ sitemap: found(good, { source: 'guess', robotsSitemaps: [] }) }, context).fraction).toBe(0.75)
  })

  test('details name what was tried', () => {
    expect(check.run({ sitemap: none }, context).details).toContain('/sitemap.xml → 404')
  })

  test('every candidate unreachable is an error, not a fail', () => {
    const unreachable = {
      ...none,
      attempts: [{ url: 'https://acme.test/sitemap.xml', status: null, error: 'timeout' }],
    }
    expect(check.run({ sitemap: unreachable }, context).status).toBe('error')
  })

  test('a sitemap declared in robots.txt on another host may list the referring site', () => {
    const sitemap = found(urlset(['https://acme.test/']), { url: 'https://cdn.acme-static.test/sitemap.xml' })
    expect(check.run({ sitemap }, context).status).toBe('pass')
  })
})

describe('parseSitemap', () => {
  const parse = (body: string, overrides = {}) =>
    parseSitemap(snapshot({ url: 'https://acme.test/sitemap.xml', body, ...overrides }))

  test('reads locs, namespace and lastmod', () => {
    expect(
      parse(urlset(['https://acme.test/a?x=1&amp;y=2'], ` xmlns="${NS}"`, '<lastmod>2026-13</lastmod>')),
    ).toMatchObject({
      wellFormed: true,
      root: 'urlset',
      namespaceOk: true,
      locs: ['https://acme.test/a?x=1&y=2'],
      invalidLastmod: 1,
    })
  })

  test('a prefixed root keeps its namespace', () => {
    expect(
      parse(`<sm:urlset xmlns:sm="${NS}"><sm:url><sm:loc>https://acme.test/</sm:loc></sm:url></sm:urlset>`),
    ).toMatchObject({
      root: 'urlset',
      namespaceOk: true,
      locs: ['https://acme.test/'],
    })
  })

  test('a truncated body is scanned, not validated', () => {
    const parsed = parse(`<urlset xmlns="${NS}"><url><loc>https://acme.test/</loc></url><url><lo`, { truncated: true })
    expect(parsed).toMatchObject({ wellFormed: true, partial: true, locs: ['https://acme.test/'] })
  })

  test('text that is neither XML nor URLs is not a sitemap', () => {
    expect(parse('hello world')).toBeNull()
  })
})
