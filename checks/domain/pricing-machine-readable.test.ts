import { describe, expect, test } from 'bun:test'
import type { CommerceSignals } from '../../core/engine/collectors/commerce-signals.ts'
import type { Outcome } from '../../core/engine/check.ts'
import type { HtmlPage, HttpSnapshot } from '../../core/engine/snapshot.ts'
import { REMEDIES } from '../../core/report/remedies.ts'
import { context, htmlPage, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './pricing-machine-readable.ts'

const commerce = (isCommerce: boolean, overrides: Partial<CommerceSignals> = {}): CommerceSignals => ({
  isCommerce,
  reasons: isCommerce ? ['pricing page at /pricing'] : [],
  productUrls: [],
  pricingUrl: isCommerce ? 'https://acme.test/pricing' : null,
  ...overrides,
})
const pricing = (body: string, head = '', status = 200) =>
  htmlPage(`<html><head>${head}</head><body>${body}</body></html>`, { url: 'https://acme.test/pricing', status })
const OFFERS = `<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'SoftwareApplication',
  name: 'Acme',
  offers: [
    { '@type': 'Offer', name: 'Starter', price: '0', priceCurrency: 'USD' },
    { '@type': 'Offer', name: 'Pro', price: '29', priceCurrency: 'USD' },
  ],
})}</script>`
const PLANS =
  '<h1>Pricing</h1><section><h2>Starter</h2><p>$0 / month</p></section><section><h2>Pro</h2><p>$29 / month</p></section>'
const llms = (body: string): HttpSnapshot =>
  snapshot({ url: 'https://acme.test/llms.txt', headers: { 'content-type': 'text/plain' }, body })
const noLlms = notFound('https://acme.test/llms.txt')

describe('pricing-machine-readable', () => {
  test.each<[string, Outcome['status'], CommerceSignals, HtmlPage | null, HttpSnapshot]>([
    ['prices in HTML and Offer JSON-LD', 'pass', commerce(true), pricing(PLANS, OFFERS), noLlms],
    [
      'prices in HTML and a pricing section in llms.txt',
      'pass',
      commerce(true),
      pricing(PLANS),
      llms('# Acme\n\n## Pricing\n- Pro: $29/month\n'),
    ],
    ['prices in HTML only', 'warning', commerce(true), pricing(PLANS), noLlms],
    [
      '"contact sales" instead of prices',
      'warning',
      commerce(true),
      pricing('<h1>Enterprise</h1><p>Contact sales for a quote.</p>'),
      noLlms,
    ],
    ['prices only in JSON-LD', 'warning', commerce(true), pricing('<div id="app"></div>', OFFERS), noLlms],
    [
      'no pricing page, pricing only in llms.txt',
      'warning',
      commerce(true, { pricingUrl: null }),
      null,
      llms('# Acme\n\n## Plans\nPro $29\n'),
    ],
    [
      'an explicit free plan in the HTML and its Offer priced 0',
      'pass',
      commerce(true),
      pricing('<h1>Pricing</h1><p>Free plan: everything, for everyone.</p>', OFFERS),
      noLlms,
    ],
    // Content over presence: where the prices are is not what they are.
    [
      'prices in HTML, llms.txt with a Pricing heading and link but no price',
      'warning',
      commerce(true),
      pricing(PLANS),
      llms('# Acme\n\n## Pricing\n\n- [Pricing](https://acme.test/pricing): plans and limits\n'),
    ],
    [
      'no pricing page, llms.txt links "Pricing" without a price',
      'fail',
      commerce(true, { pricingUrl: null }),
      null,
      llms('# Acme\n\n- [Pricing](https://acme.test/pricing): plans and limits\n'),
    ],
    [
      'a price in an llms.txt link target is no price',
      'fail',
      commerce(true, { pricingUrl: null }),
      null,
      llms('# Acme\n\n- [Plans](https://acme.test/plans?from=USD29)\n'),
    ],
    [
      'free shipping is not a free plan',
      'fail',
      commerce(true),
      pricing('<h1>Pricing</h1><p>Free shipping on every order.</p>'),
      noLlms,
    ],
    [
      'prices drawn by JavaScript',
      'fail',
      commerce(true),
      pricing('<div id="app"></div><script>render()</script>'),
      noLlms,
    ],
    ['the pricing page answers 404', 'fail', commerce(true), pricing('<h1>Not found</h1>', '', 404), noLlms],
    ['commerce signals but no pricing page', 'fail', commerce(true, { pricingUrl: null }), null, noLlms],
    [
      'a store with product pages and no pricing page',
      'na',
      commerce(true, { pricingUrl: null, productUrls: ['https://acme.test/p/1'] }),
      null,
      noLlms,
    ],
    ['no commerce signal', 'na', commerce(false), null, noLlms],
  ])('%s -> %s', (_name, expected, commerceSignals, pricingPage, llmsTxt) => {
    const outcome = check.run({ commerceSignals, pricingPage, llmsTxt }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('details quote the prices found', () => {
    const outcome = check.run(
      { commerceSignals: commerce(true), pricingPage: pricing(PLANS, OFFERS), llmsTxt: noLlms },
      context,
    )
    expect(outcome.details).toContain('$0, $29')
    expect(outcome.details).toContain('29 USD')
  })

  test("the report's llms.txt template (a [Pricing](…/pricing) link, no price) does not make pricing pass", () => {
    const template = REMEDIES['llms-txt']!({ domain: 'acme.test', origin: 'https://acme.test' }).snippet.code
    const outcome = check.run(
      { commerceSignals: commerce(true), pricingPage: pricing('<h1>Not found</h1>', '', 404), llmsTxt: llms(template) },
      context,
    )
    expect(outcome.status).toBe('fail')
  })
})
