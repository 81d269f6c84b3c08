import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import type { AppHandle } from '../app/app.ts'
import { identifySite } from '../core/engine/collectors/site-identity.ts'
import { describeSite, profileText } from '../core/engine/collectors/site-profile.ts'
import { discoverPlugin } from '../plugins/discover/index.ts'
import { PRODUCTS } from './fixtures/discover/products.ts'
import { isolatedTestApp, request } from './helpers.ts'
import { htmlPage, snapshot } from './support/artifacts.ts'
import { scanReport } from './support/scan-report.ts'

/**
 * Discover understands intent: agents' needs in their own words, against fixture products indexed from their
 * homepages and llms.txt exactly as a scan records them (site identity, category and profile). Runs on PGlite, and
 * on PostgreSQL when DATABASE_URL is set (a database of its own, so the table sees only these products).
 */

let handle: AppHandle
let app: { handle(request: Request): Promise<Response> }
let nextIp = 0

beforeAll(async () => {
  handle = await isolatedTestApp({ TRUST_PROXY: 'true' }, { features: ['scan', 'discover', 'ard'] })
  app = new Elysia().use(discoverPlugin(handle.pieces))
  for (const product of PRODUCTS) {
    const homepage = htmlPage(product.html, { url: `https://${product.domain}/` })
    const llmsTxt = product.llmsTxt
      ? snapshot({
          url: `https://${product.domain}/llms.txt`,
          headers: { 'content-type': 'text/plain' },
          body: product.llmsTxt,
        })
      : null
    const identity = identifySite(homepage, product.domain)
    const profile = describeSite(homepage, llmsTxt)
    const report = scanReport({
      domain: product.domain,
      score: product.score,
      name: identity.name,
      category: identity.category,
      ...(profile ? { profile } : {}),
    })
    await handle.pieces.scans.insert(report, { ephemeral: false })
  }
}, 60_000)
afterAll(() => handle.close())

async function discover(intent: string, limit = 10) {
  nextIp += 1
  const response = await app.handle(
    request(`/api/discover?intent=${encodeURIComponent(intent)}&limit=${limit}`, {
      headers: { 'x-forwarded-for': `10.77.${nextIp >> 8}.${nextIp & 255}` },
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as { results: { domain: string; matchScore: number; score: number }[]; total: number }
}

/** Words of a product's indexed text (name, profile), lower-case: to prove an intent shares none of them. */
function productWords(domain: string): Set<string> {
  const product = PRODUCTS.find((candidate) => candidate.domain === domain)!
  const homepage = htmlPage(product.html)
  const llmsTxt = product.llmsTxt ? snapshot({ body: product.llmsTxt }) : null
  const text = `${identifySite(homepage, domain).name} ${profileText(describeSite(homepage, llmsTxt))} ${homepage.$('body').text()}`
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  )
}

const STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'for',
  'to',
  'of',
  'my',
  'on',
  'in',
  'from',
  'i',
  'need',
  'some',
  'by',
  'me',
  'want',
  'and',
])

/**
 * [intent, the product expected in the top 3, how it must be understood]. `words`: the intent shares words with
 * the product's pages; `synonyms`: it shares none (stopwords aside) and is understood through the synonym groups
 * and the category taxonomy; `typo`: a misspelling understood through trigram similarity.
 */
const INTENTS: [string, string, 'words' | 'synonyms' | 'typo'][] = [
  // The outdoor-clothing store of the issue.
  ['backpacks', 'ridgeline.example', 'words'],
  ['socks', 'ridgeline.example', 'words'],
  ['outdoor gear', 'ridgeline.example', 'words'],
  ['waterproof jacket for hiking', 'ridgeline.example', 'words'],
  ['store', 'ridgeline.example', 'synonyms'],
  ['apparel', 'ridgeline.example', 'synonyms'],
  ['an outfitter', 'ridgeline.example', 'synonyms'],
  ['rucksack', 'ridgeline.example', 'synonyms'],
  ['coat', 'ridgeline.example', 'synonyms'],
  ['backpaks', 'ridgeline.example', 'typo'],
  ['waterprof jakets', 'ridgeline.example', 'typo'],
  // The others.
  ['buy a laptop', 'voltbay.example', 'words'],
  ['noise cancelling headphones', 'voltbay.example', 'words'],
  ['smartphone', 'voltbay.example', 'words'],
  ['notebook computer', 'voltbay.example', 'synonyms'],
  ['book a hotel room by the sea', 'harborview.example', 'words'],
  ['lodging', 'harborview.example', 'synonyms'],
  ['send invoices and get paid', 'ledgerly.example', 'words'],
  ['accept credit card payments', 'ledgerly.example', 'words'],
  ['kanban board for my team', 'tasklane.example', 'words'],
  ['projct managment', 'tasklane.example', 'typo'],
  ['continuous integration pipelines', 'codeforge.example', 'words'],
  ['learn python online', 'brightpath.example', 'words'],
  ['tutorial', 'brightpath.example', 'synonyms'],
  ['see a doctor', 'carenow.example', 'synonyms'],
  ['telehealth', 'carenow.example', 'words'],
  ['apartment to rent', 'homenest.example', 'words'],
  ['flat', 'homenest.example', 'synonyms'],
  ['remote jobs', 'talenthub.example', 'words'],
  ['vacancy', 'talenthub.example', 'synonyms'],
  ['multiplayer games', 'pixelarena.example', 'words'],
  ['headline', 'dailyledger.example', 'synonyms'],
  ['breaking news', 'dailyledger.example', 'words'],
]

describe('discover understands intent', () => {
  test('the fixtures are indexed with their categories', async () => {
    const categories = Object.fromEntries(
      PRODUCTS.map((product) => [product.domain, identifySite(htmlPage(product.html), product.domain).category]),
    )
    expect(categories).toMatchObject({
      'ridgeline.example': 'ecommerce-retail',
      'voltbay.example': 'ecommerce-retail',
      'harborview.example': 'travel-hospitality',
      'ledgerly.example': 'payments-fintech',
      'tasklane.example': 'saas-productivity',
      'codeforge.example': 'developer-tools',
      'brightpath.example': 'education',
      'carenow.example': 'health-wellness',
      'homenest.example': 'real-estate',
      'talenthub.example': 'jobs-hr',
      'pixelarena.example': 'gaming-entertainment',
      'dailyledger.example': 'media-publishing',
    })
  })

  test.each(INTENTS)('%p finds %s in the top 3 (%s)', async (intent, expected, how) => {
    if (how !== 'words') {
      // The point of these rows: nothing of the intent is on the product's pages.
      const words = productWords(expected)
      const shared = intent
        .toLowerCase()
        .split(/\s+/)
        .filter((word) => !STOPWORDS.has(word) && words.has(word))
      expect(shared).toEqual([])
    }
    const { results } = await discover(intent)
    expect(results.slice(0, 3).map((result) => result.domain)).toContain(expected)
  })

  test('the issue: the outdoor-clothing store is found for what it sells, and among the stores for "store"', async () => {
    for (const intent of ['backpacks', 'socks', 'outdoor gear'])
      expect((await discover(intent)).results[0]!.domain).toBe('ridgeline.example')
    // The electronics shop says "shop" (a synonym); the outdoor one is a store by its category only.
    const stores = await discover('store')
    expect(
      stores.results
        .map((result) => result.domain)
        .slice(0, 2)
        .sort(),
    ).toEqual(['ridgeline.example', 'voltbay.example'])
  })

  test('relevance leads readiness: the product meeting the whole need first, a category-only match below', async () => {
    // Both stores are in the category; only the outdoor one has the words. Voltbay is far more agent-ready.
    const { results } = await discover('store for hiking socks')
    expect(results[0]!.domain).toBe('ridgeline.example')
    const volt = results.find((result) => result.domain === 'voltbay.example')!
    expect(volt.matchScore).toBeLessThan(results[0]!.matchScore)
  })

  test('a need far from every product finds nothing', async () => {
    expect(await discover('quantum chromodynamics')).toMatchObject({ results: [], total: 0 })
  })

  test('matchScore stays in 0..1 and the order is matchScore x readiness', async () => {
    for (const intent of ['store', 'backpaks', 'book a hotel room', 'learn python online']) {
      const { results } = await discover(intent)
      const ranks = results.map((result) => result.matchScore * (0.6 + (0.4 * result.score) / 100))
      for (const result of results) {
        expect(result.matchScore).toBeGreaterThan(0)
        expect(result.matchScore).toBeLessThanOrEqual(1)
      }
      // Allow for matchScore's rounding to 4 decimals.
      for (let index = 1; index < ranks.length; index++)
        expect(ranks[index]!).toBeLessThanOrEqual(ranks[index - 1]! + 1e-3)
    }
  })
})
