import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { Elysia } from 'elysia'
import type { AppHandle } from '../../app/app.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { request, testApp } from '../../tests/helpers.ts'
import { scanReport } from '../../tests/support/scan-report.ts'
import type { ScanRepository } from '../scan/public.ts'
import { discoverPlugin } from './index.ts'

/**
 * A tests/helpers.ts app uses DATABASE_URL when set, a database other test files (and earlier runs) write to as
 * well: every word a query asks for is derived from a random word of this run, so nothing else can match.
 */
const word = `zq${randomUUID()
  .replace(/[^a-f]/g, '')
  .slice(0, 8)}`
const term = (name: string) => `${word}${name}`
const domain = (label: string) => `${label}.${word}.test`

function report(label: string, name: string, score: number, overrides: Partial<ScanReport> = {}): ScanReport {
  return scanReport({ domain: domain(label), name: `${word} ${name}`, score, ...overrides })
}

let handle: AppHandle
let app: { handle(request: Request): Promise<Response> }
let repository: ScanRepository
let nextIp = 0

beforeAll(async () => {
  handle = await testApp({ TRUST_PROXY: 'true' }, { features: ['scan', 'discover', 'ard'] })
  app = new Elysia().use(discoverPlugin(handle.pieces))
  repository = handle.pieces.scans
  const seeds: ScanReport[] = [
    report('kayak', `${term('kayak')} Rentals`, 30, { category: 'travel-hospitality' }),
    report('outfitters', 'Outfitters', 100, { category: 'travel-hospitality' }),
    report('paddle', `${term('paddle')} Shop`, 97, { category: 'ecommerce-retail' }),
    report('twin-a', `${term('twin')} ${term('harbour')}`, 80),
    report('twin-b', `${term('twin')} ${term('harbour')}`, 40),
    ...Array.from({ length: 8 }, (_, index) => report(`filler-${index}`, `Filler ${index}`, 10 + index)),
  ]
  for (const seed of seeds) await repository.insert(seed, { ephemeral: false })
  await repository.insert(report('tunnel', `${term('kayak')} ${term('tunnel')}`, 100), { ephemeral: true })
}, 60_000)
afterAll(() => handle.close())

/** Each call comes from its own forwarded IP, so the open-read limit never interferes. */
async function discover(query: string) {
  nextIp += 1
  const response = await app.handle(
    request(`/api/discover?${query}`, { headers: { 'x-forwarded-for': `10.9.${nextIp >> 8}.${nextIp & 255}` } }),
  )
  return { response, status: response.status, body: await response.json() }
}

const intent = (text: string, extra = '') => `intent=${encodeURIComponent(text)}${extra}`
const domains = (results: { domain: string }[]) => results.map((result) => result.domain)

describe('GET /api/discover', () => {
  test('400 VALIDATION_FAILED with details without an intent', async () => {
    for (const query of ['', 'limit=5', 'intent=', 'intent=%20%20', 'intent=a%00b', `intent=${'x'.repeat(501)}`]) {
      const { status, body } = await discover(query)
      expect(status).toBe(400)
      expect(body).toMatchObject({ code: 'VALIDATION_FAILED', error: 'Invalid request' })
      expect(body.details.issues[0].path).toBe('intent')
    }
  })

  test('an intent of punctuation alone has no word to look for: 200 with no results', async () => {
    for (const text of ['%', '?!', '—']) {
      const { status, body } = await discover(intent(text))
      expect(status).toBe(200)
      expect(body.results).toEqual([])
    }
  })

  test.each(['0', '51', 'ten', '1.5', '-1'])('400 for limit=%s', async (limit) => {
    const { status, body } = await discover(intent(word, `&limit=${limit}`))
    expect(status).toBe(400)
    expect(body.code).toBe('VALIDATION_FAILED')
    expect(body.details.issues[0].path).toBe('limit')
  })

  test('10 results by default with the total of matches, cached 5 minutes', async () => {
    const { response, body } = await discover(intent(word))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(body.intent).toBe(word)
    expect(body.results).toHaveLength(10)
    expect(body.total).toBe(13)
    expect((await discover(intent(word, '&limit=3'))).body.results).toHaveLength(3)
    expect((await discover(intent(word, '&limit=50'))).body.results).toHaveLength(13)
  })

  test('DiscoverResult shape: A+ reads as A, unclassified category, matchScore in 0..1', async () => {
    const { body } = await discover(intent(`${word} ${term('paddle')}`))
    expect(body.results[0]).toEqual({
      domain: domain('paddle'),
      name: `${word} ${term('paddle')} Shop`,
      category: 'ecommerce-retail',
      score: 97,
      grade: 'A',
      tags: ['ecommerce-retail', 'website', 'grade-a'],
      matchScore: expect.any(Number),
    })
    for (const result of body.results) {
      expect(result.matchScore).toBeGreaterThan(0)
      expect(result.matchScore).toBeLessThanOrEqual(1)
    }
    const twin = (await discover(intent(`${word} ${term('twin')}`))).body.results[0]
    expect(twin.category).toBe('unclassified')
  })

  test('relevance leads, readiness breaks ties', async () => {
    // The kayak entry matches the whole intent; the far more agent-ready outfitter only its first word.
    const kayak = (await discover(intent(`${word} ${term('kayak')}`))).body
    expect(domains(kayak.results)[0]).toBe(domain('kayak'))
    expect(kayak.results[0].matchScore).toBeGreaterThan(kayak.results[1].matchScore)
    // Two entries matching alike: the more agent-ready one first.
    const twins = (await discover(intent(`${word} ${term('twin')} ${term('harbour')}`))).body.results
    expect(domains(twins).slice(0, 2)).toEqual([domain('twin-a'), domain('twin-b')])
    expect(twins[0].matchScore).toBe(twins[1].matchScore)
  })

  test('ephemeral results are never found', async () => {
    const { body } = await discover(intent(`${word} ${term('tunnel')}`, '&limit=50'))
    expect(domains(body.results)).not.toContain(domain('tunnel'))
    expect((await discover(intent(`"${word} ${term('kayak')} ${term('tunnel')}"`))).body).toMatchObject({
      results: [],
      total: 0,
    })
  })

  test('answers are cached for 5 minutes in the shared store, per intent and limit', async () => {
    const text = `${word} ${term('lighthouse')}`
    const before = (await discover(intent(text))).body
    expect(before.total).toBe(13)
    await repository.insert(report('lighthouse', `${term('lighthouse')} Tours`, 90), { ephemeral: false })
    // Same intent (whitespace aside) and limit: the cached answer, echoing this request's intent.
    const cached = await discover(intent(`  ${word}   ${term('lighthouse')} `))
    expect(cached.body.total).toBe(13)
    expect(cached.body.intent).toBe(`${word}   ${term('lighthouse')}`)
    expect(domains(cached.body.results)).toEqual(domains(before.results))
    // Another limit is another key: computed afresh, it sees the new entry first.
    const fresh = (await discover(intent(text, '&limit=11'))).body
    expect(fresh.total).toBe(14)
    expect(domains(fresh.results)[0]).toBe(domain('lighthouse'))
  })
})
