import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import type { AppHandle } from '../app/app.ts'
import type { CheckStatus } from '../core/engine/check.ts'
import { CATEGORY_SLUGS } from '../core/engine/lib/categories.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { leaderboardPlugin } from '../plugins/leaderboard/index.ts'
import { isolatedTestApp, request } from './helpers.ts'
import { checkResult, discoveryLayer, scanReport } from './support/scan-report.ts'

type Seed = Partial<ScanReport> & Pick<ScanReport, 'domain' | 'score'> & { checks?: [string, CheckStatus][] }

function report({ checks = [], ...overrides }: Seed): ScanReport {
  return scanReport({
    name: `Name of ${overrides.domain}`,
    layers: [discoveryLayer(checks.map(([id, status]) => checkResult(id, status)))],
    ...overrides,
  })
}

let isolated: AppHandle
let app: { handle(request: Request): Promise<Response> }
const get = async (path: string) => {
  const response = await app.handle(request(path))
  return { response, body: await response.json() }
}

beforeAll(async () => {
  // Rankings and statistics read every stored scan, so exact totals need a database nobody else writes to.
  isolated = await isolatedTestApp({}, { features: ['scan', 'leaderboard'] })
  app = new Elysia().use(leaderboardPlugin(isolated.pieces))
  const repository = isolated.pieces.scans
  const seeds: [Seed, { ephemeral: boolean }?][] = [
    [
      {
        domain: 'shop-a.test',
        score: 91,
        category: 'ecommerce-retail',
        checks: [
          ['llms-txt', 'pass'],
          ['robots-txt', 'pass'],
        ],
      },
    ],
    [
      {
        domain: 'shop-b.test',
        score: 72,
        category: 'ecommerce-retail',
        checks: [
          ['llms-txt', 'fail'],
          ['robots-txt', 'pass'],
        ],
      },
    ],
    [
      {
        domain: 'dev-a.test',
        score: 72,
        category: 'developer-tools',
        checks: [
          ['llms-txt', 'warning'],
          ['robots-txt', 'na'],
        ],
      },
    ],
    [
      {
        domain: 'mcp-a.test',
        score: 55,
        category: 'developer-tools',
        urlKind: 'mcp',
        checks: [
          ['mcp-tools', 'pass'],
          ['mcp-tools', 'fail'],
        ],
      },
    ],
    [{ domain: 'app-a.test', score: 30, category: null, urlKind: 'mcp-app', checks: [['mcp-tools', 'error']] }],
    [{ domain: 'plain.test', score: 10, category: null, checks: [['llms-txt', 'fail']] }],
    // Older and newer scans: only the latest complete one of a domain counts.
    [
      {
        domain: 'old.test',
        score: 99,
        category: 'ai-ml',
        scannedAt: '2025-01-01T00:00:00.000Z',
        checks: [['llms-txt', 'pass']],
      },
    ],
    [
      {
        domain: 'old.test',
        score: 40,
        category: 'ai-ml',
        scannedAt: '2025-05-01T00:00:00.000Z',
        checks: [['llms-txt', 'fail']],
      },
    ],
    [
      {
        domain: 'old.test',
        score: 100,
        category: 'ai-ml',
        scannedAt: '2025-05-02T00:00:00.000Z',
        analysisStatus: 'partial',
      },
    ],
    // Never ranked or counted: ephemeral results and partial-only domains.
    [
      { domain: 'tunnel.test', score: 100, category: 'ecommerce-retail', checks: [['llms-txt', 'pass']] },
      { ephemeral: true },
    ],
    [{ domain: 'partial.test', score: 98, category: 'ecommerce-retail', analysisStatus: 'partial' }],
  ]
  for (const [seed, options] of seeds) await repository.insert(report(seed), options ?? { ephemeral: false })
  await repository.insertAuthMarker({
    domain: 'locked.test',
    url: 'https://locked.test/mcp',
    mcpUrl: 'https://locked.test/mcp',
    urlKind: 'mcp',
    ephemeral: false,
  })
})
afterAll(() => isolated.close())

const RANKED = ['shop-a.test', 'dev-a.test', 'shop-b.test', 'mcp-a.test', 'old.test', 'app-a.test', 'plain.test']

describe('GET /api/leaderboard', () => {
  test('ranks the latest complete scan of every domain; ephemeral, partial-only and auth markers are left out', async () => {
    const { response, body } = await get('/api/leaderboard')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(body).toMatchObject({ total: 7, page: 1, pageSize: 20, nextPage: null, category: null, kind: null })
    expect(body.items.map((item: { domain: string }) => item.domain)).toEqual(RANKED)
    expect(body.items.map((item: { rank: number }) => item.rank)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(body.items[0]).toEqual({
      rank: 1,
      domain: 'shop-a.test',
      name: 'Name of shop-a.test',
      category: 'ecommerce-retail',
      score: 91,
      grade: 'A',
      urlKind: 'domain',
      scannedAt: '2025-06-01T12:00:00.000Z',
      target: 'shop-a.test',
      report: '/site/shop-a.test',
    })
    expect(body.items.find((item: { domain: string }) => item.domain === 'old.test')).toMatchObject({
      score: 40,
      grade: 'D',
    })
  })

  test('pages keep global ranks', async () => {
    const first = (await get('/api/leaderboard?pageSize=3')).body
    expect(first.items.map((item: { rank: number }) => item.rank)).toEqual([1, 2, 3])
    expect(first.nextPage).toBe(2)
    const third = (await get('/api/leaderboard?pageSize=3&page=3')).body
    expect(third).toMatchObject({ total: 7, page: 3, pageSize: 3, nextPage: null })
    expect(third.items.map((item: { rank: number; domain: string }) => [item.rank, item.domain])).toEqual([
      [7, 'plain.test'],
    ])
    const beyond = (await get('/api/leaderboard?pageSize=3&page=9')).body
    expect(beyond).toMatchObject({ items: [], total: 7, nextPage: null })
  })

  test('category and kind filters rank within the filtered rows', async () => {
    const byCategory = (await get('/api/leaderboard?category=developer-tools')).body
    expect(byCategory.category).toBe('developer-tools')
    expect(byCategory.items.map((item: { rank: number; domain: string }) => [item.rank, item.domain])).toEqual([
      [1, 'dev-a.test'],
      [2, 'mcp-a.test'],
    ])
    const byKind = (await get('/api/leaderboard?kind=mcp-app')).body
    expect(byKind).toMatchObject({ total: 1, kind: 'mcp-app' })
    expect(byKind.items[0]).toMatchObject({ rank: 1, domain: 'app-a.test', category: null, urlKind: 'mcp-app' })
    const both = (await get('/api/leaderboard?category=developer-tools&kind=mcp')).body
    expect(both.items.map((item: { domain: string }) => item.domain)).toEqual(['mcp-a.test'])
    const empty = (await get('/api/leaderboard?category=real-estate')).body
    expect(empty).toMatchObject({ items: [], total: 0, nextPage: null })
  })

  test('a category whose domain moved away in its latest scan no longer lists it', async () => {
    const body = (await get('/api/leaderboard?category=ai-ml')).body
    expect(body.items.map((item: { domain: string; score: number }) => [item.domain, item.score])).toEqual([
      ['old.test', 40],
    ])
  })

  test.each([
    'category=unknown',
    'category=Developer-Tools',
    'kind=ephemeral',
    'kind=website',
    'page=0',
    'page=abc',
    'page=1.5',
    'page=1001',
    'pageSize=0',
    'pageSize=101',
    'pageSize=',
  ])('400 with the error envelope on %s', async (query) => {
    const { response, body } = await get(`/api/leaderboard?${query}`)
    expect(response.status).toBe(400)
    expect(body).toMatchObject({ error: expect.any(String), code: 'VALIDATION_FAILED', details: expect.any(Object) })
  })
})

describe('GET /api/stats', () => {
  test('coverage, grades, average and per-check counts over the published pool', async () => {
    const { response, body } = await get('/api/stats')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(Date.parse(body.generatedAt)).not.toBeNaN()
    expect(body.coverage).toEqual({
      domains: 7,
      byKind: { domain: 5, mcp: 1, 'mcp-app': 1 },
      byCategory: {
        ...Object.fromEntries(CATEGORY_SLUGS.map((slug) => [slug, 0])),
        'ecommerce-retail': 2,
        'developer-tools': 2,
        'ai-ml': 1,
      },
      unclassified: 2,
    })
    expect(body.grades).toEqual({ 'A+': 0, A: 1, B: 2, C: 1, D: 2, F: 1 })
    expect(body.averageScore).toBe(Math.round(((91 + 72 + 72 + 55 + 30 + 10 + 40) / 7) * 10) / 10)
    expect(body.checks).toEqual({
      'llms-txt': { pass: 1, fail: 3, warning: 1, na: 0, error: 0, passRate: 0.2 },
      'robots-txt': { pass: 2, fail: 0, warning: 0, na: 1, error: 0, passRate: 1 },
      'mcp-tools': { pass: 1, fail: 1, warning: 0, na: 0, error: 1, passRate: 0.5 },
    })
  })
})

describe('an empty database', () => {
  let empty: AppHandle
  let emptyApp: { handle(request: Request): Promise<Response> }
  beforeAll(async () => {
    empty = await isolatedTestApp({ TRUST_PROXY: 'true' }, { features: ['scan', 'leaderboard'] })
    emptyApp = new Elysia().use(leaderboardPlugin(empty.pieces))
  })
  afterAll(() => empty.close())

  test('stats of an empty pool', async () => {
    const body = await (await emptyApp.handle(request('/api/stats'))).json()
    expect(body).toMatchObject({
      coverage: { domains: 0, byKind: { domain: 0, mcp: 0, 'mcp-app': 0 }, unclassified: 0 },
      grades: { 'A+': 0, A: 0, B: 0, C: 0, D: 0, F: 0 },
      averageScore: null,
      checks: {},
    })
    expect((await (await emptyApp.handle(request('/api/leaderboard'))).json()).items).toEqual([])
  })

  test('the leaderboard and stats share the 60 per minute open-read limit: 429 with Retry-After', async () => {
    const headers = { 'x-forwarded-for': '192.0.2.91' }
    for (let i = 0; i < 60; i++) {
      const path = i % 2 === 0 ? '/api/leaderboard' : '/api/stats'
      expect((await emptyApp.handle(request(path, { headers }))).status).toBe(200)
    }
    const denied = await emptyApp.handle(request('/api/leaderboard', { headers }))
    expect(denied.status).toBe(429)
    expect(Number(denied.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await denied.json()).toMatchObject({ error: expect.any(String), code: 'RATE_LIMIT_EXCEEDED' })
  })
})
