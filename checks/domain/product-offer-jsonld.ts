// Sampled product pages carry schema.org Product JSON-LD with name, image and an Offer (price > 0, ISO 4217
// currency, availability). Spec: https://developers.google.com/search/docs/appearance/structured-data/merchant-listing
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { extractJsonLd, inlineSchemaTypes, nodesOfType, records, summariseOffer, typesOf } from '../../core/engine/lib/jsonld.ts'
import { commerceGate } from '../lib/payments.ts'
import { type HtmlPage, isOk } from '../../core/engine/snapshot.ts'

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
    needs: ['commerceSignals', 'productPages'],
    siteTypeRole: 'product-listing',
  },
  run({ commerceSignals, productPages }) {
    const gate = commerceGate(commerceSignals)
    if (gate) return gate
    const fetched = productPages.pages
    const pages = fetched.filter(isOk)
    const fromHomepage = productPages.source === 'homepage'
    const verdicts = pages.map(judgePage)
    if (fromHomepage && verdicts.every((verdict) => verdict.grade === 'none')) {
      return na('No product pages were found (no product URLs in the sitemap or homepage links), and the homepage has no Product markup to assess')
    }
    if (pages.length === 0) {
      return fail(
        `The sampled product pages did not answer 2xx: ${fetched.map((page) => `${page.url} (${page.status})`).join(', ')}`,
        'Make product pages answer 200 with their content and Product JSON-LD, and keep the sitemap free of dead product URLs.',
      )
    }
    const where = fromHomepage ? 'the homepage (no product page found)' : `${pages.length} sampled product page(s)`
    const skipped = [
      ...fetched.filter((page) => !isOk(page)).map((page) => `${new URL(page.url).pathname} answered ${page.status}`),
      ...(productPages.errors ?? []).map((error) => `${error.url} failed (${error.error})`),
    ]
    const details = `${where}: ${verdicts.map((verdict) => `${verdict.path}: ${verdict.text}`).join('; ')}${skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : ''}`
    const fixes = verdicts.flatMap((verdict) => (verdict.fix ? [`${verdict.path}: ${verdict.fix}`] : []))
    if (verdicts.every((verdict) => verdict.grade === 'complete')) return pass(details, { occurrences: pages.length })
    if (verdicts.every((verdict) => verdict.grade === 'none')) return fail(details, `${fixes.join('; ')}.`, { occurrences: pages.length })
    return warn(details, `${fixes.join('; ')}.`, { occurrences: pages.length })
  },
})

function judgePage(page: HtmlPage): PageVerdict {
  const path = new URL(page.url).pathname
  const products = nodesOfType(extractJsonLd(page.$).nodes, PRODUCT_TYPES)
  if (products.length === 0) {
    const microdata = inlineSchemaTypes(page.$).microdata.filter((type) => PRODUCT_TYPES.has(type) || type === 'Offer')
    if (microdata.length > 0) {
      return { path, grade: 'microdata', text: `Product only in microdata (${microdata.join(', ')})`, fix: 'publish the Product and its Offer as JSON-LD as well' }
    }
    return { path, grade: 'none', text: 'no Product markup', fix: 'add Product JSON-LD with name, image and offers (price, priceCurrency, availability)' }
  }
  const graded = products.map((product) => gradeProduct(product.value))
  return graded.find((verdict) => verdict.missing.length === 0)
    ? { path, grade: 'complete', text: graded.find((verdict) => verdict.missing.length === 0)!.text }
    : { path, grade: 'partial', text: graded[0]!.text, fix: `add ${graded[0]!.missing.join(', ')} to the ${graded[0]!.type} JSON-LD` }
}

function gradeProduct(product: Record<string, unknown>): { type: string; text: string; missing: string[] } {
  const type = typesOf(product)[0] ?? 'Product'
  const name = typeof product.name === 'string' ? product.name.trim() : ''
  const missing: string[] = []
  if (!name) missing.push('name')
  if (product.image === undefined || product.image === '' || (Array.isArray(product.image) && product.image.length === 0)) missing.push('image')
  // A ProductGroup's offers usually sit on its variants.
  const offers = [product, ...records(product.hasVariant)].flatMap((item) =>
    records(item.offers).flatMap((offer) => [offer, ...records(offer.offers)]),
  )
  const summaries = offers.map(summariseOffer)
  const priced = summaries.find((offer) => offer.price !== null && offer.price > 0 && offer.currencyValid)
  if (offers.length === 0) missing.push('offers')
  else if (!summaries.some((offer) => offer.price !== null && offer.price > 0)) missing.push('a price above 0')
  else if (!priced) {
    const currency = summaries.find((offer) => offer.currency)?.currency
    missing.push(currency ? `an ISO 4217 priceCurrency (found "${currency}")` : 'priceCurrency')
  }
  if (offers.length > 0 && !summaries.some((offer) => offer.availability)) missing.push('availability')
  const priceText = priced ? `, ${priced.price} ${priced.currency}${priced.availability ? `, ${priced.availability}` : ''}` : ''
  const label = `${type}${name ? ` "${name.slice(0, 40)}"` : ''}${priceText}`
  return { type, text: missing.length === 0 ? label : `${label} without ${missing.join(', ')}`, missing }
}
