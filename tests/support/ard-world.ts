import { afterAll, beforeAll, expect } from 'bun:test'
import { Elysia } from 'elysia'
import type { AppHandle } from '../../app/app.ts'
import type { CheckStatus } from '../../core/engine/check.ts'
import type { CheckResult } from '../../core/engine/scoring.ts'
import { CATEGORY_SLUGS } from '../../core/engine/lib/categories.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { ardPlugin } from '../../plugins/ard/index.ts'
import type { ScanRepository } from '../../plugins/scan/repository.ts'
import { isolatedTestApp, request } from '../helpers.ts'
import { checkResult, discoveryLayer, scanReport } from './scan-report.ts'

export { mulberry32 } from './random.ts'

type CheckSeed = [id: string, status: CheckStatus, overrides?: Partial<CheckResult>]
type Seed = Partial<Omit<ScanReport, 'layers'>> & Pick<ScanReport, 'domain' | 'score'> & { checks?: CheckSeed[] }

export function report({ checks = [], ...overrides }: Seed): ScanReport {
  return scanReport({
    name: `Name of ${overrides.domain}`,
    layers: [discoveryLayer(checks.map(([id, status, overrides]) => checkResult(id, status, overrides)))],
    ...overrides,
  })
}

export const SERVER_CARD = 'application/mcp-server-card+json'
export const URN = /^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$/
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
  {
    domain: 'city-shoes.test',
    name: 'City Shoe Store',
    category: 'ecommerce-retail',
    score: 40,
    checks: [['llms-txt', 'fail']],
  },
  {
    domain: 'deploy.test',
    name: 'Rocket Deploy',
    category: 'cloud-infrastructure',
    score: 88,
    checks: [['openapi-description', 'pass']],
  },
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
    checks: [
      [
        'mcp-endpoint-advertised',
        'warning',
        { evidence: { mcpEndpoints: [{ url: 'https://blind.test/mcp', source: 'blind-probe' }] } },
      ],
    ],
  },
  {
    domain: 'partial.test',
    name: 'Partial Planet News',
    category: 'media-publishing',
    score: 30,
    analysisStatus: 'partial',
    pendingChecks: ['webmcp-tools'],
  },
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

export type Entry = Record<string, unknown> & {
  identifier: string
  publisherId: string
  displayName: string
  type: string
  tags: string[]
  category?: string
  oraScorecard: { score?: number; grade?: string }
}

export const domains = (entries: Entry[]) => entries.map((entry) => entry.publisherId)

type Sent = { response: Response; status: number; body: any }

export interface ArdWorld {
  /** The app behind the plugin, for tests that reach its database or repository directly. */
  readonly isolated: AppHandle
  readonly repository: ScanRepository
  /** How many entries the index holds; a test that indexes one more domain bumps it for the tests after it. */
  indexed: number
  /** Each call comes from a fresh forwarded IP unless `ip` is given: the per-IP limits are tested on their own. */
  send(path: string, init?: RequestInit & { json?: unknown; ip?: string }): Promise<Sent>
  search(body: unknown): Promise<Sent>
  explore(body: unknown): Promise<Sent>
  agents(params?: Record<string, string | number>): Promise<Sent>
  /** Every indexed entry, from the catalog dump. */
  dump(): Promise<Entry[]>
}

/**
 * The ARD plugin over an index of the FIXED and FILLERS seeds plus scans that must never be indexed, on an
 * isolated app of the calling test file's own. The app starts before the file's tests and closes after them.
 */
export function ardWorld(): ArdWorld {
  let isolated: AppHandle
  let app: { handle(request: Request): Promise<Response> }
  let repository: ScanRepository
  let nextIp = 0

  beforeAll(async () => {
    // Listings, facets and the catalog dump read the whole index, so exact totals need a database nobody else writes
    // to. Every request comes from its own forwarded address, so the per-IP limits stay out of the way.
    isolated = await isolatedTestApp({ TRUST_PROXY: 'true' }, { features: ['scan', 'ard'] })
    app = new Elysia().use(ardPlugin(isolated.pieces))
    repository = isolated.pieces.scans
    for (const seed of [...FIXED, ...FILLERS]) await repository.insert(report(seed), { ephemeral: false })
    // Never indexed: ephemeral results (one on a domain of its own, one on an indexed domain) and auth markers.
    await repository.insert(
      report({ domain: 'tunnel.test', name: 'Tunnel Running Shoes', score: 99, scannedAt: '2020-01-01T00:00:00.000Z' }),
      { ephemeral: true },
    )
    await repository.insert(
      report({
        domain: 'trail-shoes.test',
        name: 'Ephemeral Impostor',
        score: 5,
        scannedAt: '2026-01-01T00:00:00.000Z',
      }),
      { ephemeral: true },
    )
    await repository.insertAuthMarker({
      domain: 'locked.test',
      url: 'https://locked.test/mcp',
      mcpUrl: 'https://locked.test/mcp',
      urlKind: 'mcp',
      ephemeral: false,
    })
    world.indexed = FIXED.length + FILLERS.length
  }, 60_000)
  afterAll(() => isolated.close())

  const send: ArdWorld['send'] = async (path, init = {}) => {
    nextIp += 1
    const { ip, ...rest } = init
    const headers = new Headers(rest.headers)
    headers.set('x-forwarded-for', ip ?? `10.${(nextIp >> 16) & 255}.${(nextIp >> 8) & 255}.${nextIp & 255}`)
    const response = await app.handle(request(path, { ...rest, headers }))
    const text = await response.text()
    return { response, status: response.status, body: text ? JSON.parse(text) : null }
  }

  const world: ArdWorld = {
    get isolated() {
      return isolated
    },
    get repository() {
      return repository
    },
    indexed: 0,
    send,
    search: (body) => send('/api/ard/search', { method: 'POST', json: body }),
    explore: (body) => send('/api/ard/explore', { method: 'POST', json: body }),
    agents: (params = {}) =>
      send(
        `/api/ard/agents?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]))}`,
      ),
    dump: async () => {
      const { status, body } = await send('/api/ard/catalog.json')
      expect(status).toBe(200)
      return body.data
    },
  }
  return world
}
