import { isRecord } from '../core/engine/snapshot.ts'
import type { PriceFact } from './types.ts'

/**
 * Prices as pages state them: an amount next to a currency (`$9.00`, `49 EUR`, `USD 1,200`), read with the period
 * it is charged for when the page says (`per month`, `/yr`, `per seat per month`). "Pay per seat" with no amount
 * is not a price: a judge that wants prices asks for a PriceFact.
 */

const SYMBOLS: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR' }
const CODES = 'USD|EUR|GBP|JPY|CAD|AUD|CHF|INR|SEK|NOK|DKK|NZD|SGD|BRL|MXN'
/** At most twelve digits before the point: pages are hostile input, and an unbounded `\d+` backtracks on a digit flood. */
const NUMBER = String.raw`\d{1,3}(?:,\d{3}){1,4}(?:\.\d{1,2})?|\d{1,12}(?:[.,]\d{1,2})?`
/**
 * Currency first (`$9`, `USD 9`), or the amount first (`9 €`, `9.00 USD`; not `RL-28 $89`, where `$` opens the next
 * amount). An amount-first match starts where a number starts, never inside one.
 */
const AMOUNT = new RegExp(
  String.raw`(?:([$€£¥₹])|\b(${CODES})\s?)(${NUMBER})(?:\s?(${CODES})\b)?|(?<![\d.,])(${NUMBER})\s?(?:([€£$])(?!\s?\d)|(${CODES})\b)`,
  'g',
)
const UNIT = String.raw`(month|mo|year|yr|annum|week|day|hour|seat|user|member|license|licence)`
/** The period right after an amount: `/mo`, `per month`, `a year`, `per user per month`, `monthly`. */
const PERIOD = new RegExp(
  String.raw`^\s*(?:(?:\/|per|a|an|each|every)\s*${UNIT}\b\s*){1,2}|^\s*(monthly|yearly|annually)\b`,
  'i',
)
const UNITS: Record<string, string> = {
  mo: 'month',
  yr: 'year',
  annum: 'year',
  monthly: 'month',
  yearly: 'year',
  annually: 'year',
  licence: 'license',
}
const MAX_FACTS = 20
const MAX_LABEL_WORDS = 6

function unit(word: string): string {
  const lower = word.toLowerCase()
  return UNITS[lower] ?? lower
}

/** The period stated right after an amount, as `month` or `seat per month`. */
function periodAfter(rest: string): string | null {
  const match = PERIOD.exec(rest)
  if (!match) return null
  const words = [...match[0].matchAll(new RegExp(String.raw`${UNIT}|monthly|yearly|annually`, 'gi'))].map((found) =>
    unit(found[0]),
  )
  return words.length > 0 ? words.join(' per ') : null
}

/** The words before an amount in its clause: `Pro plan: $20` gives `Pro plan`. */
function labelBefore(text: string): string {
  const clause = text.split(/[.;!?|]\s|\n/).at(-1) ?? ''
  const words = clause
    .replace(/[:\-–—(\s]+$/, '')
    .replace(/^[\s,]*(or|and|from|only)\b/i, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
  return words.slice(-MAX_LABEL_WORDS).join(' ')
}

/** Every amount with a currency in a piece of text, with its period and the words before it. */
export function pricesIn(
  text: string,
  from: PriceFact['from'],
  defaults: { label?: string; period?: string | null } = {},
): PriceFact[] {
  const facts: PriceFact[] = []
  // A label is read back to the previous amount at most: `$9 or $90 a year` labels the second price `or`.
  let previousEnd = 0
  for (const match of text.matchAll(AMOUNT)) {
    const symbol = match[1] ?? match[6]
    const code = match[2] ?? match[4] ?? match[7]
    const number = match[3] ?? match[5]!
    const currency = code?.toUpperCase() ?? SYMBOLS[symbol!]!
    const after = text.slice(match.index + match[0].length)
    const period = periodAfter(after)
    facts.push({
      label: defaults.label ?? labelBefore(text.slice(previousEnd, match.index)),
      // `1,200` groups thousands; `9,99` is a decimal comma.
      amount: /^\d{1,3}(,\d{3})+/.test(number) ? number.replaceAll(',', '') : number.replace(',', '.'),
      currency,
      period: period ?? defaults.period ?? null,
      from,
    })
    previousEnd = match.index + match[0].length + (period ? (PERIOD.exec(after)?.[0].length ?? 0) : 0)
    if (facts.length >= MAX_FACTS) break
  }
  return facts
}

/** The period a table header or caption states for its prices (`Price per month`, `Monthly plans`). */
export function statedPeriod(text: string): string | null {
  const match = new RegExp(String.raw`\bper\s+${UNIT}\b|\b(monthly|yearly|annually)\b|\/\s?(mo|yr)\b`, 'i').exec(text)
  if (!match) return null
  return unit(match[1] ?? match[2] ?? match[3]!)
}

/**
 * schema.org Offers in a JSON-LD document, however nested (Product.offers, ItemList items, AggregateOffer): the
 * price, its currency and what it is for (the offer's or its product's name).
 */
export function offersIn(node: unknown, found: PriceFact[] = [], owner = ''): PriceFact[] {
  if (found.length >= MAX_FACTS) return found
  if (Array.isArray(node)) {
    for (const item of node) offersIn(item, found, owner)
    return found
  }
  if (!isRecord(node)) return found
  const name = typeof node.name === 'string' ? node.name : owner
  const price = node.price ?? node.lowPrice
  const currency = node.priceCurrency
  if (
    (typeof price === 'string' || typeof price === 'number') &&
    typeof currency === 'string' &&
    /^[A-Za-z]{3}$/.test(currency)
  ) {
    const spec = isRecord(node.priceSpecification) ? node.priceSpecification : null
    const period = spec && typeof spec.unitText === 'string' ? unit(spec.unitText.replace(/^per\s+/i, '')) : null
    found.push({ label: name, amount: String(price), currency: currency.toUpperCase(), period, from: 'jsonld' })
  }
  for (const [key, value] of Object.entries(node))
    if (key !== 'name' && typeof value === 'object') offersIn(value, found, name)
  return found
}

/** One line per price: `Pro: 29.00 USD per month`. */
export function describePrice(fact: PriceFact): string {
  return `${fact.label ? `${fact.label}: ` : ''}${fact.amount} ${fact.currency}${fact.period ? ` per ${fact.period}` : ''}`
}
