import { defineIntent } from '../contract.ts'
import { completedPages, judgement, readable, topicOf } from '../judging.ts'

/** An amount with a currency, or a plan price per period. */
const PRICE = /(\$|€|£|\b(usd|eur|gbp)\b)\s?\d|\d+([.,]\d{2})?\s?(\$|€|£|\b(usd|eur|gbp)\b)|\bper (month|year|seat|user)\b|\/\s?(mo|month|yr|year)\b/i
/** What a price page is about: a page that merely mentions an amount (a news story, a blog post) is not one. */
const TOPIC = /pric|\bplans?\b|\bcosts?\b|billing|subscription/i

/** Found when a page about prices or plans states prices (amounts with a currency, or plans per month or seat). */
export default defineIntent({
  meta: {
    id: 'find-pricing',
    title: 'Find pricing',
    prompt: 'How much does {domain} cost? Find the current prices or plans.',
    layers: ['discovery', 'payments'],
    keywords: ['pricing', 'price', 'prices', 'plans', 'plan', 'cost', 'subscribe', 'billing'],
    paths: ['/pricing'],
  },
  judge(_trajectory, evidence) {
    const priced = completedPages(evidence).filter((page) => readable(page) && TOPIC.test(topicOf(page)) && PRICE.test(`${page.title} ${page.text}`))
    return judgement(priced, (page) => `Prices are stated at ${page.finalUrl}.`, 'No page the agent could read states prices or plans.')
  },
})
