import { describe, expect, test } from 'bun:test'
import { htmlPage } from '../../../tests/support/artifacts.ts'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import { closedOrigin } from '../../../tests/support/ports.ts'
import type { CollectorContext } from '../check.ts'
import { pricingPageCollector, productPagesCollector } from './commerce-pages.ts'
import type { CommerceSignals } from './commerce-signals.ts'

/** Every path is a page titled by its path, except one product that is gone. */
const site = recordingSite({
  routes: { '/products/gone': () => new Response('Not found', { status: 404 }) },
  otherwise: (request) =>
    new Response(`<html><body><h1>${new URL(request.url).pathname}</h1></body></html>`, {
      headers: { 'content-type': 'text/html' },
    }),
})
const { origin } = site
const requestedPaths = () => site.requests.map((request) => request.path)

const homepage = htmlPage('<h1>Home</h1>', { url: 'http://127.0.0.1/' })

function context(signals: Partial<CommerceSignals>): CollectorContext {
  const commerce: CommerceSignals = {
    isCommerce: true,
    reasons: ['test'],
    productUrls: [],
    pricingUrl: null,
    ...signals,
  }
  return collectorContext({ target: localTarget(origin), artifacts: { commerceSignals: commerce, homepage } })
}

describe('productPagesCollector', () => {
  test('samples at most three product URLs; failed fetches are recorded, HTTP errors kept as pages', async () => {
    const dead = `${closedOrigin()}/products/dead`
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
    expect(requestedPaths()).not.toContain('/products/d')
  })

  test('a commerce site without product URLs falls back to the homepage', async () => {
    const artifact = await productPagesCollector.collect(context({}))
    expect(artifact.source).toBe('homepage')
    expect(artifact.pages).toEqual([homepage])
    expect(requestedPaths()).toEqual([])
  })

  test('no commerce signal: nothing is fetched', async () => {
    const artifact = await productPagesCollector.collect(
      context({ isCommerce: false, productUrls: [`${origin}/products/a`] }),
    )
    expect(artifact).toEqual({ pages: [], source: 'none', errors: [] })
    expect(requestedPaths()).toEqual([])
  })
})

describe('pricingPageCollector', () => {
  test('fetches the pricing URL, or returns null without one', async () => {
    const page = await pricingPageCollector.collect(context({ pricingUrl: `${origin}/pricing` }))
    expect(page?.$('h1').text()).toBe('/pricing')
    expect(await pricingPageCollector.collect(context({}))).toBeNull()
  })
})
