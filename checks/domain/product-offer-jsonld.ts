// Sampled product pages, and the site's pricing page, carry schema.org Product JSON-LD with name, image and an Offer
// (a price, ISO 4217 currency, availability). A price of 0 is a free plan, valid beside paid offers: a SaaS with a
// Free plan on its homepage and an $8 plan on /pricing states its prices. Only a site whose every offer is 0 is asked
// for a price above 0. Spec: https://developers.google.com/search/docs/appearance/structured-data/merchant-listing
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import {
  extractJsonLd,
  inlineSchemaTypes,
  nodesOfType,
  records,
  summariseOffer,
  typesOf,
} from '../../core/engine/lib/jsonld.ts'
import { commerceGate } from '../lib/payments.ts'
import { type HtmlPage, isOk } from '../../core/engine/snapshot.ts'

const OFFER_TYPES = new Set(['Offer', 'AggregateOffer'])
const PRODUCT_TYPES = new Set([
  'Product',
  'ProductGroup',
  'IndividualProduct',
  'ProductModel',
  'SomeProducts',
  'Vehicle',
  'Car',
  'Book',
  'SoftwareApplication',
  'WebApplication',
  'MobileApplication',
])

type Grade = 'complete' | 'partial' | 'microdata' | 'none'
interface PageVerdict {
  path: string
  grade: Grade
  text: string
  fix?: string
}

export default defineCheck({
  meta: {
    id: 'product-offer-jsonld',
    name: 'Product/Offer structured data',
    description:
      'Shopping agents compare and buy from Product markup: name, image, price, currency and availability in JSON-LD, not scraped from the layout.',
    layer: 'payments',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 6,
    specUrl: 'https://developers.google.com/search/docs/appearance/structured-data/merchant-listing',
    recommendation:
      'Add Product JSON-LD to every product page with name, image and offers {price, priceCurrency, availability} (SoftwareApplication with offers for software).',
    needs: ['commerceSignals', 'productPages', 'pricingPage'],
    siteTypeRole: 'product-listing',
  },
  run({ commerceSignals, productPages, pricingPage }) {
    const gate = commerceGate(commerceSignals)
    if (gate) return gate
    const fromHomepage = productPages.source === 'homepage'
    // The pricing page counts when it carries offers; it stands in for a homepage without any.
    const pricing =
      pricingPage &&
      isOk(pricingPage) &&
      !productPages.pages.some((page) => page.url === pricingPage.url) &&
      offersOn(pricingPage).length > 0
        ? pricingPage
        : null
    const sampled = fromHomepage && pricing && !productPages.pages.some(hasProductMarkup) ? [] : productPages.pages
    const fetched = [...sampled, ...(pricing ? [pricing] : [])]
    const pages = fetched.filter(isOk)
    const paidOfferExists = pages.some((page) => offersOn(page).some((offer) => (summariseOffer(offer).price ?? 0) > 0))
    const verdicts = pages.map((page) => judgePage(page, paidOfferExists))
    if (fromHomepage && verdicts.every((verdict) => verdict.grade === 'none')) {
      return na(
        'No product pages were found (no product URLs in the sitemap or homepage links), and neither the homepage nor a pricing page has Product markup to assess',
      )
    }
    if (pages.length === 0) {
      return fail(
        `The sampled product pages did not answer 2xx: ${fetched.map((page) => `${page.url} (${page.status})`).join(', ')}`,
        'Make product pages answer 200 with their content and Product JSON-LD, and keep the sitemap free of dead product URLs.',
      )
    }
    const where = [
      ...(sampled.length === 0
        ? []
        : [
            fromHomepage
              ? 'the homepage (no product page found)'
              : `${sampled.filter(isOk).length} sampled product page(s)`,
          ]),
      ...(pricing ? ['the pricing page'] : []),
    ].join(' and ')
    const skipped = [
      ...fetched.filter((page) => !isOk(page)).map((page) => `${new URL(page.url).pathname} answered ${page.status}`),
      ...(productPages.errors ?? []).map((error) => `${error.url} failed (${error.error})`),
    ]
    const details = `${where}: ${verdicts.map((verdict) => `${verdict.path}: ${verdict.text}`).join('; ')}${skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : ''}`
    const fixes = verdicts.flatMap((verdict) => (verdict.fix ? [`${verdict.path}: ${verdict.fix}`] : []))
    if (verdicts.every((verdict) => verdict.grade === 'complete')) return pass(details, { occurrences: pages.length })
    if (verdicts.every((verdict) => verdict.grade === 'none'))
      return fail(details, `${fixes.join('; ')}.`, { occurrences: pages.length })
    return warn(details, `${fixes.join('; ')}.`, { occurrences: pages.length })
  },
})

function hasProductMarkup(page: HtmlPage): boolean {
  return nodesOfType(extractJsonLd(page.$).nodes, PRODUCT_TYPES).length > 0 || offersOn(page).length > 0
}

/** Every Offer a page states: on its products (and their variants), and standing alone. */
function offersOn(page: HtmlPage): Record<string, unknown>[] {
  const { nodes } = extractJsonLd(page.$)
  const holders = [
    ...nodesOfType(nodes, PRODUCT_TYPES).map((node) => node.value),
    ...nodesOfType(nodes, OFFER_TYPES).map((node) => node.value),
  ]
  return [...holders, ...holders.flatMap((holder) => records(holder.hasVariant))].flatMap((item) => [
    ...(typesOf(item).some((type) => OFFER_TYPES.has(type)) ? [item] : []),
    ...records(item.offers).flatMap((offer) => [offer, ...records(offer.offers)]),
  ])
}

function judgePage(page: HtmlPage, paidOfferExists: boolean): PageVerdict {
  const path = new URL(page.url).pathname
  const products = nodesOfType(extractJsonLd(page.$).nodes, PRODUCT_TYPES)
  if (products.length === 0 && offersOn(page).length > 0) return judgeOffers(path, offersOn(page), paidOfferExists)
  if (products.length === 0) {
    const microdata = inlineSchemaTypes(page.$).microdata.filter((type) => PRODUCT_TYPES.has(type) || type === 'Offer')
    if (microdata.length > 0) {
      return {
        path,
        grade: 'microdata',
        text: `Product only in microdata (${microdata.join(', ')})`,
        fix: 'publish the Product and its Offer as JSON-LD as well',
      }
    }
    return {
      path,
      grade: 'none',
      text: 'no Product markup',
      fix: 'add Product JSON-LD with name, image and offers (price, priceCurrency, availability)',
    }
  }
  const graded = products.map((product) => gradeProduct(product.value, paidOfferExists))
  return graded.find((verdict) => verdict.missing.length === 0)
    ? { path, grade: 'complete', text: graded.find((verdict) => verdict.missing.length === 0)!.text }
    : {
        path,
        grade: 'partial',
        text: graded[0]!.text,
        fix: `add ${graded[0]!.missing.join(', ')} to the ${graded[0]!.type} JSON-LD`,
      }
}

/** A pricing page's standalone Offers (no Product around them), graded on their prices alone. */
function judgeOffers(path: string, offers: Record<string, unknown>[], paidOfferExists: boolean): PageVerdict {
  const { priceText, missing } = gradeOffers(offers, paidOfferExists)
  const label = `${offers.length} Offer(s)${priceText}`
  if (missing.length === 0) return { path, grade: 'complete', text: label }
  return {
    path,
    grade: 'partial',
    text: `${label} without ${missing.join(', ')}`,
    fix: `add ${missing.join(', ')} to the Offer JSON-LD`,
  }
}

/**
 * What a product's offers lack: a price (0 counts when a paid offer exists on the site, so a free plan beside paid
 * ones is complete), an ISO 4217 currency and availability; and the best priced offer as text.
 */
function gradeOffers(
  offers: Record<string, unknown>[],
  paidOfferExists: boolean,
): { priceText: string; missing: string[] } {
  const missing: string[] = []
  const summaries = offers.map(summariseOffer)
  const acceptable = (price: number | null) => price !== null && (price > 0 || paidOfferExists)
  const priced =
    summaries.find((offer) => offer.price !== null && offer.price > 0 && offer.currencyValid) ??
    summaries.find((offer) => acceptable(offer.price) && offer.currencyValid)
  if (offers.length === 0) missing.push('offers')
  else if (!summaries.some((offer) => acceptable(offer.price))) missing.push('a price above 0')
  else if (!priced) {
    const currency = summaries.find((offer) => offer.currency)?.currency
    missing.push(currency ? `an ISO 4217 priceCurrency (found "${currency}")` : 'priceCurrency')
  }
  if (offers.length > 0 && !summaries.some((offer) => offer.availability)) missing.push('availability')
  const priceText = priced
    ? `, ${priced.price} ${priced.currency}${priced.availability ? `, ${priced.availability}` : ''}`
    : ''
  return { priceText, missing }
}

function gradeProduct(
  product: Record<string, unknown>,
  paidOfferExists: boolean,
): { type: string; text: string; missing: string[] } {
  const type = typesOf(product)[0] ?? 'Product'
  const name = typeof product.name === 'string' ? product.name.trim() : ''
  const missing: string[] = []
  if (!name) missing.push('name')
  if (
    product.image === undefined ||
    product.image === '' ||
    (Array.isArray(product.image) && product.image.length === 0)
  )
    missing.push('image')
  // A ProductGroup's offers usually sit on its variants.
  const offers = [product, ...records(product.hasVariant)].flatMap((item) =>
    records(item.offers).flatMap((offer) => [offer, ...records(offer.offers)]),
  )
  const graded = gradeOffers(offers, paidOfferExists)
  missing.push(...graded.missing)
  const label = `${type}${name ? ` "${name.slice(0, 40)}"` : ''}${graded.priceText}`
  return { type, text: missing.length === 0 ? label : `${label} without ${missing.join(', ')}`, missing }
}
