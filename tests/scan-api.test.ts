import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { inArray } from 'drizzle-orm'
import { CONTRACT_VERSION } from '../core/version.ts'
import { consume } from '../core/limits.ts'
import { SCAN_LIMITS } from '../plugins/scan/limits.ts'
import { scoreHistory } from '../plugins/scan/tables.ts'
import { request, testApp } from './helpers.ts'
import { freeLoopbackPort } from './support/ports.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

let world: World
// v2 rows stay `pending` for good: fresh names per run keep an earlier run's rows out of these assertions.
const v2Host = `v2-${randomUUID().slice(0, 8)}.test`
const v2OnlyHost = `v2only-${randomUUID().slice(0, 8)}.test`

beforeAll(async () => {
  world = await startWorld(['blog', 'excellent'], {
    browser: null,
    env: { V2_SCAN_ENABLED: 'true' },
    // An MCP endpoint that demands a bearer token, on a site whose homepage is public; the same fixture also
    // answers as a tunnel host, a fresh ephemeral domain and the v2 domains.
    mcp: [
      {
        name: 'auth-required',
        hosts: ['auth-mcp.test', 'demo.trycloudflare.com', 'disposable.test', v2Host, v2OnlyHost],
      },
    ],
    extraResolve: [`gone.test:443:127.0.0.1:${freeLoopbackPort()}`],
  })
})
afterAll(() => world.close())

const app = () => world.handle.app
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  app().handle(request(path, { method: 'POST', json, headers: { 'x-forwarded-for': clientIp(), ...headers } }))
const get = (path: string, headers: Record<string, string> = {}) =>
  app().handle(request(path, { headers: { 'x-forwarded-for': clientIp(), ...headers } }))

describe('POST /api/scan', () => {
  test('schema failure, invalid domain and unreachable domain are 400s with the spec body', async () => {
    const missing = await post('/api/scan', {})
    expect(missing.status).toBe(400)
    expect((await missing.json()).code).toBe('VALIDATION_FAILED')
    const invalid = await post('/api/scan', { url: 'not a domain' })
    expect(invalid.status).toBe(400)
    expect((await invalid.json()).code).toBe('INVALID_DOMAIN')
    const unreachable = await post('/api/scan', { url: 'gone.test' })
    expect(unreachable.status).toBe(400)
    const body = await unreachable.json()
    expect(body.code).toBe('DOMAIN_UNREACHABLE')
    expect(typeof body.error).toBe('string')
  })

  test('a live scan is stored and complete (200); the score route then returns it', async () => {
    // Forced: on a shared database another test file may already hold a fresh result for this site.
    const response = await post('/api/scan', { url: 'blog.test', force: true })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const result = await response.json()
    expect(result).toMatchObject({
      domain: 'blog.test',
      urlKind: 'domain',
      analysisStatus: 'complete',
      pendingChecks: [],
      maxScore: 100,
    })
    expect(result.score).toBeGreaterThanOrEqual(0)
    expect(['A+', 'A', 'B', 'C', 'D', 'F']).toContain(result.grade)
    expect(result.layers.map((layer: { id: string }) => layer.id)).toEqual([
      'discovery',
      'accessibility',
      'usability',
      'payments',
    ])
    expect(result.servedFromCache).toBeUndefined()
    expect(result.topFixes.length).toBeLessThanOrEqual(6)
    for (const check of result.layers.flatMap((layer: { checks: unknown[] }) => layer.checks)) {
      expect(check).not.toHaveProperty('fraction')
    }

    const score = await get('/api/score/blog.test')
    expect(score.status).toBe(200)
    expect(score.headers.get('cache-control')).toBe('public, max-age=3600')
    const stored = await score.json()
    expect(stored.score).toBe(result.score)
    expect(stored.scannedAt).toBe(result.scannedAt)
  })

  test('a fresh stored result is served from cache with Age and spends no budget; force scans again', async () => {
    const ip = clientIp()
    await post('/api/scan', { url: 'excellent.test', force: true }, { 'x-forwarded-for': ip })
    const cached = await post(
      '/api/scan',
      { url: 'https://excellent.test/', maxAgeSeconds: 5 },
      { 'x-forwarded-for': ip },
    )
    expect(cached.status).toBe(200)
    const body = await cached.json()
    expect(body.servedFromCache).toBe(true)
    expect(body.resultAgeSeconds).toBeGreaterThanOrEqual(0)
    expect(Number(cached.headers.get('age'))).toBe(body.resultAgeSeconds)
    const budget = await consume(world.handle.pieces.store, SCAN_LIMITS.scanDaily, { kind: 'anonymous', ip })
    expect(budget.remaining).toBe(30 - 2) // the live scan and this probe; the freshness hit spent nothing

    // Read the score first so that a rendered read is cached, then rescan: the read must follow at once.
    expect((await (await get('/api/score/excellent.test')).json()).scannedAt).toBe(body.scannedAt)
    const forced = await post('/api/scan', { url: 'excellent.test', force: true }, { 'x-forwarded-for': ip })
    expect(forced.status).toBe(200)
    const forcedBody = await forced.json()
    expect(forcedBody.servedFromCache).toBeUndefined()
    expect(forcedBody.scannedAt).not.toBe(body.scannedAt)
    const reread = await get('/api/score/excellent.test')
    expect((await reread.json()).scannedAt).toBe(forcedBody.scannedAt)
    expect(reread.headers.get('x-request-id')).toBeTruthy()
  })

  test('ephemeral results are disposable; an explicit ephemeral scan never hides a real one', async () => {
    const clobber = await post('/api/scan', { url: 'blog.test', ephemeral: true })
    expect(clobber.status).toBe(400)
    expect((await clobber.json()).code).toBe('EPHEMERAL_CLOBBER')

    const explicit = await post('/api/scan', { url: 'disposable.test', ephemeral: true })
    expect(explicit.status).toBe(200)
    expect((await explicit.json()).urlKind).toBe('ephemeral')
    const read = await get('/api/score/disposable.test')
    expect(read.headers.get('cache-control')).toBe('no-store')
    expect((await read.json()).urlKind).toBe('ephemeral')

    // Public tunnel hosts are always ephemeral, asked or not.
    const tunnel = await post('/api/scan', { url: 'demo.trycloudflare.com' })
    expect(tunnel.status).toBe(200)
    expect((await tunnel.json()).urlKind).toBe('ephemeral')
    const history = await world.handle.pieces.database.db.$count(
      scoreHistory,
      inArray(scoreHistory.domain, ['disposable.test', 'demo.trycloudflare.com']),
    )
    expect(history).toBe(0)
  })

  test('the daily budget denial is a 429 with Retry-After and retry_after_ms', async () => {
    const ip = clientIp()
    for (let i = 0; i < 30; i++)
      await consume(world.handle.pieces.store, SCAN_LIMITS.scanDaily, { kind: 'anonymous', ip })
    const denied = await post('/api/scan', { url: 'blog.test', force: true }, { 'x-forwarded-for': ip })
    expect(denied.status).toBe(429)
    const body = await denied.json()
    expect(body.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(body.retry_after_ms).toBe(Number(denied.headers.get('retry-after')) * 1000)
  })

  test('the burst limit admits 10 per minute per IP', async () => {
    const ip = clientIp()
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) statuses.push((await post('/api/scan', {}, { 'x-forwarded-for': ip })).status)
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true)
    expect(statuses[10]).toBe(429)
  })

  test('an MCP server that needs auth is a 422 and leaves the earlier measured scan untouched', async () => {
    const measured = await post('/api/scan', { url: 'auth-mcp.test' })
    expect(measured.status).toBe(200)
    const before = await (await get('/api/score/auth-mcp.test')).json()

    const response = await post('/api/scan', { url: 'https://auth-mcp.test/mcp' })
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({
      code: 'MCP_AUTH_REQUIRED',
      mcpAuthRequired: true,
      mcpUrl: 'https://auth-mcp.test/mcp',
      urlKind: 'mcp',
      error: expect.any(String),
    })
    const after = await get('/api/score/auth-mcp.test')
    expect(after.status).toBe(200)
    expect((await after.json()).scannedAt).toBe(before.scannedAt)
  })
})

describe('GET /api/score/{domain}', () => {
  test('404 DOMAIN_NOT_SCANNED with next_action (nextAction under audit), never cached', async () => {
    const response = await get('/api/score/never-scanned.example')
    expect(response.status).toBe(404)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toMatchObject({
      code: 'DOMAIN_NOT_SCANNED',
      domain: 'never-scanned.example',
      next_action: { method: 'POST', endpoint: '/api/scan', body: { url: 'never-scanned.example' } },
    })
    const audit = await (await get('/api/score/never-scanned.example?format=audit')).json()
    expect(audit.nextAction.endpoint).toBe('/api/scan')
    expect(audit.next_action).toBeUndefined()
  })

  test('a URL-encoded full URL is normalised to its hostname', async () => {
    const response = await get(`/api/score/${encodeURIComponent('https://blog.test/some/page')}`)
    expect(response.status).toBe(200)
    expect((await response.json()).domain).toBe('blog.test')
  })

  test('format=audit carries every required AuditScoreResult field', async () => {
    const audit = await (await get('/api/score/blog.test?format=audit')).json()
    for (const field of [
      'domain',
      'name',
      'score',
      'scoreMax',
      'grade',
      'gradeColor',
      'scannedAt',
      'durationMs',
      'layers',
      'topFixes',
      'url',
      'generatedAt',
      'source',
      'contractVersion',
    ]) {
      expect(audit).toHaveProperty(field)
    }
    expect(audit.ctaMessage).toBeUndefined()
    expect(audit.scoreMax).toBe(100)
    expect(audit.contractVersion).toBe(CONTRACT_VERSION)
    expect(audit.url).toBe('http://localhost:3000/site/blog.test')
    expect(audit.source).toBe('localhost:3000')
    expect(audit.gradeColor).toMatch(/^#[0-9a-f]{6}$/)
    for (const layer of audit.layers)
      for (const field of ['id', 'name', 'score', 'maxScore', 'checks']) expect(layer).toHaveProperty(field)
  })

  test('include=essentials and include=siteType add their readings; without include the body is unchanged', async () => {
    const plain = await (await get('/api/score/blog.test')).json()
    expect(plain.essentials).toBeUndefined()
    expect(plain.siteType).toBeUndefined()
    const both = await (await get('/api/score/blog.test?include=essentials,siteType')).json()
    expect(both.essentials.score === null || typeof both.essentials.score === 'number').toBe(true)
    expect(both.essentials.checks['robots-ai-agents-allowed']).toBeUndefined()
    expect(both.siteType).toHaveProperty('type')
    expect(['declared', 'self-declared', 'classified', 'default', 'blocked', 'unavailable']).toContain(
      both.siteType.source,
    )
    const declared = await (await get('/api/score/blog.test?include=siteType&siteType=store')).json()
    expect(declared.siteType).toMatchObject({ type: 'store', source: 'declared' })
    const ignored = await (await get('/api/score/blog.test?include=siteType&siteType=casino')).json()
    expect(ignored.siteType.source).not.toBe('declared')
  })

  test('competitors=1 adds the competitor set: null for an unclassified domain, the category pool otherwise', async () => {
    const plain = await (await get('/api/score/blog.test')).json()
    expect(plain).not.toHaveProperty('competitors')
    // The blog fixture falls in no market category: competitors is present and null.
    expect((await (await get('/api/score/blog.test?competitors=1')).json()).competitors).toBeNull()
    const classified = await (await get('/api/score/excellent.test?competitors=1&format=audit')).json()
    expect(classified.category).toBe('developer-tools')
    expect(classified.competitors.category).toBe('developer-tools')
    expect(classified.competitors.neighbors.find((row: { isSelf: boolean }) => row.isSelf)).toMatchObject({
      domain: 'excellent.test',
      rank: expect.any(Number),
    })
    expect(classified.competitors.leaders.length).toBeLessThanOrEqual(5)
  })

  test('repeated reads are served from the read cache yet spend the per-IP limit, carry their own request id and never lag a scan', async () => {
    const first = await (await post('/api/scan', { url: 'blog.test', force: true })).json()
    const ip = clientIp()
    const reads = []
    for (let i = 0; i < 10; i++) reads.push(await get('/api/score/blog.test', { 'x-forwarded-for': ip }))
    expect(reads.map((read) => read.status)).toEqual(Array(10).fill(200))
    const bodies = await Promise.all(reads.map((read) => read.text()))
    expect(new Set(bodies).size).toBe(1)
    expect(JSON.parse(bodies[0]!).scannedAt).toBe(first.scannedAt)
    expect(new Set(reads.map((read) => read.headers.get('x-request-id'))).size).toBe(10)
    expect(reads.every((read) => read.headers.get('cache-control') === 'public, max-age=3600')).toBe(true)
    const denied = await get('/api/score/blog.test', { 'x-forwarded-for': ip })
    expect(denied.status).toBe(429)
    expect((await denied.json()).code).toBe('RATE_LIMIT_EXCEEDED')

    // Another spelling of the same read is answered in its own shape, not from the plain read's entry.
    expect((await (await get('/api/score/blog.test?format=audit')).json()).contractVersion).toBe(CONTRACT_VERSION)
    const second = await (await post('/api/scan', { url: 'blog.test', force: true })).json()
    expect(second.scannedAt).not.toBe(first.scannedAt)
    expect((await (await get('/api/score/blog.test')).json()).scannedAt).toBe(second.scannedAt)
    expect((await (await get('/api/score/blog.test?format=audit')).json()).scannedAt).toBe(second.scannedAt)
  })

  test('a partial result older than 30 minutes reads as stuck with next_action and is not cached', async () => {
    const repository = world.handle.pieces.scans
    const stored = await repository.latest('blog.test')
    const stale = {
      ...stored!.result!,
      domain: 'stuck.example',
      url: 'https://stuck.example/',
      analysisStatus: 'partial' as const,
      pendingChecks: ['webmcp-tools'],
      scannedAt: new Date(Date.now() - 31 * 60_000).toISOString(),
    }
    await repository.insert(stale, { ephemeral: false })
    const response = await get('/api/score/stuck.example')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await response.json()
    expect(body.analysisStatus).toBe('stuck')
    // The pointer names the stored target itself (scanned again, it is the same scan).
    expect(body.next_action).toMatchObject({
      method: 'POST',
      endpoint: '/api/scan',
      body: { url: 'https://stuck.example/' },
    })
  })

  test('a stored scan answers with the contract version that produced it; a live scan records the current one', async () => {
    const repository = world.handle.pieces.scans
    const stored = (await repository.latest('blog.test'))!.result!
    expect(stored.contractVersion).toBe(CONTRACT_VERSION)
    await repository.insert(
      { ...stored, domain: 'older-contract.example', contractVersion: '1.26.0' },
      { ephemeral: false },
    )
    expect((await (await get('/api/score/older-contract.example?format=audit')).json()).contractVersion).toBe('1.26.0')
  })

  test('check evidence is stored with the result and never rendered, in either shape', async () => {
    const repository = world.handle.pieces.scans
    const stored = (await repository.latest('blog.test'))!.result!
    const evidence = { mcpEndpoints: [{ url: 'https://evidence.example/mcp', source: 'server-card' }] }
    const layers = stored.layers.map((layer) => ({
      ...layer,
      checks: layer.checks.map((check) => ({ ...check, evidence })),
    }))
    await repository.insert({ ...stored, domain: 'evidence.example', layers }, { ephemeral: false })
    expect((await repository.latest('evidence.example'))!.result!.layers[0]!.checks[0]!.evidence).toEqual(evidence)
    for (const path of ['/api/score/evidence.example', '/api/score/evidence.example?format=audit']) {
      const body = await (await get(path)).json()
      for (const check of body.layers.flatMap((layer: { checks: unknown[] }) => layer.checks))
        expect(check).not.toHaveProperty('evidence')
      expect(JSON.stringify(body)).not.toContain('evidence.example/mcp')
    }
  })
})

describe('POST /api/scan/checks', () => {
  test('unknown ids are a 400 UNKNOWN_CHECK_IDS listing them; nothing is spent', async () => {
    const ip = clientIp()
    const response = await post(
      '/api/scan/checks',
      { url: 'blog.test', checkIds: ['robots-txt', 'no-such-check'] },
      { 'x-forwarded-for': ip },
    )
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.code).toBe('UNKNOWN_CHECK_IDS')
    expect(body.details.unknownIds).toEqual(['no-such-check'])
    expect((await consume(world.handle.pieces.store, SCAN_LIMITS.scanDaily, { kind: 'anonymous', ip })).remaining).toBe(
      29,
    )
  })

  test('runs live, removes duplicates, answers every id (na for other kinds), never pending, stateless without a key', async () => {
    const ip = clientIp()
    const response = await post(
      '/api/scan/checks',
      { url: 'blog.test', checkIds: ['robots-txt', 'robots-txt', 'sitemap-xml', 'webmcp-tools'], mcpUrl: '' },
      { 'x-forwarded-for': ip },
    )
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({
      contractVersion: CONTRACT_VERSION,
      domain: 'blog.test',
      urlKind: 'domain',
      storedScanUpdated: false,
    })
    expect(body.results.map((entry: { id: string }) => entry.id).sort()).toEqual([
      'robots-txt',
      'sitemap-xml',
      'webmcp-tools',
    ])
    expect(body.results.every((entry: { status: string }) => entry.status !== 'pending')).toBe(true)
    expect(body.score).toBeUndefined()
    expect((await consume(world.handle.pieces.store, SCAN_LIMITS.scanDaily, { kind: 'anonymous', ip })).remaining).toBe(
      28,
    )
  })

  test('a scan key patches the stored scan and re-scores it', async () => {
    const key = await world.handle.pieces.keys.create('scan', 'selective test')
    const response = await post(
      '/api/scan/checks',
      { url: 'blog.test', checkIds: ['robots-txt'] },
      { authorization: `Bearer ${key.key}` },
    )
    expect(response.status).toBe(200)
    expect((await response.json()).storedScanUpdated).toBe(true)
  })
})

describe('POST /api/v2/scan', () => {
  test('201 pending row, then 200 with the same in-progress row; 422 when unreachable', async () => {
    const created = await post('/api/v2/scan', { url: v2Host })
    expect(created.status).toBe(201)
    const body = await created.json()
    expect(body).toEqual({ scanId: expect.any(Number), status: 'pending', pollUrl: `/api/v2/scan/${body.scanId}` })
    const again = await post('/api/v2/scan', { url: `https://${v2Host}/` })
    expect(again.status).toBe(200)
    expect((await again.json()).scanId).toBe(body.scanId)
    const poll = await get(body.pollUrl)
    expect((await poll.json()).status).toBe('pending')
    const unreachable = await post('/api/v2/scan', { url: 'gone.test' })
    expect(unreachable.status).toBe(422)
    expect((await unreachable.json()).code).toBe('TARGET_UNREACHABLE')
  })

  test('v1 reads never see v2 rows', async () => {
    const created = await post('/api/v2/scan', { url: v2OnlyHost })
    expect(created.status).toBe(201)
    expect((await get(`/api/score/${v2OnlyHost}`)).status).toBe(404)
  })
})

test('POST /api/v2/scan is 503 when the deployment has not enabled it', async () => {
  const disabled = await testApp()
  try {
    const response = await disabled.app.handle(
      request('/api/v2/scan', { method: 'POST', json: { url: 'example.com' } }),
    )
    expect(response.status).toBe(503)
    expect((await response.json()).code).toBe('V2_SCAN_DISABLED')
  } finally {
    await disabled.close()
  }
})
