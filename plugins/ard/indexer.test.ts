import { describe, expect, test } from 'bun:test'
import mcpEndpointAdvertised from '../../checks/domain/mcp-endpoint-advertised.ts'
import { REGISTERED_CHECKS } from '../../checks/index.ts'
import { CONTRACT_VERSION } from '../../core/version.ts'
import { toCheckResult } from '../../core/engine/scoring.ts'
import { ardWorld, domains, report, SERVER_CARD, URN } from '../../tests/support/ard-world.ts'
import { discoveryLayer, scanReport } from '../../tests/support/scan-report.ts'
import { ScanRepository } from '../scan/public.ts'
import { catalogDumpStream } from './documents.ts'

// Some tests here index more domains: later tests in this file see them, through world.indexed.
const world = ardWorld()
const { send, search, agents, dump } = world

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
          {
            type: 'agent-readiness-scorecard',
            uri: 'http://localhost:3000/api/ard/attestation/trail-shoes.test',
            mediaType: 'application/jose',
          },
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
    const { body } = await agents({
      filter: 'publisherId = city-shoes.test,weather.test,blind.test',
      orderBy: 'identifier',
    })
    const [blind, city, weather] = body.items
    expect(city).toMatchObject({ type: 'text/html', mcpEndpoints: [] })
    expect(city.tags).toEqual(['ecommerce-retail', 'website', 'grade-d'])
    expect(weather).toMatchObject({
      type: SERVER_CARD,
      url: 'https://weather.test/mcp',
      mcpEndpoints: [{ url: 'https://weather.test/mcp', source: 'scan' }],
    })
    expect(weather.tags).toEqual(['mcp-server', 'mcp', 'grade-c'])
    expect(weather.category).toBeUndefined()
    expect(weather.oraScorecard).toEqual({ score: 64, grade: 'C', checkedAt: '2025-06-01T12:00:00.000Z' })
    expect(blind).toMatchObject({
      type: SERVER_CARD,
      mcpEndpoints: [{ url: 'https://blind.test/mcp', source: 'blind-probe' }],
    })
  })

  test('a failing stored-scan listener rolls the scan write back: the index and the scans table never disagree', async () => {
    const failing = new ScanRepository(world.isolated.pieces.database.db, [
      async () => {
        throw new Error('listener failed')
      },
    ])
    await expect(
      failing.insert(report({ domain: 'rolled-back.test', score: 80 }), { ephemeral: false }),
    ).rejects.toThrow('listener failed')
    expect(await world.repository.count('rolled-back.test')).toBe(0)
  })

  test('passing checks whose metadata marks an agent entry point become tags; failing and unmarked ones do not', async () => {
    const { body } = await agents({ filter: 'publisherId = deploy.test,trail-shoes.test', orderBy: 'identifier' })
    const [deploy, trail] = body.items
    expect(deploy.tags).toContain('openapi-description')
    expect(trail.tags).not.toContain('openapi-description')
    const tagged = REGISTERED_CHECKS.filter(({ definition }) => definition.meta.agentEntryPoint).map(
      ({ definition }) => definition.meta.id,
    )
    expect(tagged).toContain('openapi-description')
    expect(tagged).not.toContain('robots-txt')
  })

  test("endpoints come from the check's typed evidence: rewording its details leaves the entry unchanged", async () => {
    const target = {
      kind: 'domain' as const,
      domain: 'reworded.test',
      origin: 'https://reworded.test',
      url: 'https://reworded.test/',
    }
    const probe = {
      url: 'https://reworded.test/mcp',
      source: 'server-card' as const,
      answered: true,
      authRequired: false,
      status: 200,
    }
    const outcome = mcpEndpointAdvertised.run({ mcpEndpoints: { probes: [probe] } }, { target })
    const seed = (details: string, scannedAt: string) =>
      scanReport({
        domain: 'reworded.test',
        score: 70,
        scannedAt,
        layers: [discoveryLayer([toCheckResult(mcpEndpointAdvertised.meta, { ...outcome, details })])],
      })
    const entry = async () => {
      const {
        updatedAt: _updatedAt,
        oraScorecard: _oraScorecard,
        ...rest
      } = (await agents({ filter: 'publisherId = reworded.test' })).body.items[0]
      return rest
    }
    await world.repository.insert(seed(outcome.details, '2025-03-01T00:00:00.000Z'), { ephemeral: false })
    const before = await entry()
    expect(before).toMatchObject({
      type: SERVER_CARD,
      mcpEndpoints: [{ url: 'https://reworded.test/mcp', source: 'server-card' }],
    })
    await world.repository.insert(seed('Entirely different prose, naming no URL', '2025-04-01T00:00:00.000Z'), {
      ephemeral: false,
    })
    expect(await entry()).toEqual(before)
    world.indexed += 1
  })

  test('a partial scan with a score is indexed; ephemeral results and auth markers never are', async () => {
    expect((await agents({ filter: 'publisherId = partial.test' })).body.total).toBe(1)
    expect((await agents({ filter: 'publisherId = tunnel.test,locked.test' })).body.total).toBe(0)
    expect((await agents({ filter: 'displayName = "Ephemeral Impostor"' })).body.total).toBe(0)
    expect((await search({ query: { text: 'tunnel' } })).body.results).toEqual([])
    expect(await dump()).toHaveLength(world.indexed)
  })

  test('deleting expired ephemeral scans leaves the index alone', async () => {
    const before = await dump()
    expect(await world.repository.deleteExpiredEphemeral()).toBeGreaterThan(0)
    expect(await dump()).toEqual(before)
  })

  test('the entry follows the newest scan, a late update of an older one does not regress it, summaries flow in', async () => {
    const older = await world.repository.insert(
      report({ domain: 'moved.test', name: 'Old Name', score: 90, scannedAt: '2025-01-01T00:00:00.000Z' }),
      { ephemeral: false },
    )
    const newer = await world.repository.insert(
      report({ domain: 'moved.test', name: 'New Name', score: 50, scannedAt: '2025-02-01T00:00:00.000Z' }),
      { ephemeral: false },
    )
    const entry = async () => (await agents({ filter: 'publisherId = moved.test' })).body.items[0]
    expect(await entry()).toMatchObject({ displayName: 'New Name', oraScorecard: { score: 50, grade: 'C' } })
    await world.repository.update(older.id, { ...older.result!, name: 'Late Old Name' })
    expect(await entry()).toMatchObject({ displayName: 'New Name' })
    await world.repository.update(
      newer.id,
      { ...newer.result!, score: 52 },
      'Agents can browse the catalogue but cannot check out.',
    )
    const updated = await entry()
    expect(updated.oraScorecard.score).toBe(52)
    expect(updated.description).toContain('Agents can browse the catalogue but cannot check out.')
    world.indexed += 1
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
    expect(body.pagination).toEqual({
      model: 'opaque-token',
      tokenField: 'pageToken',
      maxPageSize: 100,
      defaultPageSize: { search: 10, list: 20 },
    })
    expect(body.search.filterFields).toEqual(['category', 'tags', 'type', 'grade', 'publisherId', 'identifier'])
    expect(body.list).toMatchObject({
      filterFields: ['type', 'displayName', 'publisherId', 'tags', 'updatedAt'],
      operators: ['=', '!=', '>', '<', '>=', '<='],
      orderByFields: ['displayName', 'updatedAt', 'identifier', 'type'],
    })
    expect(body.explore.facetFields).toEqual(['category', 'tags', 'type', 'grade'])
    expect(body.federation).toEqual({ modes: ['auto', 'referrals', 'none'], default: 'auto', upstreams: [] })
    expect(body.mediaTypes).toMatchObject({
      registry: 'application/ai-registry+json',
      catalog: 'application/ai-catalog+json',
      attestation: 'application/jose',
    })
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
    expect(body).toMatchObject({
      version: CONTRACT_VERSION,
      publisher: { displayName: 'agent-readiness', identifier: 'localhost', url: 'http://localhost:3000' },
    })
    expect(Number.isNaN(Date.parse(body.generatedAt))).toBe(false)
    expect(body.data).toHaveLength((await agents()).body.total)
    const ids = domains(body.data)
    expect(ids).toEqual([...ids].sort())
    for (const entry of body.data) expect(entry.identifier).toMatch(URN)
  })

  test('the dump streams in keyset batches without losing or repeating an entry', async () => {
    const { pieces: deps } = world.isolated
    const now = new Date('2026-01-01T00:00:00.000Z')
    const batched = await new Response(
      await catalogDumpStream(deps.database.db, deps.config, deps.log, { batchSize: 4, now }),
    ).json()
    const whole = await new Response(await catalogDumpStream(deps.database.db, deps.config, deps.log, { now })).json()
    expect(batched).toEqual(whole)
    expect(batched.data).toHaveLength(world.indexed)
  })

  test('search and explore share 30 requests per minute per IP, counted before validation', async () => {
    const ip = '192.0.2.77'
    for (let hit = 0; hit < 30; hit += 1) {
      const { status } = await send('/api/ard/explore', { method: 'POST', json: {}, ip })
      expect(status).toBe(400)
    }
    const { status, response, body } = await send('/api/ard/search', {
      method: 'POST',
      json: { query: { text: 'shoes' } },
      ip,
    })
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
