import { defineIntent, type FetchedPage } from '../types.ts'
import { answerFrom, completedPages, isHomePage, isLlmsTxt, judgement, readable, topicOf } from '../judging.ts'
import { describePrice } from '../prices.ts'

/** What a price page is about: a page that merely mentions an amount (a news story, a blog post) is not one. */
const TOPIC = /pric|\bplans?\b|\bcosts?\b|billing|subscription/i
/** Prices quoted in an answer: enough to compare plans, not a whole catalogue. */
const ANSWER_PRICES = 6

/**
 * A page that states prices: amounts with a currency (`per seat` alone is not a price), on a page about prices or
 * plans, or a product page whose schema.org Offer gives the price. The home page and llms.txt lead to the prices;
 * they are not where an answer should send a person.
 */
function statesPrices(page: FetchedPage): boolean {
  if (!readable(page) || isHomePage(page) || isLlmsTxt(page) || page.prices.length === 0) return false
  return TOPIC.test(topicOf(page)) || page.prices.some((price) => price.from === 'jsonld')
}

/** Found when a page about prices or plans, or a product page with an Offer, states amounts with a currency. */
export default defineIntent({
  meta: {
    id: 'find-pricing',
    title: 'Find pricing',
    prompt: 'How much does {domain} cost? Find the current prices or plans.',
    layers: ['discovery', 'payments'],
    keywords: ['pricing', 'price', 'prices', 'plans', 'plan', 'cost', 'subscribe', 'billing'],
    // A shop states its prices on product pages: followed when no pricing page turns up.
    fallbackKeywords: ['product', 'shop', 'store', 'collections'],
    paths: ['/pricing'],
    relatedChecks: ['pricing-machine-readable', 'product-offer-jsonld', 'llms-txt', 'content-without-js'],
  },
  judge(_trajectory, evidence) {
    const priced = completedPages(evidence).filter(statesPrices)
    return judgement(
      priced,
      (page) => `Prices are stated at ${page.finalUrl}.`,
      'No page the agent could read states prices with a currency.',
      ([page]) =>
        answerFrom(
          page!,
          `Prices at ${page!.finalUrl}: ${page!.prices.slice(0, ANSWER_PRICES).map(describePrice).join('; ')}.`,
        ),
    )
  },
})
