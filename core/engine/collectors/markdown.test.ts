import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../config.ts'
import { createOutboundClient } from '../../http/client.ts'
import { ScanSession } from '../../http/session.ts'
import type { ArtifactKey, ArtifactMap } from '../artifacts.ts'
import type { CollectorContext } from '../contract.ts'
import { fetchPage } from '../snapshot.ts'
import { looksLikeMarkdown, markdownHomeCollector, markdownTwin, markdownVariantsCollector } from './markdown.ts'

/** The fixture site: a route table each test replaces; anything else is a 404. */
let routes: Record<string, (request: Request) => Response> = {}
let server: ReturnType<typeof Bun.serve>
let origin: string

const html = (body: string, headers: Record<string, string> = {}) => () =>
  new Response(`<!doctype html><html><head>${body}</head><body><h1>Acme</h1></body></html>`, { headers: { 'content-type': 'text/html', ...headers } })
const markdown = (body = '# Acme\n\n- [Docs](/docs/)\n') => () => new Response(body, { headers: { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' } })
/** Markdown when the request prefers it, else HTML. */
const negotiated = (request: Request) =>
  /text\/markdown/.test(request.headers.get('accept') ?? '') ? markdown()() : html('')()

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => routes[new URL(request.url).pathname]?.(request) ?? new Response('Not found', { status: 404 }),
  })
  origin = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))
beforeEach(() => {
  routes = { '/': html('') }
})

function context(docsPath: string | null = null): CollectorContext {
  const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true' })
  const context: CollectorContext = {
    target: { kind: 'domain', domain: '127.0.0.1', origin, url: `${origin}/` },
    config,
    http: new ScanSession(createOutboundClient(config, null), config),
    browser: null,
    get: async <K extends ArtifactKey>(key: K) => {
      if (key === 'homepage') return (await fetchPage(context.http, `${origin}/`)) as ArtifactMap[K]
      if (key === 'docsPage') return (docsPath ? await fetchPage(context.http, `${origin}${docsPath}`) : null) as ArtifactMap[K]
      throw new Error(`unexpected artifact ${key}`)
    },
  }
  return context
}

describe('markdownHomeCollector', () => {
  test('asks for markdown with HTML as the fallback', async () => {
    let accept = ''
    routes['/'] = (request) => {
      accept = request.headers.get('accept') ?? ''
      return negotiated(request)
    }
    const response = await markdownHomeCollector.collect(context())
    expect(accept).toBe('text/markdown, text/html;q=0.5')
    expect(response.contentType).toBe('text/markdown')
    expect(response.headers.vary).toBe('Accept')
  })
})

describe('markdownVariantsCollector', () => {
  test('finds advertised alternates in <head> and the Link header, and probes the first plus the conventional paths', async () => {
    routes['/'] = html('<link rel="alternate" type="text/markdown" href="/home.md">', { link: '</llms.md>; rel="alternate"; type="text/markdown"' })
    routes['/home.md'] = markdown()
    routes['/index.html.md'] = markdown()
    const artifact = await markdownVariantsCollector.collect(context())
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
    const artifact = await markdownVariantsCollector.collect(context('/docs/intro'))
    expect(artifact.probes.at(-1)).toMatchObject({ url: `${origin}/docs/intro.md`, via: 'conventional' })
    expect(artifact.probes.at(-1)?.response?.status).toBe(200)
    expect(artifact.docsNegotiation?.url).toBe(`${origin}/docs/intro`)
    expect(artifact.docsNegotiation?.response?.contentType).toBe('text/markdown')
  })
})

describe('markdown helpers', () => {
  test('markdownTwin appends .md, or index.html.md for directories', () => {
    expect(markdownTwin('https://acme.test/docs/intro?x=1')).toBe('https://acme.test/docs/intro.md')
    expect(markdownTwin('https://acme.test/docs/')).toBe('https://acme.test/docs/index.html.md')
  })

  test('looksLikeMarkdown', () => {
    expect(looksLikeMarkdown('# Title\n\ntext')).toBe(true)
    expect(looksLikeMarkdown('see [docs](https://acme.test/docs)')).toBe(true)
    expect(looksLikeMarkdown('<!doctype html><html><body># not markdown</body></html>')).toBe(false)
    expect(looksLikeMarkdown('just a sentence')).toBe(false)
  })
})
