import { describe, expect, test } from 'bun:test'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import { homepageCollector } from './homepage.ts'
import { evenSample, LINK_SAMPLE, llmsTxtCollector, llmsTxtLinksCollector } from './llms-txt.ts'

const page =
  (head = '', headers: Record<string, string> = {}) =>
  () =>
    new Response(`<!doctype html><html><head>${head}</head><body><h1>Acme</h1></body></html>`, {
      headers: { 'content-type': 'text/html', ...headers },
    })
const markdown = (body: string) => () =>
  new Response(body, { headers: { 'content-type': 'text/markdown; charset=utf-8' } })
const LLMS = '# Acme\n\n> Anvils for everyone.\n\n- [Docs](/docs)\n'

const site = recordingSite({ routes: { '/': page() } })
const { origin, routes } = site

const context = () =>
  collectorContext({
    target: localTarget(origin),
    collectors: { homepage: homepageCollector, llmsTxt: llmsTxtCollector },
  })
const paths = () => site.requests.map((request) => request.path)

describe('llmsTxtCollector', () => {
  test('a file at /llms.txt is taken as it is, without fetching the homepage', async () => {
    routes['/llms.txt'] = markdown(LLMS)
    const artifact = await llmsTxtCollector.collect(context())
    expect(artifact.status).toBe(200)
    expect(artifact.foundAt).toBeUndefined()
    expect(paths()).toEqual(['/llms.txt'])
  })

  test('llmstxt.org v2 (August 2026): a root 404 follows the homepage\'s Link rel="describedby" header', async () => {
    routes['/'] = page('', { link: '</about/llms.txt>; rel="describedby"; type="text/markdown"' })
    routes['/about/llms.txt'] = markdown(LLMS)
    const artifact = await llmsTxtCollector.collect(context())
    expect(artifact.url).toBe(`${origin}/about/llms.txt`)
    expect(artifact.foundAt).toEqual({ via: 'describedby-header', rootStatus: 404 })
  })

  test('llmstxt.org v2 (August 2026): a root 404 follows an HTML <link rel="describedby">', async () => {
    routes['/'] = page(
      '<link rel="describedby" type="text/plain" href="/meta/site.txt"><link rel="describedby" href="/meta/site.json">',
    )
    routes['/meta/site.txt'] = markdown(LLMS)
    const artifact = await llmsTxtCollector.collect(context())
    expect(artifact.foundAt).toEqual({ via: 'describedby-link', rootStatus: 404 })
    expect(paths()).not.toContain('/meta/site.json')
  })

  test('llmstxt.org v2 (August 2026): after the homepage redirects, llms.txt is tried beside it', async () => {
    routes['/'] = () => new Response(null, { status: 302, headers: { location: '/en/' } })
    routes['/en/'] = page()
    routes['/en/llms.txt'] = markdown(LLMS)
    const artifact = await llmsTxtCollector.collect(context())
    expect(artifact.url).toBe(`${origin}/en/llms.txt`)
    expect(artifact.foundAt).toEqual({ via: 'homepage-path', rootStatus: 404 })
  })

  test('with nothing elsewhere either, the root answer stands', async () => {
    routes['/'] = page('<link rel="describedby" href="/gone.md">')
    const artifact = await llmsTxtCollector.collect(context())
    expect(artifact.status).toBe(404)
    expect(artifact.foundAt).toBeUndefined()
    expect(paths()).toEqual(['/llms.txt', '/', '/gone.md'])
  })
})

describe('llmsTxtLinksCollector', () => {
  const links = () =>
    collectorContext({
      target: localTarget(origin),
      collectors: { homepage: homepageCollector, llmsTxt: llmsTxtCollector, llmsTxtLinks: llmsTxtLinksCollector },
    })

  test('requests the same-origin links once each, for their status, and none elsewhere', async () => {
    routes['/llms.txt'] = markdown(
      `# Acme\n\n- [Docs](/docs)\n- [Docs again](${origin}/docs#intro)\n- [Gone](/gone)\n- [Elsewhere](https://example.org/x)\n\n\`\`\`\n[Fenced](/fenced)\n\`\`\`\n`,
    )
    routes['/docs'] = () => new Response('x'.repeat(10_000), { headers: { 'content-type': 'text/html' } })
    const artifact = await llmsTxtLinksCollector.collect(links())
    expect(artifact).toEqual({
      total: 2,
      probes: [
        { url: `${origin}/docs`, status: 200 },
        { url: `${origin}/gone`, status: 404 },
      ],
    })
    expect(paths().sort()).toEqual(['/docs', '/gone', '/llms.txt'])
  })

  test(`samples at most ${LINK_SAMPLE} links, spread evenly over the file and the same on every run`, async () => {
    routes['/llms.txt'] = markdown(
      `# Acme\n\n${Array.from({ length: 40 }, (_, index) => `- [Page ${index}](/p/${index})`).join('\n')}\n`,
    )
    const artifact = await llmsTxtLinksCollector.collect(links())
    expect(artifact.total).toBe(40)
    expect(artifact.probes.map((probe) => probe.url.replace(`${origin}/p/`, ''))).toEqual([
      '0',
      '4',
      '8',
      '12',
      '16',
      '20',
      '24',
      '28',
      '32',
      '36',
    ])
    expect(evenSample([1, 2, 3], 10)).toEqual([1, 2, 3])
  })

  test('no llms.txt, nothing requested', async () => {
    expect(await llmsTxtLinksCollector.collect(links())).toEqual({ total: 0, probes: [] })
  })
})
