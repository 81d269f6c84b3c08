import { describe, expect, test } from 'bun:test'
import { collectorContext, localTarget, recordingSite, scanSession } from '../../../tests/support/collector.ts'
import type { CollectorContext } from '../check.ts'
import { fetchPage } from '../snapshot.ts'
import { looksLikeMarkdown, markdownHomeCollector, markdownTwins, markdownVariantsCollector } from './markdown.ts'

const html =
  (body: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(`<!doctype html><html><head>${body}</head><body><h1>Acme</h1></body></html>`, {
      headers: { 'content-type': 'text/html', ...headers },
    })
const markdown =
  (body = '# Acme\n\n- [Docs](/docs/)\n') =>
  () =>
    new Response(body, { headers: { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' } })
/** Markdown when the request prefers it, else HTML. */
const negotiated = (request: Request) =>
  /text\/markdown/.test(request.headers.get('accept') ?? '') ? markdown()() : html('')()

/** The fixture site: an HTML home page; each test adds or replaces routes. */
const site = recordingSite({ routes: { '/': html('') } })
const { origin, routes } = site

/** The home page and the docs page (if any) are fetched on the session the collector then uses. */
async function context(docsPath: string | null = null): Promise<CollectorContext> {
  const http = scanSession()
  const homepage = await fetchPage(http, `${origin}/`)
  const docsPage = docsPath ? await fetchPage(http, `${origin}${docsPath}`) : null
  return collectorContext({ target: localTarget(origin), http, artifacts: { homepage, docsPage } })
}

describe('markdownHomeCollector', () => {
  test('asks for markdown with HTML as the fallback', async () => {
    routes['/'] = negotiated
    const response = await markdownHomeCollector.collect(await context())
    expect(site.requests.at(-1)?.headers.get('accept')).toBe('text/markdown, text/html;q=0.5')
    expect(response.contentType).toBe('text/markdown')
    expect(response.headers.vary).toBe('Accept')
  })
})

describe('markdownVariantsCollector', () => {
  test('finds advertised alternates in <head> and the Link header, and probes the first plus the conventional paths', async () => {
    routes['/'] = html('<link rel="alternate" type="text/markdown" href="/home.md">', {
      link: '</llms.md>; rel="alternate"; type="text/markdown"',
    })
    routes['/home.md'] = markdown()
    routes['/index.html.md'] = markdown()
    const artifact = await markdownVariantsCollector.collect(await context())
    expect(artifact.advertised).toEqual([
      { href: `${origin}/home.md`, via: 'link-element' },
      { href: `${origin}/llms.md`, via: 'link-header' },
    ])
    expect(artifact.probes.map((probe) => [probe.url.replace(origin, ''), probe.via, probe.response?.status])).toEqual([
      ['/home.md', 'link-element', 200],
      ['/index.md', 'conventional', 404],
      ['/index.html.md', 'conventional', 200],
    ])
    expect(artifact.docsNegotiation).toBeNull()
  })

  test('probes the docs page twin and negotiates markdown on the docs page', async () => {
    routes['/docs/intro'] = negotiated
    routes['/docs/intro.md'] = markdown()
    const artifact = await markdownVariantsCollector.collect(await context('/docs/intro'))
    expect(artifact.probes.at(-1)).toMatchObject({ url: `${origin}/docs/intro.md`, via: 'conventional' })
    expect(artifact.probes.at(-1)?.response?.status).toBe(200)
    expect(artifact.docsNegotiation?.url).toBe(`${origin}/docs/intro`)
    expect(artifact.docsNegotiation?.response?.contentType).toBe('text/markdown')
  })
})

describe('markdown helpers', () => {
  test("llmstxt.org v2 (August 2026): a page's twin appends .md or replaces its extension; a directory has index.html.md or index.md", () => {
    expect(markdownTwins('https://acme.test/docs/intro?x=1')).toEqual(['https://acme.test/docs/intro.md'])
    expect(markdownTwins('https://acme.test/docs/guide.html')).toEqual([
      'https://acme.test/docs/guide.html.md',
      'https://acme.test/docs/guide.md',
    ])
    expect(markdownTwins('https://acme.test/docs/')).toEqual([
      'https://acme.test/docs/index.html.md',
      'https://acme.test/docs/index.md',
    ])
  })

  test('llmstxt.org v2 (August 2026): the docs page /guide.html served as /guide.md is found', async () => {
    routes['/guide.html'] = html('')
    routes['/guide.md'] = markdown()
    const artifact = await markdownVariantsCollector.collect(await context('/guide.html'))
    expect(artifact.probes.slice(-2).map((probe) => [probe.url.replace(origin, ''), probe.response?.status])).toEqual([
      ['/guide.html.md', 404],
      ['/guide.md', 200],
    ])
  })

  test('llmstxt.org v2 (August 2026): the docs directory /docs/ served as /docs/index.md is found', async () => {
    routes['/docs/'] = html('')
    routes['/docs/index.md'] = markdown()
    const artifact = await markdownVariantsCollector.collect(await context('/docs/'))
    expect(artifact.probes.slice(-2).map((probe) => [probe.url.replace(origin, ''), probe.response?.status])).toEqual([
      ['/docs/index.html.md', 404],
      ['/docs/index.md', 200],
    ])
  })

  test('looksLikeMarkdown', () => {
    expect(looksLikeMarkdown('# Title\n\ntext')).toBe(true)
    expect(looksLikeMarkdown('see [docs](https://acme.test/docs)')).toBe(true)
    expect(looksLikeMarkdown('<!doctype html><html><body># not markdown</body></html>')).toBe(false)
    expect(looksLikeMarkdown('just a sentence')).toBe(false)
  })
})
