import { defineIntent } from '../contract.ts'
import { completedPages, stepsOf } from '../judging.ts'

const PRICE = /(\$|€|£|usd|eur|gbp)\s?\d|\d+(\.\d{2})?\s?(\$|€|£|usd|eur)|\bfree\b.*\bplan\b|\bper (month|year|seat|user)\b|\/\s?(mo|month|yr|year)\b/i

/** Found when a page the agent read states prices (amounts with a currency, or plans per month or seat). */
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
    const priced = completedPages(evidence).filter((page) => PRICE.test(`${page.title} ${page.text}`) && /pric|plan|cost|billing/i.test(`${page.url} ${page.title} ${page.headings.join(' ')}`))
    return priced.length > 0
      ? { satisfied: true, reason: `Prices are stated at ${priced[0]!.finalUrl}.`, evidence: stepsOf(priced) }
      : { satisfied: false, reason: 'No page the agent could read states prices or plans.', evidence: [] }
  },
})
