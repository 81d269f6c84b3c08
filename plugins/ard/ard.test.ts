import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import type { AppHandle } from '../../core/app.ts'
import type { CheckStatus } from '../../core/engine/contract.ts'
import { type CheckResult, toCheckResult } from '../../core/engine/scoring.ts'
import mcpEndpointAdvertised from '../../checks/domain/mcp-endpoint-advertised.ts'
import { REGISTERED_CHECKS } from '../../checks/index.ts'
import { CATEGORY_SLUGS } from '../../core/engine/lib/categories.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { isolatedTestApp, request } from '../../tests/helpers.ts'
import { checkResult, discoveryLayer, scanReport } from '../../tests/support/scan-report.ts'
import { ScanRepository } from '../scan/repository.ts'
import { ardPlugin } from './index.ts'
import { catalogDumpStream } from './documents.ts'

/** Deterministic pseudo-random numbers in [0, 1): the property and fuzz tests replay identically. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type CheckSeed = [id: string, status: CheckStatus, overrides?: Partial<CheckResult>]
type Seed = Partial<Omit<ScanReport, 'layers'>> & Pick<ScanReport, 'domain' | 'score'> & { checks?: CheckSeed[] }

function report({ checks = [], ...overrides }: Seed): ScanReport {
  return scanReport({
    name: `Name of ${overrides.domain}`,
    layers: [discoveryLayer(checks.map(([id, status, overrides]) => checkResult(id, status, overrides)))],
    ...overrides,
  })
}

const SERVER_CARD = 'application/mcp-server-card+json'
const URN = /^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$/
const ADJECTIVES = ['Blue', 'Swift', 'Quiet', 'Bright', 'Lucky', 'Grand']
const NOUNS = ['Garden', 'Harbor', 'Studio', 'Market']

const FIXED: Seed[] = [
  {
    domain: 'trail-shoes.test',
    name: 'Trailhead Running Shoes',
    category: 'ecommerce-retail',
    score: 96,
    checks: [
      ['llms-txt', 'pass'],
      ['openapi-description', 'fail'],
      [
        'mcp-endpoint-advertised',
        'pass',
        {
          details: 'Two advertised endpoints answer',
          evidence: {
            mcpEndpoints: [
              { url: 'https://trail-shoes.test/mcp', source: 'server-card' },
              { url: 'https://trail-shoes.test/api/mcp', source: 'llms-txt' },
            ],
          },
        },
      ],
    ],
  },
  { domain: 'city-shoes.test', name: 'City Shoe Store', category: 'ecommerce-retail', score: 40, checks: [['llms-txt', 'fail']] },
  { domain: 'deploy.test', name: 'Rocket Deploy', category: 'cloud-infrastructure', score: 88, checks: [['openapi-description', 'pass']] },
  { domain: 'ledger.test', name: 'Ledger Payments', category: 'payments-fintech', score: 72 },
  {
    domain: 'weather.test',
    name: 'Weather Tools',
    urlKind: 'mcp',
    url: 'https://weather.test/mcp',
    mcpUrl: 'https://weather.test/mcp',
    score: 64,
    checks: [['mcp-tool-descriptions', 'pass', { mcpUrl: 'https://weather.test/mcp' }]],
  },
  {
    domain: 'blind.test',
    name: 'Blind Probe Books',
    category: 'education',
    score: 55,
    checks: [['mcp-endpoint-advertised', 'warning', { evidence: { mcpEndpoints: [{ url: 'https://blind.test/mcp', source: 'blind-probe' }] } }]],
  },
  { domain: 'partial.test', name: 'Partial Planet News', category: 'media-publishing', score: 30, analysisStatus: 'partial', pendingChecks: ['webmcp-tools'] },
]

/** 24 more entries across categories, kinds and grades, so that paging has something to page through. */
const FILLERS: Seed[] = Array.from({ length: 24 }, (_, index) => ({
  domain: `filler-${String(index).padStart(2, '0')}.test`,
  name: `${ADJECTIVES[index % ADJECTIVES.length]} ${NOUNS[index % NOUNS.length]} ${index}`,
  category: index % 5 === 4 ? null : CATEGORY_SLUGS[index % CATEGORY_SLUGS.length]!,
  score: (index * 37) % 101,
  ...(index % 6 === 5 ? { urlKind: 'mcp-app' as const, mcpUrl: `https://filler-${index}.test/mcp` } : {}),
  checks: index % 3 === 0 ? [['llms-txt', 'pass']] : [],
}))

let isolated: AppHandle
let app: { handle(request: Request): Promise<Response> }
let repository: ScanRepository
let indexed: number
let nextIp = 0

beforeAll(async () => {
  // Listings, facets and the catalog dump read the whole index, so exact totals need a database nobody else writes
  // to. Every request below comes from its own forwarded address, so the per-IP limits stay out of the way.
  isolated = await isolatedTestApp({ TRUST_PROXY: 'true' })
  app = new Elysia().use(ardPlugin(isolated.root))
  repository = isolated.deps.scans
  for (const seed of [...FIXED, ...FILLERS]) await repository.insert(report(seed), { ephemeral: false })
  // Never indexed: ephemeral results (one on a domain of its own, one on an indexed domain) and auth markers.
  await repository.insert(report({ domain: 'tunnel.test', name: 'Tunnel Running Shoes', score: 99, scannedAt: '2020-01-01T00:00:00.000Z' }), { ephemeral: true })
  await repository.insert(report({ domain: 'trail-shoes.test', name: 'Ephemeral Impostor', score: 5, scannedAt: '2026-01-01T00:00:00.000Z' }), { ephemeral: true })
  await repository.insertAuthMarker({ domain: 'locked.test', url: 'https://locked.test/mcp', mcpUrl: 'https://locked.test/mcp', urlKind: 'mcp', ephemeral: false })
  indexed = FIXED.length + FILLERS.length
}, 60_000)
afterAll(() => isolated.close())

/** Each call comes from a fresh forwarded IP: the per-IP limits are tested on their own below. */
async function send(path: string, init: RequestInit & { json?: unknown; ip?: string } = {}) {
  nextIp += 1
  const { ip, ...rest } = init
  const headers = new Headers(rest.headers)
  headers.set('x-forwarded-for', ip ?? `10.${(nextIp >> 16) & 255}.${(nextIp >> 8) & 255}.${nextIp & 255}`)
  const response = await app.handle(request(path, { ...rest, headers }))
  const text = await response.text()
  return { response, status: response.status, body: text ? JSON.parse(text) : null }
}

const search = (body: unknown) => send('/api/ard/search', { method: 'POST', json: body })
const explore = (body: unknown) => send('/api/ard/explore', { method: 'POST', json: body })
const agents = (params: Record<string, string | number> = {}) =>
  send(`/api/ard/agents?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]))}`)

type Entry = Record<string, unknown> & {
  identifier: string
  publisherId: string
  displayName: string
  type: string
  tags: string[]
  category?: string
  oraScorecard: { score?: number; grade?: string }
}

async function dump(): Promise<Entry[]> {
  const { status, body } = await send('/api/ard/catalog.json')
  expect(status).toBe(200)
  return body.data
}

const domains = (entries: Entry[]) => entries.map((entry) => entry.publisherId)

describe('the index follows the scans table', () => {
  test('a measured scan becomes a full ARD entry', async () => {
    const { body } = await agents({ filter: 'publisherId = trail-shoes.test' })
    expect(body.total).toBe(1)
    const entry = body.items[0]
    expect(entry).toMatchObject({
      identifier: 'urn:air:localhost:scorecard:trail-shoes.test',
      displayName: 'Trailhead Running Shoes',
      type: SERVER_CARD,
      url: 'https://trail-shoes.test/',
      publisherId: 'trail-shoes.test',
      category: 'ecommerce-retail',
      mcpEndpoints: [
        { url: 'https://trail-shoes.test/mcp', source: 'server-card' },
        { url: 'https://trail-shoes.test/api/mcp', source: 'llms-txt' },
      ],
      trustManifest: {
        identity: 'urn:air:localhost:scorecard:trail-shoes.test',
        attestations: [
          { type: 'agent-readiness-scorecard', uri: 'http://localhost:3000/api/ard/attestation/trail-shoes.test', mediaType: 'application/jose' },
        ],
      },
      oraScorecard: { score: 96, grade: 'A+', category: 'ecommerce-retail', checkedAt: '2025-06-01T12:00:00.000Z' },
    })
    expect(entry.identifier).toMatch(URN)
    expect(entry.tags).toEqual(['ecommerce-retail', 'website', 'mcp', 'grade-a', 'llms-txt', 'mcp-endpoint-advertised'])
    expect(entry.description).toContain('Trailhead Running Shoes')
    expect(entry.description).toContain('96/100')
    expect(entry.representativeQueries.length).toBeGreaterThanOrEqual(2)
    expect(entry.representativeQueries.length).toBeLessThanOrEqual(5)
    expect(Number.isNaN(Date.parse(entry.updatedAt))).toBe(false)
  })

  test('without MCP endpoints an entry is the website; MCP scans and blind-probe finds are MCP servers', async () => {
    const { body } = await agents({ filter: 'publisherId = city-shoes.test,weather.test,blind.test', orderBy: 'identifier' })
    const [blind, city, weather] = body.items
    expect(city).toMatchObject({ type: 'text/html', mcpEndpoints: [] })
    expect(city.tags).toEqual(['ecommerce-retail', 'website', 'grade-d'])
    expect(weather).toMatchObject({ type: SERVER_CARD, url: 'https://weather.test/mcp', mcpEndpoints: [{ url: 'https://weather.test/mcp', source: 'scan' }] })
    expect(weather.tags).toEqual(['mcp-server', 'mcp', 'grade-c'])
    expect(weather.category).toBeUndefined()
    expect(weather.oraScorecard).toEqual({ score: 64, grade: 'C', checkedAt: '2025-06-01T12:00:00.000Z' })
    expect(blind).toMatchObject({ type: SERVER_CARD, mcpEndpoints: [{ url: 'https://blind.test/mcp', source: 'blind-probe' }] })
  })

  test('a failing stored-scan listener rolls the scan write back: the index and the scans table never disagree', async () => {
    const failing = new ScanRepository(isolated.deps.database.db, [
      async () => {
        throw new Error('listener failed')
      },
    ])
    await expect(failing.insert(report({ domain: 'rolled-back.test', score: 80 }), { ephemeral: false })).rejects.toThrow('listener failed')
    expect(await repository.count('rolled-back.test')).toBe(0)
  })

  test('passing checks whose metadata marks an agent entry point become tags; failing and unmarked ones do not', async () => {
    const { body } = await agents({ filter: 'publisherId = deploy.test,trail-shoes.test', orderBy: 'identifier' })
    const [deploy, trail] = body.items
    expect(deploy.tags).toContain('openapi-description')
    expect(trail.tags).not.toContain('openapi-description')
    const tagged = REGISTERED_CHECKS.filter(({ definition }) => definition.meta.agentEntryPoint).map(({ definition }) => definition.meta.id)
    expect(tagged).toContain('openapi-description')
    expect(tagged).not.toContain('robots-txt')
  })

  test('endpoints come from the check\'s typed evidence: rewording its details leaves the entry unchanged', async () => {
    const target = { kind: 'domain' as const, domain: 'reworded.test', origin: 'https://reworded.test', url: 'https://reworded.test/' }
    const probe = { url: 'https://reworded.test/mcp', source: 'server-card' as const, answered: true, authRequired: false, status: 200 }
    const outcome = mcpEndpointAdvertised.run({ mcpEndpoints: { probes: [probe] } }, { target })
    const seed = (details: string, scannedAt: string) =>
      scanReport({ domain: 'reworded.test', score: 70, scannedAt, layers: [discoveryLayer([toCheckResult(mcpEndpointAdvertised.meta, { ...outcome, details })])] })
    const entry = async () => {
      const { updatedAt: _updatedAt, oraScorecard: _oraScorecard, ...rest } = (await agents({ filter: 'publisherId = reworded.test' })).body.items[0]
      return rest
    }
    await repository.insert(seed(outcome.details, '2025-03-01T00:00:00.000Z'), { ephemeral: false })
    const before = await entry()
    expect(before).toMatchObject({ type: SERVER_CARD, mcpEndpoints: [{ url: 'https://reworded.test/mcp', source: 'server-card' }] })
    await repository.insert(seed('Entirely different prose, naming no URL', '2025-04-01T00:00:00.000Z'), { ephemeral: false })
    expect(await entry()).toEqual(before)
    indexed += 1
  })

  test('a partial scan with a score is indexed; ephemeral results and auth markers never are', async () => {
    expect((await agents({ filter: 'publisherId = partial.test' })).body.total).toBe(1)
    expect((await agents({ filter: 'publisherId = tunnel.test,locked.test' })).body.total).toBe(0)
    expect((await agents({ filter: 'displayName = "Ephemeral Impostor"' })).body.total).toBe(0)
    expect((await search({ query: { text: 'tunnel' } })).body.results).toEqual([])
    expect(await dump()).toHaveLength(indexed)
  })

  test('deleting expired ephemeral scans leaves the index alone', async () => {
    const before = await dump()
    expect(await repository.deleteExpiredEphemeral()).toBeGreaterThan(0)
    expect(await dump()).toEqual(before)
  })

  test('the entry follows the newest scan, a late update of an older one does not regress it, summaries flow in', async () => {
    const older = await repository.insert(report({ domain: 'moved.test', name: 'Old Name', score: 90, scannedAt: '2025-01-01T00:00:00.000Z' }), { ephemeral: false })
    const newer = await repository.insert(report({ domain: 'moved.test', name: 'New Name', score: 50, scannedAt: '2025-02-01T00:00:00.000Z' }), { ephemeral: false })
    const entry = async () => (await agents({ filter: 'publisherId = moved.test' })).body.items[0]
    expect(await entry()).toMatchObject({ displayName: 'New Name', oraScorecard: { score: 50, grade: 'C' } })
    await repository.update(older.id, { ...older.result!, name: 'Late Old Name' })
    expect(await entry()).toMatchObject({ displayName: 'New Name' })
    await repository.update(newer.id, { ...newer.result!, score: 52 }, 'Agents can browse the catalogue but cannot check out.')
    const updated = await entry()
    expect(updated.oraScorecard.score).toBe(52)
    expect(updated.description).toContain('Agents can browse the catalogue but cannot check out.')
    indexed += 1
  })
})

describe('POST /api/ard/search', () => {
  test('ranks by relevance and readiness, with ARD result fields', async () => {
    const { status, body } = await search({ query: { text: 'running shoes' } })
    expect(status).toBe(200)
    expect(body.referrals).toEqual([])
    expect(body.pageToken).toBeUndefined()
    expect(body.results[0]).toMatchObject({ identifier: 'urn:air:localhost:scorecard:trail-shoes.test', source: 'http://localhost:3000/api/ard' })
    expect(domains(body.results)).toContain('city-shoes.test')
    const scores = body.results.map((result: { score: number }) => result.score)
    expect(scores.every((score: number) => Number.isInteger(score) && score >= 0 && score <= 100)).toBe(true)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    // Both names match "shoes" alike; the more agent-ready site ranks first.
    expect(domains((await search({ query: { text: 'shoes' } })).body.results).slice(0, 2)).toEqual(['trail-shoes.test', 'city-shoes.test'])
    expect(domains((await search({ query: { text: 'deploy' } })).body.results)[0]).toBe('deploy.test')
    // Websearch syntax is honoured: an exact phrase, an exclusion.
    expect(domains((await search({ query: { text: '"shoe store"' } })).body.results)).toEqual(['city-shoes.test'])
    expect(domains((await search({ query: { text: 'shoes -trailhead' } })).body.results)).toEqual(['city-shoes.test'])
    expect((await search({ query: { text: 'qwxzv' } })).body).toEqual({ results: [], referrals: [] })
  })

  test('a filter-only query scores 100 x the readiness factor', async () => {
    const { body } = await search({ query: { filter: { publisherId: 'trail-shoes.test' } } })
    expect(body.results).toHaveLength(1)
    expect(body.results[0].score).toBe(Math.round(100 * (0.6 + 0.4 * 0.96)))
  })

  test('filters: OR within a field, AND across fields, any-of for tags', async () => {
    const all = await dump()
    const matching = async (filter: Record<string, string | string[]>) =>
      (await search({ query: { filter }, pageSize: 100 })).body.results.map((result: Entry) => result.publisherId).sort()
    const expected = (keep: (entry: Entry) => boolean) => domains(all.filter(keep)).sort()

    const retailOrPayments = await matching({ category: ['ecommerce-retail', 'payments-fintech'] })
    expect(retailOrPayments).toEqual(expected((entry) => entry.category === 'ecommerce-retail' || entry.category === 'payments-fintech'))
    expect(retailOrPayments.length).toBeGreaterThan(2)
    expect(await matching({ category: 'ecommerce-retail', grade: 'A+' })).toEqual(['trail-shoes.test'])
    expect(await matching({ tags: ['mcp', 'llms-txt'] })).toEqual(expected((entry) => entry.tags.includes('mcp') || entry.tags.includes('llms-txt')))
    expect(await matching({ type: SERVER_CARD, tags: 'llms-txt' })).toEqual(expected((entry) => entry.type === SERVER_CARD && entry.tags.includes('llms-txt')))
    expect(await matching({ identifier: 'urn:air:localhost:scorecard:ledger.test' })).toEqual(['ledger.test'])
    expect(await matching({ grade: ['A', 'A+'], publisherId: ['deploy.test', 'ledger.test', 'trail-shoes.test'] })).toEqual(['deploy.test', 'trail-shoes.test'])
    const textAndFilter = await search({ query: { text: 'shoes', filter: { grade: 'D' } } })
    expect(domains(textAndFilter.body.results)).toEqual(['city-shoes.test'])
  })

  test.each([
    [{ query: { filter: { score: '90' } } }, 'score'],
    [{ query: { filter: { publisher: 'localhost' } } }, 'publisher'],
    [{ query: {} }, 'query'],
    [{ query: { text: '   ' } }, 'query'],
    [{}, 'query'],
    [{ query: { text: 'shoes' }, pageSize: 0 }, 'pageSize'],
    [{ query: { text: 'shoes' }, pageSize: 101 }, 'pageSize'],
    [{ query: { text: 'shoes' }, federation: 'everywhere' }, 'federation'],
    [{ query: { filter: { tags: [] } } }, 'tags'],
    [{ query: { text: 'nul\u0000byte' } }, 'text'],
  ])('400 INVALID_ARGUMENT for %j', async (body, mentioned) => {
    const { status, body: error } = await search(body)
    expect(status).toBe(400)
    expect(error.errorCode).toBe('INVALID_ARGUMENT')
    expect(JSON.stringify(error)).toContain(mentioned)
  })

  test('federation: every mode answers from the own index with no referrals', async () => {
    const own = (await search({ query: { text: 'shoes' }, federation: 'none' })).body
    for (const federation of ['auto', 'referrals', undefined]) {
      const { status, body } = await search({ query: { text: 'shoes' }, ...(federation ? { federation } : {}) })
      expect(status).toBe(200)
      expect(body.referrals).toEqual([])
      expect(domains(body.results)).toEqual(domains(own.results))
    }
  })

  test('page tokens are tamper-evident and bound to their query; the last page has none', async () => {
    const query = { filter: { category: 'ecommerce-retail' } }
    const first = (await search({ query, pageSize: 1 })).body
    const token: string = first.pageToken
    expect(typeof token).toBe('string')
    const second = (await search({ query, pageSize: 1, pageToken: token })).body
    expect(domains(second.results)).not.toEqual(domains(first.results))

    const flip = (at: number) => `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`
    for (const at of [0, 5, token.indexOf('.') - 1, token.indexOf('.'), token.indexOf('.') + 1, token.length - 1]) {
      const { status, body } = await search({ query, pageSize: 1, pageToken: flip(at) })
      expect(status).toBe(400)
      expect(body.errorCode).toBe('INVALID_ARGUMENT')
    }
    for (const garbage of ['', 'abc', '.', 'a.b.c', `${token}.x`]) {
      expect((await search({ query, pageSize: 1, pageToken: garbage })).status).toBe(400)
    }
    const foreign = await search({ query: { filter: { category: 'education' } }, pageSize: 1, pageToken: token })
    expect(foreign.status).toBe(400)
    expect(foreign.body.message).toContain('different query')
    expect((await agents({ pageSize: 1, pageToken: token })).status).toBe(400)

    const last = (await search({ query, pageSize: 100 })).body
    expect('pageToken' in last).toBe(false)
  })
})

describe('GET /api/ard/agents', () => {
  test('lists every entry by displayName, 20 per page by default, with a total', async () => {
    const { status, response, body } = await agents()
    expect(status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=60')
    expect(body.total).toBe(indexed)
    expect(body.items).toHaveLength(20)
    expect(typeof body.pageToken).toBe('string')
    const names = body.items.map((item: Entry) => item.displayName.toLowerCase())
    expect(names).toEqual([...names].sort())
  })

  test.each([
    ['type = "application/mcp-server-card+json"', (entry: Entry) => entry.type === SERVER_CARD],
    ["type != 'application/mcp-server-card+json'", (entry: Entry) => entry.type !== SERVER_CARD],
    ['publisherId = trail-shoes.test,ledger.test', (entry: Entry) => ['trail-shoes.test', 'ledger.test'].includes(entry.publisherId)],
    ['tags = mcp AND displayName != "weather tools"', (entry: Entry) => entry.tags.includes('mcp') && entry.displayName !== 'Weather Tools'],
    ['tags != website', (entry: Entry) => !entry.tags.includes('website')],
    ['displayName = "TRAILHEAD RUNNING SHOES"', (entry: Entry) => entry.displayName === 'Trailhead Running Shoes'],
    ['displayName >= m and displayName < r', (entry: Entry) => entry.displayName.toLowerCase() >= 'm' && entry.displayName.toLowerCase() < 'r'],
    ['updatedAt > 2000-01-01', () => true],
    ['updatedAt <= 2000-01-01T00:00:00Z', () => false],
    ['   ', () => true],
  ])('filter %s', async (filter, keep) => {
    const { status, body } = await agents({ filter, pageSize: 100 })
    expect(status).toBe(200)
    const expected = domains((await dump()).filter(keep)).sort()
    expect(domains(body.items).sort()).toEqual(expected)
    expect(body.total).toBe(expected.length)
  })

  test.each([
    ['identifier', (a: Entry, b: Entry) => (a.identifier < b.identifier ? -1 : 1)],
    ['identifier DESC', (a: Entry, b: Entry) => (a.identifier < b.identifier ? 1 : -1)],
    ['displayName desc', (a: Entry, b: Entry) => b.displayName.toLowerCase().localeCompare(a.displayName.toLowerCase())],
  ])('orderBy %s', async (orderBy, compare) => {
    const { body } = await agents({ orderBy, pageSize: 100 })
    const order = (await dump()).sort(compare)
    if (orderBy.startsWith('identifier')) expect(domains(body.items)).toEqual(domains(order))
    else expect(body.items.map((item: Entry) => item.displayName.toLowerCase())).toEqual(order.map((entry) => entry.displayName.toLowerCase()))
  })

  test.each([
    ['filter', 'score > 50', 'unsupported field "score"'],
    ['filter', 'tags > mcp', 'operator ">" is not supported for field "tags"'],
    ['filter', 'type < a', 'operator "<" is not supported for field "type"'],
    ['filter', 'type =', 'expected a value'],
    ['filter', 'type', 'expected an operator'],
    ['filter', 'type == a', 'expected a value'],
    ['filter', 'type = a OR type = b', 'OR'],
    ['filter', 'type = a type = b', 'expected AND'],
    ['filter', 'type = a AND', 'after AND'],
    ['filter', '(type = a)', 'parentheses'],
    ['filter', 'type = "open', 'not closed'],
    ['filter', 'displayName ! a', '!='],
    ['filter', 'updatedAt > yesterday', 'ISO 8601'],
    ['filter', 'updatedAt > 0000-01-01', 'ISO 8601'],
    ['filter', 'publisherId = ,', 'expected a value'],
    ['orderBy', 'score', 'unsupported field "score"'],
    ['orderBy', 'displayName sideways', 'expected ASC or DESC'],
    ['orderBy', 'displayName ASC type', 'unexpected'],
    ['pageSize', '0', 'pageSize'],
    ['pageSize', '101', 'pageSize'],
    ['pageSize', 'ten', 'pageSize'],
    ['filter', ['type = a', 'type = b'], 'filter'],
  ])('400 INVALID_ARGUMENT: %s=%s', async (parameter, value, mentioned) => {
    const values = typeof value === 'string' ? [value] : value
    const { status, body } = await send(`/api/ard/agents?${new URLSearchParams(values.map((each) => [parameter, each]))}`)
    expect(status).toBe(400)
    expect(body.errorCode).toBe('INVALID_ARGUMENT')
    expect(body.message).toContain(mentioned)
  })
})

describe('paging returns every entry exactly once (property)', () => {
  const SEARCHES = [
    { text: 'garden studio market harbor' },
    { text: 'shoes deploy payments news' },
    { filter: { grade: ['A+', 'A', 'B', 'C', 'D', 'F'] } },
    { filter: { tags: ['website', 'mcp-server', 'mcp-app'] } },
    { text: 'swift bright lucky', filter: { type: ['text/html', SERVER_CARD] } },
  ]
  const LISTINGS = [
    {},
    { filter: 'tags = website' },
    { orderBy: 'updatedAt DESC' },
    { orderBy: 'type ASC', filter: 'updatedAt > 2000-01-01' },
    { orderBy: 'identifier DESC', filter: 'displayName >= c' },
  ]

  test('random page sizes over search and agents, 30 seeded runs', async () => {
    const random = mulberry32(0xa2d)
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!
    for (let run = 0; run < 30; run += 1) {
      const listing = run % 2 === 1
      const query = listing ? pick(LISTINGS) : pick(SEARCHES)
      const fetchPage = (pageSize: number, pageToken?: string) =>
        listing
          ? agents({ ...(query as Record<string, string>), pageSize, ...(pageToken ? { pageToken } : {}) })
          : search({ query, pageSize, ...(pageToken ? { pageToken } : {}) })
      const reference = await fetchPage(100)
      expect(reference.status).toBe(200)
      const expected: string[] = (listing ? reference.body.items : reference.body.results).map((entry: Entry) => entry.identifier)
      expect(expected.length).toBeGreaterThan(1)
      if (listing) expect(reference.body.total).toBe(expected.length)

      const seen: string[] = []
      let token: string | undefined
      for (let page = 0; page < 200; page += 1) {
        // Mostly small pages (many round trips), sometimes a large one.
        const pageSize = random() < 0.15 ? 1 + Math.floor(random() * 100) : 1 + Math.floor(random() * 6)
        const { status, body } = await fetchPage(pageSize, token)
        expect(status).toBe(200)
        const items: Entry[] = listing ? body.items : body.results
        expect(items.length).toBeLessThanOrEqual(pageSize)
        seen.push(...items.map((entry) => entry.identifier))
        token = body.pageToken
        if (token === undefined) break
      }
      expect(token).toBeUndefined()
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen).toEqual(expected)
    }
  }, 180_000)
})

describe('fuzzing the filter and orderBy grammar never yields a 5xx', () => {
  const FRAGMENTS = [
    'type', 'displayName', 'publisherId', 'tags', 'updatedAt', 'identifier', 'score', 'category',
    'AND', 'and', 'OR', 'NOT', 'ASC', 'DESC', 'desc',
    '=', '!=', '>', '<', '>=', '<=', '==', '!', '=>', '<>',
    '"', "'", '(', ')', '\\', ',', ';', '%', '*', '--', '/*',
    '2026-01-01', '2026-13-45', '0000-01-01', '9999-12-31T23:59:59Z', '2026-02-30T10:00:00+05:30', '1e9',
    'mcp', 'website', 'grade-a', '"quoted value"', "'single quoted'", '"unterminated', '"esc\\"aped"',
    'application/mcp-server-card+json', "x'); DROP TABLE ard_entries; --", 'é', '😀', '\u0000', '\t', '',
    'x'.repeat(300),
    // Whole valid conditions, so that a share of the corpus parses and reaches the database.
    'tags = website', 'type != "text/html"', 'displayName > a', 'updatedAt <= 2030-01-01', 'publisherId = a.test,b.test',
  ]

  const OPERATORS = ['=', '!=', '>', '<', '>=', '<=']
  const WORDS = ['mcp', 'website', '"text/html"', "'a b'", 'a.test,b.test', 'é', '""', '2026-01-01']
  const DATES = ['2026-01-01', '2026-01-01T10:00:00Z', '"2026-06-01 12:00"', 'now', '2026-02-31']
  const FIELDS: Record<string, { operators: string[]; values: string[] }> = {
    type: { operators: ['=', '!='], values: WORDS },
    publisherId: { operators: ['=', '!='], values: WORDS },
    tags: { operators: ['=', '!='], values: WORDS },
    displayName: { operators: OPERATORS, values: WORDS },
    updatedAt: { operators: OPERATORS, values: DATES },
    identifier: { operators: OPERATORS, values: WORDS },
  }
  const pickFrom = (random: () => number) => <T,>(items: T[]) => items[Math.floor(random() * items.length)]!

  /** Mostly well-typed conditions with the occasional wrong operator, joiner or field. */
  function sentence(random: () => number): string[] {
    const pick = pickFrom(random)
    return Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const field = pick(Object.keys(FIELDS))
      const { operators, values } = FIELDS[field]!
      return `${field} ${random() < 0.85 ? pick(operators) : pick(OPERATORS)} ${pick(values)}`
    }).flatMap((condition, index) => (index === 0 ? [condition] : [random() < 0.85 ? 'AND' : pick(['OR', 'and', '&&', '']), condition]))
  }

  function orderBy(random: () => number): string[] {
    const pick = pickFrom(random)
    return [pick(['displayName', 'updatedAt', 'identifier', 'type', 'score', 'tags']), pick(['ASC', 'DESC', 'desc', '', '', 'up'])]
  }

  /** Half near-valid input from the generators, half fragment soup; then, half the time, random character edits. */
  function garble(random: () => number, generate: (random: () => number) => string[]): string {
    const pick = pickFrom(random)
    const parts = random() < 0.5 ? generate(random) : Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(FRAGMENTS))
    let text = parts.join(random() < 0.8 ? ' ' : '')
    if (random() < 0.5) return text
    // Random single-character edits on top: insertions, deletions and replacements.
    for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits -= 1) {
      const at = Math.floor(random() * (text.length + 1))
      const char = String.fromCodePoint(random() < 0.9 ? 32 + Math.floor(random() * 95) : 0x80 + Math.floor(random() * 0x2000))
      const op = random()
      text = op < 0.4 ? text.slice(0, at) + char + text.slice(at) : op < 0.7 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + char + text.slice(at + 1)
    }
    return text
  }

  test('600 seeded random filter and orderBy expressions', async () => {
    const random = mulberry32(0x5eed)
    const statuses = new Map<number, number>()
    for (let run = 0; run < 600; run += 1) {
      const params =
        run % 3 === 2
          ? { orderBy: garble(random, orderBy) }
          : { filter: garble(random, sentence), ...(random() < 0.3 ? { orderBy: garble(random, orderBy) } : {}) }
      const { status, body } = await agents(params)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (status >= 500 || (status !== 200 && status !== 400)) throw new Error(`${status} for ${JSON.stringify(params)}: ${JSON.stringify(body)}`)
      if (status === 400) expect(body.errorCode).toBe('INVALID_ARGUMENT')
    }
    // The corpus must exercise both outcomes, or it tests nothing.
    expect(statuses.get(200)).toBeGreaterThan(20)
    expect(statuses.get(400)).toBeGreaterThan(100)
  }, 180_000)

  test('200 seeded random search and explore bodies', async () => {
    const random = mulberry32(0xb0d7)
    const value = () => (random() < 0.5 ? garble(random, sentence) : [garble(random, sentence), garble(random, orderBy)])
    const fields = ['category', 'tags', 'type', 'grade', 'publisherId', 'identifier', 'score', '']
    for (let run = 0; run < 200; run += 1) {
      const filter = Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, () => [fields[Math.floor(random() * fields.length)]!, value()]))
      const query = { ...(random() < 0.7 ? { text: garble(random, sentence) } : {}), filter }
      const { status, body } =
        run % 4 === 3
          ? await explore({ query, resultType: { facets: [{ field: ['tags', 'type', 'grade', 'category', 'x'][Math.floor(random() * 5)], limit: 1 + Math.floor(random() * 5) }] } })
          : await search({ query, pageSize: 1 + Math.floor(random() * 100), ...(random() < 0.2 ? { pageToken: garble(random, sentence) } : {}) })
      if (status !== 200 && status !== 400) throw new Error(`${status} for ${JSON.stringify(query)}: ${JSON.stringify(body)}`)
    }
  }, 180_000)
})

describe('POST /api/ard/explore', () => {
  test('facet counts per field over the whole index', async () => {
    const all = await dump()
    const { status, body } = await explore({
      resultType: { facets: [{ field: 'category', limit: 100 }, { field: 'type' }, { field: 'grade' }, { field: 'tags', limit: 2 }] },
    })
    expect(status).toBe(200)
    expect(body.resultType).toBe('facets')
    const tally = (values: (string | undefined)[]) => {
      const counts = new Map<string, number>()
      for (const value of values) if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1)
      return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
    }
    expect(body.facets.category).toEqual({ buckets: tally(all.map((entry) => entry.category)), otherCount: 0 })
    expect(body.facets.type).toEqual({ buckets: tally(all.map((entry) => entry.type)), otherCount: 0 })
    expect(body.facets.grade).toEqual({ buckets: tally(all.map((entry) => entry.oraScorecard.grade)), otherCount: 0 })
    const tags = tally(all.flatMap((entry) => entry.tags))
    expect(body.facets.tags).toEqual({ buckets: tags.slice(0, 2), otherCount: tags.slice(2).reduce((sum, tag) => sum + tag.count, 0) })
  })

  test('minCount and a query narrow the counted entries', async () => {
    const all = await dump()
    const { body } = await explore({ query: { filter: { type: [SERVER_CARD] } }, resultType: { facets: [{ field: 'type' }, { field: 'tags', minCount: 3 }] } })
    expect(body.facets.type.buckets).toEqual([{ value: SERVER_CARD, count: all.filter((entry) => entry.type === SERVER_CARD).length }])
    expect(body.facets.tags.buckets.every((bucket: { count: number }) => bucket.count >= 3)).toBe(true)
    expect(body.facets.tags.buckets.map((bucket: { value: string }) => bucket.value)).toContain('mcp')
    const text = (await explore({ query: { text: 'shoes' }, resultType: { facets: [{ field: 'category' }] } })).body
    expect(text.facets.category.buckets).toEqual([{ value: 'ecommerce-retail', count: 2 }])
  })

  test.each([
    [{ resultType: { facets: [{ field: 'publisher' }] } }],
    [{ resultType: { facets: [{ field: 'type' }, { field: 'type' }] } }],
    [{ resultType: { facets: [] } }],
    [{ resultType: { facets: [{ field: 'type', minCount: 0 }] } }],
    [{ resultType: {} }],
    [{ query: { filter: { color: ['red'] } }, resultType: { facets: [{ field: 'type' }] } }],
  ])('400 INVALID_ARGUMENT for %j', async (body) => {
    const { status, body: error } = await explore(body)
    expect(status).toBe(400)
    expect(error.errorCode).toBe('INVALID_ARGUMENT')
  })
})

describe('descriptor, catalogs and the dump', () => {
  test('GET /api/ard is the registry descriptor', async () => {
    const { response, body } = await send('/api/ard')
    expect(response.headers.get('content-type')).toBe('application/ai-registry+json')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(body.identifier).toMatch(URN)
    expect(body.endpoints).toMatchObject({
      search: { method: 'POST', url: 'http://localhost:3000/api/ard/search' },
      explore: { method: 'POST', url: 'http://localhost:3000/api/ard/explore' },
      list: { method: 'GET', url: 'http://localhost:3000/api/ard/agents' },
      catalogDump: { method: 'GET', url: 'http://localhost:3000/api/ard/catalog.json' },
      attestation: { method: 'GET', url: 'http://localhost:3000/api/ard/attestation/{domain}' },
    })
    expect(body.pagination).toEqual({ model: 'opaque-token', tokenField: 'pageToken', maxPageSize: 100, defaultPageSize: { search: 10, list: 20 } })
    expect(body.search.filterFields).toEqual(['category', 'tags', 'type', 'grade', 'publisherId', 'identifier'])
    expect(body.list).toMatchObject({
      filterFields: ['type', 'displayName', 'publisherId', 'tags', 'updatedAt'],
      operators: ['=', '!=', '>', '<', '>=', '<='],
      orderByFields: ['displayName', 'updatedAt', 'identifier', 'type'],
    })
    expect(body.explore.facetFields).toEqual(['category', 'tags', 'type', 'grade'])
    expect(body.federation).toEqual({ modes: ['auto', 'referrals', 'none'], default: 'auto', upstreams: [] })
    expect(body.mediaTypes).toMatchObject({ registry: 'application/ai-registry+json', catalog: 'application/ai-catalog+json', attestation: 'application/jose' })
  })

  test('our AI catalog, at /api/ard/catalog and the well-known path', async () => {
    const api = await send('/api/ard/catalog')
    const wellKnown = await send('/.well-known/ai-catalog.json')
    for (const { response } of [api, wellKnown]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/ai-catalog+json')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
    }
    expect(wellKnown.body).toEqual(api.body)
    const catalog = api.body
    expect(catalog.specVersion).toBe('1.0')
    expect(catalog.host).toMatchObject({ displayName: 'agent-readiness', identifier: 'localhost' })
    expect(catalog.entries.map((entry: { type: string; url: string }) => [entry.type, entry.url])).toEqual([
      [SERVER_CARD, 'http://localhost:3000/api/mcp/server-card'],
      ['application/ai-registry+json', 'http://localhost:3000/api/ard'],
      ['application/vnd.oai.openapi+json', 'http://localhost:3000/openapi.json'],
    ])
    for (const entry of catalog.entries) {
      expect(entry.identifier).toMatch(URN)
      expect(entry.identifier.split(':')[2]).toBe('localhost')
      expect(entry.representativeQueries.length).toBeGreaterThanOrEqual(2)
    }
  })

  test('GET /api/ard/catalog.json holds every entry, uncapped, CORS open and CDN-cacheable', async () => {
    const { response, body } = await send('/api/ard/catalog.json')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=3600')
    expect(body).toMatchObject({ version: '1.27.0', publisher: { displayName: 'agent-readiness', identifier: 'localhost', url: 'http://localhost:3000' } })
    expect(Number.isNaN(Date.parse(body.generatedAt))).toBe(false)
    expect(body.data).toHaveLength((await agents()).body.total)
    const ids = domains(body.data)
    expect(ids).toEqual([...ids].sort())
    for (const entry of body.data) expect(entry.identifier).toMatch(URN)
  })

  test('the dump streams in keyset batches without losing or repeating an entry', async () => {
    const { deps } = isolated
    const now = new Date('2026-01-01T00:00:00.000Z')
    const batched = await new Response(await catalogDumpStream(deps.database.db, deps.config, deps.log, { batchSize: 4, now })).json()
    const whole = await new Response(await catalogDumpStream(deps.database.db, deps.config, deps.log, { now })).json()
    expect(batched).toEqual(whole)
    expect(batched.data).toHaveLength(indexed)
  })

  test('search and explore share 30 requests per minute per IP, counted before validation', async () => {
    const ip = '192.0.2.77'
    for (let hit = 0; hit < 30; hit += 1) {
      const { status } = await send('/api/ard/explore', { method: 'POST', json: {}, ip })
      expect(status).toBe(400)
    }
    const { status, response, body } = await send('/api/ard/search', { method: 'POST', json: { query: { text: 'shoes' } }, ip })
    expect(status).toBe(429)
    expect(body.errorCode).toBe('RATE_LIMIT_EXCEEDED')
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('the listing and the dump share 60 requests per minute per IP', async () => {
    const ip = '192.0.2.78'
    for (let hit = 0; hit < 60; hit += 1) {
      const { status } = await send(hit % 2 ? '/api/ard/agents?pageSize=1' : '/api/ard/agents?filter=bogus', { ip })
      expect(status).toBe(hit % 2 ? 200 : 400)
    }
    const { status, body } = await send('/api/ard/catalog.json', { ip })
    expect(status).toBe(429)
    expect(body.errorCode).toBe('RATE_LIMIT_EXCEEDED')
  })
})
