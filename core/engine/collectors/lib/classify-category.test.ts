import { describe, expect, test } from 'bun:test'
import { type CategorySignals, classifyCategory } from './classify-category.ts'

const signals = (overrides: Partial<CategorySignals>): CategorySignals => ({
  title: '',
  description: '',
  jsonLdTypes: [],
  jsonLdText: '',
  headings: '',
  bodyText: '',
  ...overrides,
})

describe('classifyCategory', () => {
  test.each([
    [
      'payments company (the phrase beats a generic "infrastructure")',
      'payments-fintech',
      signals({
        title: 'Stripe | Financial Infrastructure to Grow Your Revenue',
        description:
          'Stripe is a financial services platform that helps businesses accept payments and manage billing.',
      }),
    ],
    ['online shop by title', 'ecommerce-retail', signals({ title: 'Acme Online Store - Free Shipping on Anvils' })],
    ['store by JSON-LD types alone', 'ecommerce-retail', signals({ jsonLdTypes: ['OnlineStore', 'Product'] })],
    ['hotel by JSON-LD type alone', 'travel-hospitality', signals({ jsonLdTypes: ['Hotel'] })],
    [
      'news site by description and headings',
      'media-publishing',
      signals({
        title: 'The Daily Planet',
        description: 'Breaking news, politics and opinion.',
        headings: 'Latest news\nHeadlines',
      }),
    ],
    [
      'developer tool by title and headings',
      'developer-tools',
      signals({ title: 'Forge - The developer platform', headings: 'Ship with our CLI and SDKs\nOpen source' }),
    ],
    [
      'AI lab',
      'ai-ml',
      signals({ title: 'Acme AI', description: 'Large language models and generative AI for everyone.' }),
    ],
    ['university', 'education', signals({ title: 'Springfield University', jsonLdTypes: ['CollegeOrUniversity'] })],
    ['clinic', 'health-wellness', signals({ description: 'Book a doctor at our telehealth clinic.' })],
    ['job board', 'jobs-hr', signals({ title: 'RemoteWork - Remote jobs from top employers' })],
    ['real estate', 'real-estate', signals({ title: 'Homes for sale and apartments for rent' })],
    ['games', 'gaming-entertainment', signals({ title: 'Play multiplayer games online', jsonLdTypes: ['VideoGame'] })],
    ['security', 'security-identity', signals({ description: 'Zero trust access management and single sign-on.' })],
    ['hosting', 'cloud-infrastructure', signals({ title: 'Fast web hosting and a global CDN' })],
    ['marketing', 'marketing-analytics', signals({ title: 'Email marketing and analytics for growing brands' })],
    [
      'productivity',
      'saas-productivity',
      signals({ title: 'Project management for teams', jsonLdTypes: ['SoftwareApplication'] }),
    ],
  ] as const)('%s -> %s', (_name, expected, input) => {
    const decision = classifyCategory(input)
    expect(decision.category).toBe(expected)
    expect(decision.basis).toStartWith(`${expected} scored`)
  })

  test.each([
    ['an empty page', signals({}), 'no category keywords'],
    [
      'a generic title',
      signals({ title: 'Acme - Welcome', bodyText: 'Hello there. Contact us.' }),
      'no category keywords',
    ],
    ['one weak keyword', signals({ headings: 'Our blog' }), 'no category is clear'],
    ['a tie between two categories', signals({ title: 'Hotels and clinics' }), 'ambiguous'],
  ] as const)('%s -> null', (_name, input, basis) => {
    const decision = classifyCategory(input)
    expect(decision.category).toBeNull()
    expect(decision.basis).toContain(basis)
  })

  test('whole words only: "shop" does not match inside "Shopify" or "workshop"', () => {
    expect(classifyCategory(signals({ title: 'Shopify workshop bookshop' })).category).toBeNull()
  })

  test('plurals match', () => {
    expect(classifyCategory(signals({ title: 'Payments' })).category).toBe('payments-fintech')
  })

  test('body text has a small weight and a cap: a long body alone cannot reach the threshold', () => {
    const bodyText = 'news '.repeat(500)
    const decision = classifyCategory(signals({ bodyText }))
    expect(decision.category).toBeNull()
    expect(decision.basis).toContain('scored 3 ')
  })

  test('field weights: one keyword in the title outweighs it in the description and in headings', () => {
    const inTitle = classifyCategory(signals({ title: 'fintech', description: 'kubernetes' }))
    expect(inTitle.category).toBe('payments-fintech')
    const inDescription = classifyCategory(signals({ description: 'fintech', headings: 'kubernetes' }))
    expect(inDescription.category).toBe('payments-fintech')
    const inJsonLd = classifyCategory(signals({ jsonLdText: 'fintech', headings: 'kubernetes' }))
    expect(inJsonLd.category).toBe('payments-fintech')
  })

  test('the basis names the strongest signals', () => {
    const decision = classifyCategory(
      signals({ title: 'Acme Hotel', jsonLdTypes: ['Hotel'], bodyText: 'travel travel' }),
    )
    expect(decision.basis).toContain('title "hotel"')
    expect(decision.basis).toContain('JSON-LD @type Hotel')
    expect(decision.basis).toContain('body text')
  })
})
