import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { htmlPage } from '../../../tests/support/artifacts.ts'
import { collectorContext, localTarget } from '../../../tests/support/collector.ts'
import type { CollectorContext } from '../contract.ts'
import { pricingPageCollector, productPagesCollector } from './commerce-pages.ts'
import type { CommerceSignals } from './commerce-signals.ts'

let seen: string[] = []
let server: ReturnType<typeof Bun.serve>
let origin: string

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const path = new URL(request.url).pathname
      seen.push(path)
      if (path === '/products/gone') return new Response('Not found', { status: 404 })
      return new Response(`<html><body><h1>${path}</h1></body></html>`, { headers: { 'content-type': 'text/html' } })
    },
  })
  origin = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))
beforeEach(() => {
  seen = []
})

const homepage = htmlPage('<h1>Home</h1>', { url: 'http://127.0.0.1/' })

function context(signals: Partial<CommerceSignals>): CollectorContext {
  const commerce: CommerceSignals = { isCommerce: true, reasons: ['test'], productUrls: [], pricingUrl: null, ...signals }
  return collectorContext({ target: localTarget(origin), artifacts: { commerceSignals: commerce, homepage } })
}

describe('productPagesCollector', () => {
  test('samples at most three product URLs; failed fetches are recorded, HTTP errors kept as pages', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const dead = `http://127.0.0.1:${closed.port}/products/dead`
    closed.stop(true)
    const artifact = await productPagesCollector.collect(
      context({ productUrls: [`${origin}/products/a`, `${origin}/products/gone`, dead, `${origin}/products/d`] }),
    )
    expect(artifact.source).toBe('product-urls')
    expect(artifact.pages.map((page) => [new URL(page.url).pathname, page.status])).toEqual([
      ['/products/a', 200],
      ['/products/gone', 404],
    ])
    expect(artifact.pages[0]!.$('h1').text()).toBe('/products/a')
    expect(artifact.errors?.map((error) => error.url)).toEqual([dead])
    expect(seen).not.toContain('/products/d')
  })

  test('a commerce site without product URLs falls back to the homepage', async () => {
    const artifact = await productPagesCollector.collect(context({}))
    expect(artifact.source).toBe('homepage')
    expect(artifact.pages).toEqual([homepage])
    expect(seen).toEqual([])
  })

  test('no commerce signal: nothing is fetched', async () => {
    const artifact = await productPagesCollector.collect(context({ isCommerce: false, productUrls: [`${origin}/products/a`] }))
    expect(artifact).toEqual({ pages: [], source: 'none', errors: [] })
    expect(seen).toEqual([])
  })
})

describe('pricingPageCollector', () => {
  test('fetches the pricing URL, or returns null without one', async () => {
    const page = await pricingPageCollector.collect(context({ pricingUrl: `${origin}/pricing` }))
    expect(page?.$('h1').text()).toBe('/pricing')
    expect(await pricingPageCollector.collect(context({}))).toBeNull()
  })
})
