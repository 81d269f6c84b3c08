import { defineCollector } from '../check.ts'
import { isSameSite } from '../lib/links.ts'
import { isOk, isRecord, parseJson } from '../snapshot.ts'

/** Whether the target sells something: the gate for the payments layer (docs/checks.md §19). */
export interface CommerceSignals {
  isCommerce: boolean
  reasons: string[]
  /** Same-site product page URLs found (sitemap, homepage links), at most 10. */
  productUrls: string[]
  /** A pricing page URL found (/pricing, /plans, an anchor "Pricing", an llms.txt link), or null. */
  pricingUrl: string | null
}

const PRODUCT_PATH = /\/(products?|p|item|shop)\/[^/?#]+/i
const CART_PATH = /\/(cart|checkout|basket|bag)(\/|$|\?)/i
const PRICING_PATH = /\/(pricing|plans|price)(\/|$|\.html|\?)/i
const PRICING_TEXT = /^\s*(pricing|plans|plans (&|and) pricing|prices)\s*$/i
const PLATFORM_MARKERS: [RegExp, string][] = [
  [/cdn\.shopify\.com|Shopify\.shop|shopify-digital-wallet/i, 'Shopify'],
  [/woocommerce/i, 'WooCommerce'],
  [/Magento|mage\/cookies/i, 'Magento'],
  [/bigcommerce/i, 'BigCommerce'],
]
const COMMERCE_JSONLD = /"@type"\s*:\s*(\[[^\]]*)?"(Product|Offer|AggregateOffer|ProductGroup)"/

function absoluteSameSite(href: string, base: string, domain: string): string | null {
  try {
    const url = new URL(href, base)
    url.hash = ''
    return isSameSite(url.href, domain) ? url.href : null
  } catch {
    return null
  }
}

export const commerceSignalsCollector = defineCollector({
  key: 'commerceSignals',
  async collect({ target, get }) {
    const [homepage, sitemap, llmsTxt, acp, ucp] = await Promise.all([
      get('homepage'),
      get('sitemap'),
      get('llmsTxt'),
      get('acp'),
      get('ucp'),
    ])
    const reasons: string[] = []
    const links = homepage
      .$('a[href]')
      .toArray()
      .map((element) => ({
        url: absoluteSameSite(homepage.$(element).attr('href')!, homepage.url, target.domain),
        text: homepage.$(element).text(),
      }))
      .filter((link): link is { url: string; text: string } => link.url !== null)

    const jsonLd = homepage.$('script[type="application/ld+json"]').text()
    if (COMMERCE_JSONLD.test(jsonLd)) reasons.push('Product/Offer structured data on the homepage')
    const cart = links.find((link) => CART_PATH.test(new URL(link.url).pathname))
    if (cart) reasons.push(`cart/checkout link (${new URL(cart.url).pathname})`)
    const platform = PLATFORM_MARKERS.find(([pattern]) => pattern.test(homepage.body))
    if (platform) reasons.push(`${platform[1]} storefront markers`)
    if (isOk(acp) && isRecord(parseJson(acp.body))) reasons.push('ACP discovery document')
    if (isOk(ucp) && isRecord(parseJson(ucp.body))) reasons.push('UCP business profile')

    // The first 10 distinct product URLs, in order; a sitemap lists up to 50,000 locs, so this stops as soon as it
    // has them (deduplicating with indexOf over all of them was quadratic).
    const productUrls: string[] = []
    const candidates = function* (): Generator<string | null> {
      for (const link of links) yield link.url
      for (const loc of sitemap.parsed?.locs ?? []) yield absoluteSameSite(loc, homepage.url, target.domain)
    }
    for (const url of candidates()) {
      if (productUrls.length === 10) break
      if (url !== null && !productUrls.includes(url) && PRODUCT_PATH.test(new URL(url).pathname)) productUrls.push(url)
    }
    if (productUrls.length > 0) reasons.push(`${productUrls.length} product page link(s)`)

    // The first pricing link of llms.txt, reading matches one at a time rather than collecting all of them.
    let llmsPricing: string | undefined
    for (const match of llmsTxt.body.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)) {
      const url = absoluteSameSite(match[1]!, homepage.url, target.domain)
      if (url !== null && PRICING_PATH.test(new URL(url).pathname)) {
        llmsPricing = url
        break
      }
    }
    const pricingUrl =
      links.find((link) => PRICING_TEXT.test(link.text) || PRICING_PATH.test(new URL(link.url).pathname))?.url ??
      (isOk(llmsTxt) ? llmsPricing : undefined) ??
      null
    if (pricingUrl) reasons.push(`pricing page (${new URL(pricingUrl).pathname})`)

    return { isCommerce: reasons.length > 0, reasons, productUrls, pricingUrl }
  },
})
