// The pricing page shows prices in server-rendered HTML and states them in structured form (Offer /
// PriceSpecification JSON-LD, or prices written in llms.txt). Only a stated price counts, an amount with a currency
// or an explicit free plan: a "Pricing" heading or a link to a pricing page is no price. Spec: https://schema.org/Offer
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { extractJsonLd, nodesOfType, records, summariseOffer } from '../../core/engine/lib/jsonld.ts'
import { commerceGate, findPrices, mentionsContactSales, statesFreePlan, visibleText } from '../lib/payments.ts'
import { type HtmlPage, type HttpSnapshot, isOk, looksLikeHtml } from '../../core/engine/snapshot.ts'

const OFFER_TYPES = new Set([
  'Offer',
  'AggregateOffer',
  'PriceSpecification',
  'UnitPriceSpecification',
  'CompoundPriceSpecification',
])

export default defineCheck({
  meta: {
    id: 'pricing-machine-readable',
    name: 'Machine-readable pricing',
    description:
      'Agents asked "how much is it?" need prices in the page HTML and, ideally, as Offer data; prices drawn by JavaScript or hidden behind "contact sales" are invisible to them.',
    layer: 'payments',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 5,
    specUrl: 'https://schema.org/Offer',
    recommendation:
      'Render prices in the pricing page HTML and describe each plan as an Offer (price, priceCurrency) in JSON-LD, or state the prices (amount and currency) in a "## Pricing" section of llms.txt.',
    needs: ['commerceSignals', 'pricingPage', 'llmsTxt'],
    siteTypeRole: 'pricing',
  },
  run({ commerceSignals, pricingPage, llmsTxt }) {
    const gate = commerceGate(commerceSignals)
    if (gate) return gate
    const llmsPricing = pricesInLlmsTxt(llmsTxt)

    if (!pricingPage) {
      if (llmsPricing) {
        return warn(
          `No pricing page was found; prices appear only in llms.txt (${llmsPricing})`,
          'Publish a /pricing page with the prices in its HTML and Offer JSON-LD, and link it from the homepage.',
        )
      }
      if (commerceSignals.productUrls.length > 0) {
        return na(
          'A store with product pages but no pricing page: its prices are assessed per product by product-offer-jsonld',
        )
      }
      return fail(
        `The site shows commerce signals (${commerceSignals.reasons.slice(0, 2).join('; ') || 'detected'}) but no pricing page was found (/pricing, /plans, a "Pricing" link or an llms.txt pricing link)`,
        'Publish a /pricing page with prices in its HTML and Offer JSON-LD, link it from the homepage as "Pricing", and list it in llms.txt.',
      )
    }
    const url = pricingPage.url
    if (!isOk(pricingPage)) {
      return fail(
        `The pricing page ${url} answered ${pricingPage.status}`,
        `Make ${url} answer 200 with the prices in its HTML.`,
      )
    }

    const text = visibleText(pricingPage.$)
    const prices = statedPrices(text)
    const structured = structuredPrices(pricingPage)
    const sources = [
      ...(structured.length > 0 ? [`JSON-LD offers (${structured.slice(0, 3).join(', ')})`] : []),
      ...(llmsPricing ? [`llms.txt (${llmsPricing})`] : []),
    ]
    const offerHint = `Describe each plan on ${url} as JSON-LD, e.g. {"@type":"Offer","name":"Pro","price":"29","priceCurrency":"USD"}, or state the prices in a "## Pricing" section of /llms.txt.`

    if (prices.length > 0) {
      const shown = `${url} shows ${prices.slice(0, 4).join(', ')} in its HTML`
      if (sources.length > 0) return pass(`${shown}, and states them in ${sources.join(' and ')}`)
      return warn(`${shown}, but nowhere in structured form`, offerHint)
    }
    if (sources.length > 0) {
      return warn(
        `${url} has no prices in its server-rendered text; they exist only in ${sources.join(' and ')}`,
        `Render the prices in the HTML of ${url} as well, so agents that read the page see them.`,
      )
    }
    if (mentionsContactSales(text)) {
      return warn(
        `${url} offers "contact sales" instead of prices`,
        `Publish at least starting prices on ${url} (e.g. "from $99/month") and as Offer JSON-LD, even when larger plans are quoted.`,
      )
    }
    return fail(
      `No prices in the server-rendered HTML of ${url} (${text.length} characters of text); they are likely drawn by JavaScript`,
      `Render the prices of ${url} on the server and add Offer JSON-LD for each plan.`,
    )
  },
})

/** Prices stated as schema.org offers or price specifications, e.g. "29 USD". */
function structuredPrices(page: HtmlPage): string[] {
  const { nodes } = extractJsonLd(page.$)
  const offers = [
    ...nodesOfType(nodes, OFFER_TYPES).map((node) => node.value),
    ...nodes.flatMap((node) => records(node.value.offers)),
  ]
  const stated = offers.map(summariseOffer).filter((offer) => offer.price !== null)
  return [...new Set(stated.map((offer) => `${offer.price}${offer.currency ? ` ${offer.currency}` : ''}`))]
}

/** Amounts with a currency found in a text, or else "a free plan" when it states one explicitly. */
function statedPrices(text: string): string[] {
  const prices = findPrices(text)
  return prices.length === 0 && statesFreePlan(text) ? ['a free plan'] : prices
}

/**
 * The prices a real (non-HTML) llms.txt states, outside link targets, e.g. "$29, $99"; null when it states none. A
 * "## Pricing" heading or a [Pricing](/pricing) link alone says where prices are, not what they are.
 */
function pricesInLlmsTxt(llmsTxt: HttpSnapshot): string | null {
  if (!isOk(llmsTxt) || looksLikeHtml(llmsTxt.body)) return null
  const prices = statedPrices(llmsTxt.body.replace(/\]\([^)]*\)/g, ']'))
  return prices.length > 0 ? prices.slice(0, 4).join(', ') : null
}
