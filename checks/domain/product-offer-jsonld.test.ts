import { describe, expect, test } from 'bun:test'
import type { ProductPagesArtifact } from '../../core/engine/collectors/commerce-pages.ts'
import type { CommerceSignals } from '../../core/engine/collectors/commerce-signals.ts'
import { context, htmlPage } from '../../tests/support/artifacts.ts'
import check from './product-offer-jsonld.ts'

const commerce = (isCommerce: boolean, productUrls: string[] = []): CommerceSignals => ({
  isCommerce,
  reasons: isCommerce ? ['/cart link on the homepage'] : [],
  productUrls,
  pricingUrl: null,
})
const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`
const page = (head: string, path = '/products/anvil', status = 200) =>
  htmlPage(`<html><head>${head}</head><body><h1>Anvil</h1></body></html>`, { url: `https://acme.test${path}`, status })

const PRODUCT = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Anvil',
  image: 'https://acme.test/anvil.jpg',
  offers: { '@type': 'Offer', price: '49.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
}
const GROUP = {
  '@context': 'https://schema.org',
  '@graph': [
    {
      '@type': 'ProductGroup',
      name: 'Anvils',
      image: ['https://acme.test/a.jpg'],
      hasVariant: [
        {
          '@type': 'Product',
          name: 'Small',
          offers: { '@type': 'Offer', price: 10, priceCurrency: 'EUR', availability: 'InStock' },
        },
      ],
    },
  ],
}

const pages = (
  list: ProductPagesArtifact['pages'],
  source: ProductPagesArtifact['source'] = 'product-urls',
): ProductPagesArtifact => ({ pages: list, source })
const URLS = ['https://acme.test/products/anvil']

describe('product-offer-jsonld', () => {
  test.each([
    ['a complete Product', 'pass', commerce(true, URLS), pages([page(ld(PRODUCT))])],
    ['a ProductGroup whose variants carry offers', 'pass', commerce(true, URLS), pages([page(ld(GROUP))])],
    ['a Product without offers', 'warning', commerce(true, URLS), pages([page(ld({ ...PRODUCT, offers: undefined }))])],
    [
      'a currency that is not ISO 4217',
      'warning',
      commerce(true, URLS),
      pages([page(ld({ ...PRODUCT, offers: { ...PRODUCT.offers, priceCurrency: '$' } }))]),
    ],
    [
      'microdata only',
      'warning',
      commerce(true, URLS),
      pages([
        htmlPage('<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Anvil</span></div>'),
      ]),
    ],
    [
      'one of two pages without markup',
      'warning',
      commerce(true, URLS),
      pages([page(ld(PRODUCT)), page('', '/products/hammer')]),
    ],
    [
      'product pages without Product markup',
      'fail',
      commerce(true, URLS),
      pages([page(''), page('', '/products/hammer')]),
    ],
    ['product pages that 404', 'fail', commerce(true, URLS), pages([page(ld(PRODUCT), '/products/gone', 404)])],
    [
      'a commerce site with no product page and no markup on the homepage',
      'na',
      commerce(true),
      pages([page('', '/')], 'homepage'),
    ],
    ['no commerce signal', 'na', commerce(false), pages([], 'none')],
  ] as const)('%s -> %s', (_name, expected, commerceSignals, productPages) => {
    const outcome = check.run({ commerceSignals, productPages, pricingPage: null }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('a SaaS homepage with SoftwareApplication offers is assessed when no product page exists', () => {
    const app = {
      '@context': 'https://schema.org',
      '@type': 'SoftwareApplication',
      name: 'Acme',
      image: 'https://acme.test/logo.png',
      offers: { '@type': 'Offer', price: 29, priceCurrency: 'USD' },
    }
    const outcome = check.run(
      { commerceSignals: commerce(true), productPages: pages([page(ld(app), '/')], 'homepage'), pricingPage: null },
      context,
    )
    expect(outcome.status).toBe('warning')
    expect(outcome.recommendation).toContain('availability')
  })

  test('details name the product, price and currency', () => {
    const outcome = check.run(
      { commerceSignals: commerce(true, URLS), productPages: pages([page(ld(PRODUCT))]), pricingPage: null },
      context,
    )
    expect(outcome.details).toContain('Product "Anvil", 49 USD, InStock')
  })

  describe('a free plan and the pricing page', () => {
    const app = (offers: unknown) => ({
      '@context': 'https://schema.org',
      '@type': 'SoftwareApplication',
      name: 'Acme',
      image: 'https://acme.test/logo.png',
      offers,
    })
    const FREE = {
      '@type': 'Offer',
      name: 'Free',
      price: 0,
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
    }
    const PAID = {
      '@type': 'Offer',
      name: 'Team',
      price: '8',
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
    }
    const run = (homepage: string, pricingPage: ReturnType<typeof page> | null) =>
      check.run(
        { commerceSignals: commerce(true), productPages: pages([page(homepage, '/')], 'homepage'), pricingPage },
        context,
      )

    test('a Free plan priced 0 on the homepage beside an $8 plan on /pricing passes; the $8 plan is not ignored', () => {
      const outcome = run(ld(app(FREE)), page(ld(app([FREE, PAID])), '/pricing'))
      expect(outcome.status).toBe('pass')
      expect(outcome.details).toContain('the homepage (no product page found) and the pricing page')
      expect(outcome.details).toContain('8 USD')
      expect(outcome.recommendation).toBeUndefined()
    })

    test('standalone Offers on the pricing page count, and stand in for a homepage without markup', () => {
      const outcome = run('', page(ld({ '@context': 'https://schema.org', '@graph': [FREE, PAID] }), '/pricing'))
      expect(outcome.status).toBe('pass')
      expect(outcome.details).toBe('the pricing page: /pricing: 2 Offer(s), 8 USD, InStock')
    })

    test('only free offers anywhere: still asked for a price above 0', () => {
      const outcome = run(ld(app(FREE)), null)
      expect(outcome.status).toBe('warning')
      expect(outcome.recommendation).toContain('a price above 0')
    })

    test('a pricing page without offers changes nothing', () => {
      expect(run('', page('<p>$8 a month</p>', '/pricing')).status).toBe('na')
    })
  })
})
