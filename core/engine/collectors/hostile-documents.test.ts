/**
 * Collectors fed hostile documents: each is refused or read within its bounds, and comes out as the malformed or
 * absent document it amounts to, quickly, never as a crash or an allocation spree.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import { startHostileServer, type HostileServer } from '../../../tests/fixtures/hostile/server.ts'
import { loadConfig } from '../../config.ts'
import { createOutboundClient } from '../../outbound/client.ts'
import { ScanSession } from '../../outbound/session.ts'
import { MAX_MARKDOWN_LINKS, outlineMarkdown } from '../lib/markdown.ts'
import { extractJsonLd } from '../lib/jsonld.ts'
import { type HttpSnapshot, toHtmlPage } from '../snapshot.ts'
import type { ApiCatalogArtifact } from './api-catalog.ts'
import { commerceSignalsCollector } from './commerce-signals.ts'
import { mcpCollector } from './mcp.ts'
import { openapiCollector } from './openapi.ts'
import { robotsCollector } from './robots.ts'
import { type SitemapArtifact, sitemapCollector } from './sitemap.ts'

const site = recordingSite()
const typed = (type: string) => (body: string) => () => new Response(body, { headers: { 'content-type': type } })
const json = typed('application/json')
const yaml = typed('application/yaml')
const xml = typed('application/xml')
const text = typed('text/plain')

function snapshot(body: string, url = `${site.origin}/`): HttpSnapshot {
  return {
    requestedUrl: url,
    url,
    status: 200,
    headers: {},
    contentType: 'text/html',
    body,
    truncated: false,
    redirects: [],
    durationMs: 1,
  }
}

const NO_CATALOG: ApiCatalogArtifact = {
  get: snapshot('', `${site.origin}/.well-known/api-catalog`),
  head: null,
  linkset: null,
  headLinks: [],
}

function collectOpenapi() {
  return openapiCollector.collect(
    collectorContext({
      target: localTarget(site.origin),
      artifacts: { homepage: toHtmlPage(snapshot('<html><body>Home</body></html>')), apiCatalog: NO_CATALOG },
    }),
  )
}

async function collectSitemap() {
  const target = localTarget(site.origin)
  const robots = await robotsCollector.collect(collectorContext({ target }))
  return sitemapCollector.collect(collectorContext({ target, artifacts: { robots } }))
}

let billionLaughs =
  'openapi: 3.1.0\ninfo: {title: t, version: "1"}\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n'
for (let level = 1; level < 10; level++)
  billionLaughs += `l${level}: &l${level} [${Array(10)
    .fill(`*l${level - 1}`)
    .join(', ')}]\n`
billionLaughs += 'paths: *l9\n'

describe('openapi collector', () => {
  test('1 MB of {"a": at /openapi.json is no document, refused without the YAML fallback', async () => {
    site.routes['/openapi.json'] = json('{"a":'.repeat(200_000))
    const started = performance.now()
    const openapi = await collectOpenapi()
    expect(openapi.document).toBeNull()
    expect(openapi.tried).toContain(`${site.origin}/openapi.json`)
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  test('a YAML alias bomb and nested complex keys are no documents; a plain YAML document still is', async () => {
    site.routes['/openapi.json'] = yaml(`${'? '.repeat(2_000)}x\n`)
    site.routes['/openapi.yaml'] = yaml(billionLaughs)
    const started = performance.now()
    expect((await collectOpenapi()).document).toBeNull()
    expect(performance.now() - started).toBeLessThan(2_000)

    site.routes['/openapi.yaml'] = yaml(
      'openapi: 3.1.0\ninfo:\n  title: Fine\n  version: "1"\npaths:\n  /things:\n    get:\n      responses:\n        "200": {description: OK}\n',
    )
    const openapi = await collectOpenapi()
    expect(openapi.url).toBe(`${site.origin}/openapi.yaml`)
    expect(openapi.document?.info).toEqual({ title: 'Fine', version: '1' })
  })
})

describe('sitemap collector', () => {
  test('an entity-expansion bomb is not well-formed and is never expanded', async () => {
    let dtd = '<!DOCTYPE lolz [<!ENTITY lol "lol">'
    for (let level = 1; level < 10; level++)
      dtd += `<!ENTITY lol${level} "${`&lol${level === 1 ? '' : level - 1};`.repeat(10)}">`
    site.routes['/sitemap.xml'] = xml(
      `<?xml version="1.0"?>${dtd}]><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&lol9;</loc></url></urlset>`,
    )
    const sitemap = await collectSitemap()
    expect(sitemap.url).toBe(`${site.origin}/sitemap.xml`)
    expect(sitemap.parsed).toMatchObject({ wellFormed: false, locs: [] })
  })

  test('XML nested 200,000 deep is refused before the validator or the parser walks it', async () => {
    const depth = 200_000
    site.routes['/sitemap.xml'] = xml(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<url>'.repeat(depth)}${'</url>'.repeat(depth)}</urlset>`,
    )
    const started = performance.now()
    const sitemap = await collectSitemap()
    expect(sitemap.parsed).toMatchObject({ wellFormed: false, locs: [] })
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  test('a large well-formed sitemap is read with patterns, not a tree, and gives the same answer', async () => {
    const entries = Array.from(
      { length: 40_000 },
      (_, index) =>
        `<url><loc>${site.origin}/p/${index}?a=1&amp;b=2</loc><lastmod>${index % 2 ? '2024-01-01' : 'yesterday'}</lastmod><image:image><image:loc>${site.origin}/i/${index}.png</image:loc></image:image></url>`,
    )
    site.routes['/sitemap.xml'] = xml(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">${entries.join('')}</urlset>`,
    )
    const { parsed } = await collectSitemap()
    expect(parsed).toMatchObject({
      wellFormed: true,
      root: 'urlset',
      namespaceOk: true,
      invalidLastmod: 20_000,
      overLimits: false,
    })
    expect(parsed?.locs).toHaveLength(40_000)
    expect(parsed?.locs[1]).toBe(`${site.origin}/p/1?a=1&b=2`)
  })

  test('a plain-text sitemap of 200,000 lines keeps 50,000 and says it is over the limits', async () => {
    site.routes['/sitemap.xml'] = text(
      Array.from({ length: 200_000 }, (_, index) => `${site.origin}/page/${index}`).join('\n'),
    )
    const { parsed } = await collectSitemap()
    expect(parsed).toMatchObject({ plainText: true, overLimits: true })
    expect(parsed?.locs).toHaveLength(50_000)
  })

  test('a robots.txt listing 10,000 sitemaps gets 5 of them tried, not 10,000', async () => {
    site.routes['/robots.txt'] = text(
      [
        'User-agent: *',
        'Allow: /',
        ...Array.from({ length: 10_000 }, (_, index) => `Sitemap: ${site.origin}/s/${index}.xml`),
      ].join('\n'),
    )
    const sitemap = await collectSitemap()
    expect(sitemap.robotsSitemaps).toHaveLength(10_000)
    expect(sitemap.tried.filter((url) => url.includes('/s/'))).toHaveLength(5)
    expect(site.requests.map((request) => request.path).filter((path) => path.startsWith('/s/'))).toHaveLength(5)
  })
})

describe('commerce signals', () => {
  test('50,000 product URLs in the sitemap and 10,000 links in llms.txt: the first 10 products and the pricing link, quickly', async () => {
    const locs = Array.from({ length: 50_000 }, (_, index) => `${site.origin}/product/${index}`)
    const llms = [
      ...Array.from({ length: 10_000 }, (_, index) => `- [Doc](${site.origin}/docs/${index})`),
      `- [Pricing](${site.origin}/pricing)`,
    ].join('\n')
    const sitemap: SitemapArtifact = {
      source: 'guess',
      url: `${site.origin}/sitemap.xml`,
      response: null,
      tried: [],
      firstLoc: null,
      parsed: {
        wellFormed: true,
        root: 'urlset',
        namespaceOk: true,
        locs,
        invalidLastmod: 0,
        plainText: false,
        overLimits: false,
      },
    }
    const missing = { ...snapshot('', `${site.origin}/x`), status: 404 }
    const started = performance.now()
    const signals = await commerceSignalsCollector.collect(
      collectorContext({
        target: localTarget(site.origin),
        artifacts: {
          homepage: toHtmlPage(snapshot('<html><body>Home</body></html>')),
          sitemap,
          llmsTxt: { ...snapshot(llms, `${site.origin}/llms.txt`), contentType: 'text/plain' },
          acp: missing,
          ucp: missing,
        },
      }),
    )
    expect(signals.productUrls).toEqual(locs.slice(0, 10))
    expect(signals.pricingUrl).toBe(`${site.origin}/pricing`)
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})

describe('JSON-LD and markdown', () => {
  test('a JSON-LD block nested past the bound is recorded unparsed; the next block is read', () => {
    const page = toHtmlPage(
      snapshot(
        `<html><head><script type="application/ld+json">${'['.repeat(100_000)}${']'.repeat(100_000)}</script>` +
          '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"A"}</script></head></html>',
      ),
    )
    const { blocks, nodes } = extractJsonLd(page.$)
    expect(blocks[0]).toMatchObject({ index: 1, parsed: false })
    expect(blocks[0]?.error).toContain('nests more than')
    expect(blocks[1]).toEqual({ index: 2, parsed: true })
    expect(nodes.map((node) => node.types)).toEqual([['Organization']])
  })

  test('a 5 MB llms.txt is outlined over its first MiB, keeping at most MAX_MARKDOWN_LINKS links', () => {
    const lines = ['# Huge', '', '## Docs']
    while (lines.length < 100_000)
      lines.push(`- [Page ${lines.length}](https://example.test/p/${lines.length}.md): a page`)
    const outline = outlineMarkdown(lines.join('\n'))
    expect(outline.startsWithH1).toBe(true)
    expect(outline.links.length).toBeLessThanOrEqual(MAX_MARKDOWN_LINKS)
    expect(outline.sections).toHaveLength(1)
  })
})

describe('mcp collector against a hostile server', () => {
  let hostile: HostileServer
  beforeAll(async () => {
    hostile = await startHostileServer()
  })
  afterAll(() => hostile.stop())

  test('an SSE event that never ends and deeply nested answers: a failed handshake, in bounded time', async () => {
    const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', SCANNER_RESOLVE: hostile.resolveRules })
    const host = hostile.host('mcp')
    const started = performance.now()
    const mcp = await mcpCollector.collect({
      target: {
        kind: 'mcp',
        domain: host,
        origin: `https://${host}`,
        url: `https://${host}/mcp`,
        mcpUrl: `https://${host}/mcp`,
      },
      config,
      http: new ScanSession(createOutboundClient(config, null), config),
      get: () => Promise.reject(new Error('the mcp collector reads no other artifact')),
      page: `https://${host}/`,
      isHomepage: true,
      browser: null,
    })
    expect(mcp.handshake).toBeNull()
    // The SDK's copy of the initialize answer went through the stream guard, which stopped it at the event bound.
    expect(mcp.initialize.error).toMatch(/event of the stream passed \d+ bytes/)
    expect(mcp.initialize.body.length).toBeLessThanOrEqual(16 * 1024)
    // server/discover answered with JSON nested 500,000 deep: read as malformed, not parsed.
    expect(mcp.discover.sseMalformed).toBe(true)
    expect(mcp.discover.messages).toEqual([])
    expect(performance.now() - started).toBeLessThan(30_000)
  }, 40_000)
})
