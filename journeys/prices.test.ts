import { describe, expect, test } from 'bun:test'
import { describePrice, offersIn, pricesIn, statedPeriod } from './prices.ts'

const read = (text: string) => pricesIn(text, 'text').map(describePrice)

describe('prices as pages state them', () => {
  test.each([
    ['Pro plan: $20 per month', ['Pro plan: 20 USD per month']],
    ['Team: $9 per user per month. Business: $15/mo', ['Team: 9 USD per user per month', 'Business: 15 USD per month']],
    ['Only 49 € per year, or USD 1,200 billed once', ['49 EUR per year', '1200 USD']],
    ['Abo: 9,99 € monatlich', ['Abo: 9.99 EUR']],
    ['£5 a month', ['5 GBP per month']],
    // The `$` opens the price, not a currency after the SKU's number.
    ['Trail pack RL-BP-28 $89.00', ['Trail pack RL-BP-28: 89.00 USD']],
  ])('%p', (text, expected) => {
    expect(read(text)).toEqual(expected)
  })

  test('"per seat" with no amount, bare numbers and a flood of digits state no price', () => {
    expect(read('Simple pricing: pay per seat, billed monthly.')).toEqual([])
    expect(read('Over 10,000 teams and 250 integrations.')).toEqual([])
    expect(read('9'.repeat(40_000))).toEqual([])
  })

  test('a table header or caption states the period of its prices', () => {
    expect(statedPeriod('Plans, billed monthly')).toBe('month')
    expect(statedPeriod('Plan | Price per year')).toBe('year')
    expect(statedPeriod('Plan | Price')).toBeNull()
  })

  test('schema.org Offers, however nested, with the name of what they price', () => {
    const itemList = {
      '@type': 'ItemList',
      itemListElement: [
        {
          '@type': 'Product',
          name: 'Trail Runner',
          offers: { '@type': 'Offer', price: '189.00', priceCurrency: 'USD' },
        },
        {
          '@type': 'Product',
          name: 'Road Racer',
          offers: { '@type': 'AggregateOffer', lowPrice: 229, priceCurrency: 'usd' },
        },
        { '@type': 'Product', name: 'No price', offers: { '@type': 'Offer', price: '10' } },
      ],
    }
    expect(offersIn(itemList).map(describePrice)).toEqual(['Trail Runner: 189.00 USD', 'Road Racer: 229 USD'])
  })
})
