// The pricing page shows prices in server-rendered HTML and states them in structured form (Offer /
// PriceSpecification JSON-LD, or a pricing section in llms.txt). Spec: https://schema.org/Offer
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { extractJsonLd, nodesOfType, records, summariseOffer } from '../../core/engine/lib/jsonld.ts'
import { commerceGate, findPrices, mentionsContactSales, visibleText } from '../lib/payments.ts'
import { type HtmlPage, type HttpSnapshot, isOk, looksLikeHtml } from '../../core/engine/snapshot.ts'

const OFFER_TYPES = new Set(['Offer', 'AggregateOffer', 'PriceSpecification', 'UnitPriceSpecification', 'CompoundPriceSpecification'])

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
      'Render prices in the pricing page HTML and describe each plan as an Offer (price, priceCurrency) in JSON-LD, or add a "## Pricing" section to llms.txt.',
    needs: ['commerceSignals', 'pricingPage', 'llmsTxt'],
    siteTypeRole: 'pricing',
  },
  run({ commerceSignals, pricingPage, llmsTxt }) {
    const gate = commerceGate(commerceSignals)
    if (gate) return gate
    const llmsPricing = pricingInLlmsTxt(llmsTxt)

    if (!pricingPage) {
      if (llmsPricing) {
        return warn(
          `No pricing page was found; pricing appears only in llms.txt (${llmsPricing})`,
          'Publish a /pricing page with the prices in its HTML and Offer JSON-LD, and link it from the homepage.',
        )
      }
      if (commerceSignals.productUrls.length > 0) {
        return na('A store with product pages but no pricing page: its prices are assessed per product by product-offer-jsonld')
      }
      return fail(
        `The site shows commerce signals (${commerceSignals.reasons.slice(0, 2).join('; ') || 'detected'}) but no pricing page was found (/pricing, /plans, a "Pricing" link or an llms.txt pricing link)`,
        'Publish a /pricing page with prices in its HTML and Offer JSON-LD, link it from the homepage as "Pricing", and list it in llms.txt.',
      )
    }
    const url = pricingPage.url
    if (!isOk(pricingPage)) {
      return fail(`The pricing page ${url} answered ${pricingPage.status}`, `Make ${url} answer 200 with the prices in its HTML.`)
    }

    const text = visibleText(pricingPage.$)
    const prices = findPrices(text)
    const structured = structuredPrices(pricingPage)
    const sources = [...(structured.length > 0 ? [`JSON-LD offers (${structured.slice(0, 3).join(', ')})`] : []), ...(llmsPricing ? [`llms.txt (${llmsPricing})`] : [])]
    const offerHint = `Describe each plan on ${url} as JSON-LD, e.g. {"@type":"Offer","name":"Pro","price":"29","priceCurrency":"USD"}, or add a "## Pricing" section to /llms.txt.`

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
  const offers = [...nodesOfType(nodes, OFFER_TYPES).map((node) => node.value), ...nodes.flatMap((node) => records(node.value.offers))]
  const stated = offers.map(summariseOffer).filter((offer) => offer.price !== null)
  return [...new Set(stated.map((offer) => `${offer.price}${offer.currency ? ` ${offer.currency}` : ''}`))]
}

/** A pricing heading, or a link to a pricing page, in a real (non-HTML) llms.txt; the matched line, or null. */
function pricingInLlmsTxt(llmsTxt: HttpSnapshot): string | null {
  if (!isOk(llmsTxt) || looksLikeHtml(llmsTxt.body)) return null
  const line = llmsTxt.body
    .split(/\r?\n/)
    .find((candidate) => /^#{1,6}\s.*\b(?:pricing|plans|prices)\b/i.test(candidate) || /\[[^\]]*\bpricing\b[^\]]*\]\([^)]+\)/i.test(candidate))
  return line ? line.trim().slice(0, 80) : null
}
