/**
 * A stored scan changes only through a scan of its own kind and target (issue 20 item 1). Hosts that are at once a
 * website and an MCP (or MCP App) server are scanned every way the API allows: as a domain, as an MCP URL, with a
 * pinned MCP endpoint; selective runs with and without a scan key; stuck results recovered by following their
 * `next_action`; ephemeral requests. Whatever the order, each domain's published result stays what a fresh scan of
 * its own target stores.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { eq, sql } from 'drizzle-orm'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { scans } from '../plugins/scan/tables.ts'
import type { ScanRow } from '../plugins/scan/repository.ts'
import { mcpKey, targetKey } from '../plugins/scan/target.ts'
import { request } from './helpers.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

const MCP_HOST = 'well-made.mcp.test'
const APP_HOST = 'mcp-app.mcp.test'

/** A scan request the API accepts (POST /api/scan and POST /api/scan/checks take the same target fields). */
interface Target {
  url: string
  mcpUrl?: string
}

const TARGETS: Record<string, Target> = {
  blog: { url: 'blog.test' },
  mcpHostAsDomain: { url: MCP_HOST },
  mcp: { url: `https://${MCP_HOST}/mcp` },
  mcpPinned: { url: MCP_HOST, mcpUrl: `https://${MCP_HOST}/mcp` },
  appHostAsDomain: { url: APP_HOST },
  app: { url: `https://${APP_HOST}/mcp` },
}
type TargetName = keyof typeof TARGETS
const TARGET_NAMES = Object.keys(TARGETS) as TargetName[]
const DOMAINS = ['blog.test', MCP_HOST, APP_HOST]

/** Checks of every kind, so that a selective run can carry results that do not belong to the stored scan. */
const CHECK_POOL = [
  'robots-txt',
  'llms-txt',
  'http-error-semantics',
  'mcp-tools-list',
  'mcp-tool-descriptions',
  'mcp-app-ui-resource',
]

let world: World
let key: string
/** What a fresh scan of each target stores, keyed by the measured target (kind, URL, MCP endpoint). */
const baseline = new Map<string, Fingerprint>()
/** The measured-target key of each request. */
const keyOf = new Map<TargetName, string>()

beforeAll(async () => {
  world = await startWorld(['blog'], {
    browser: null,
    mcp: [
      { name: 'well-made', hosts: [MCP_HOST] },
      { name: 'mcp-app', hosts: [APP_HOST] },
    ],
  })
  key = (await world.handle.pieces.keys.create('scan', 'stored integrity')).key
  // What POST /api/scan stores is the engine's static-phase report (rendered checks resolve at once without a browser).
  for (const name of TARGET_NAMES) {
    const report = await scanUrl(TARGETS[name]!.url, world.handle.pieces, {
      mcpUrl: TARGETS[name]!.mcpUrl,
      phase: 'static',
    })
    const target = measured(report)
    keyOf.set(name, target)
    baseline.set(target, fingerprint(report))
  }
})
afterAll(() => world?.close())

const measured = (scanned: { urlKind: string; url: string; mcpUrl?: string | null }) =>
  JSON.stringify([scanned.urlKind, scanned.url, scanned.mcpUrl ?? null])

type Fingerprint = { kind: string; score: number; layers: { id: string; checks: string[] }[] }

/** The stable part of a result: kind, each layer's check ids (per MCP endpoint) with their statuses, the score. */
function fingerprint(report: Pick<ScanReport, 'urlKind' | 'score' | 'layers'>): Fingerprint {
  return {
    kind: report.urlKind,
    score: report.score,
    layers: report.layers.map((layer) => ({
      id: layer.id,
      checks: layer.checks.map((check) => `${check.id} ${check.mcpUrl ?? '-'} ${check.status}`).sort(),
    })),
  }
}

const post = (path: string, json: unknown, keyed = false) =>
  world.handle.app.handle(
    request(path, {
      method: 'POST',
      json,
      headers: { 'x-forwarded-for': clientIp(), ...(keyed ? { authorization: `Bearer ${key}` } : {}) },
    }),
  )
const get = (path: string) => world.handle.app.handle(request(path, { headers: { 'x-forwarded-for': clientIp() } }))
const latest = (domain: string) => world.handle.pieces.scans.latest(domain)
/** The stored scan a keyed selective run of a target may patch: that target's own report, else the domain's newest. */
async function patchCandidate(name: TargetName): Promise<ScanRow | null> {
  const [urlKind, url, mcpUrl] = JSON.parse(keyOf.get(name)!) as [string, string, string | null]
  return (
    (await world.handle.pieces.scans.latestOf(targetKey({ urlKind, url, mcpUrl }))) ?? (await latest(domainOf(name)))
  )
}

/** Every domain's published result is what a fresh scan of its own target stores, and the score route says so. */
async function expectStoredResultsTrue(): Promise<void> {
  for (const domain of DOMAINS) {
    const row = await latest(domain)
    if (!row) continue
    const expected = baseline.get(measured(row))
    expect(expected, `${domain}: stored target ${measured(row)} is not one that was scanned`).toBeDefined()
    const actual = fingerprint(row.result!)
    // Never lowered to `na`: a check of the row's own kind is `na` only where a fresh scan of the target says so.
    const registry = world.handle.pieces.registry
    const freshEntries = new Set(expected!.layers.flatMap((layer) => layer.checks))
    for (const check of row.result!.layers.flatMap((layer) => layer.checks)) {
      if (check.status !== 'na' || !registry.appliesTo(registry.get(check.id)!, row.urlKind)) continue
      expect(freshEntries, `${domain}: ${check.id} lowered to na`).toContain(`${check.id} ${check.mcpUrl ?? '-'} na`)
    }
    expect(actual).toEqual(expected!)
    const published = await get(`/api/score/${domain}`)
    expect(published.status).toBe(200)
    const body = await published.json()
    // The score route shows an ephemeral result's kind as `ephemeral`.
    expect(body.urlKind).toBe(row.ephemeral ? 'ephemeral' : row.urlKind)
    expect(fingerprint({ urlKind: row.urlKind, score: body.score, layers: body.layers })).toEqual(actual)
  }
}

/** Makes a domain's published result stuck, as a worker that died 40 minutes ago leaves it. */
async function strand(domain: string): Promise<ScanRow> {
  const db = world.handle.pieces.database.db
  // Every row of the domain moves back together, so the published one stays the published one.
  await db
    .update(scans)
    .set({ scannedAt: sql`${scans.scannedAt} - interval '40 minutes'` })
    .where(eq(scans.domain, domain))
  const row = (await latest(domain))!
  await db
    .update(scans)
    .set({ analysisStatus: 'partial', result: { ...row.result!, analysisStatus: 'partial' } })
    .where(eq(scans.id, row.id))
  // Written behind the repository's back: drop the score route's cached read as every write does.
  await world.handle.pieces.readCache.invalidate(domain)
  return (await world.handle.pieces.scans.byId(row.id))!
}

/** Reads the stuck pointer of a domain and follows it exactly as a client would. */
async function followNextAction(
  domain: string,
): Promise<{ pointer: { endpoint: string; body: Record<string, unknown> }; answer: Response }> {
  const stuck = await (await get(`/api/score/${domain}`)).json()
  expect(stuck.analysisStatus).toBe('stuck')
  const pointer = stuck.next_action
  expect(pointer.method).toBe('POST')
  return { pointer, answer: await post(pointer.endpoint, pointer.body) }
}

type Action =
  | { type: 'scan'; target: TargetName; force: boolean }
  | { type: 'select'; target: TargetName; checkIds: string[]; keyed: boolean }
  | { type: 'stuck'; domain: string }
  | { type: 'ephemeral'; target: TargetName }

const actions: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ type: fc.constant('scan' as const), target: fc.constantFrom(...TARGET_NAMES), force: fc.boolean() }),
  fc.record({
    type: fc.constant('select' as const),
    target: fc.constantFrom(...TARGET_NAMES),
    checkIds: fc.subarray(CHECK_POOL, { minLength: 1 }),
    keyed: fc.boolean(),
  }),
  fc.record({ type: fc.constant('stuck' as const), domain: fc.constantFrom(...DOMAINS) }),
  fc.record({ type: fc.constant('ephemeral' as const), target: fc.constantFrom(...TARGET_NAMES) }),
)

const domainOf = (name: TargetName) => new URL(JSON.parse(keyOf.get(name)!)[1]).hostname

async function perform(action: Action): Promise<void> {
  if (action.type === 'scan') {
    const response = await post('/api/scan', { ...TARGETS[action.target], ...(action.force ? { force: true } : {}) })
    expect(response.status).toBe(200)
    return
  }
  if (action.type === 'select') {
    const before = await patchCandidate(action.target)
    const response = await post(
      '/api/scan/checks',
      { ...TARGETS[action.target], checkIds: action.checkIds },
      action.keyed,
    )
    expect(response.status).toBe(200)
    const body = await response.json()
    const patchable =
      action.keyed && before !== null && !before.ephemeral && measured(before) === keyOf.get(action.target)
    expect(body.storedScanUpdated).toBe(patchable)
    expect(typeof body.storedScanNote).toBe(action.keyed && !patchable ? 'string' : 'undefined')
    if (!patchable && before)
      expect(JSON.stringify(await world.handle.pieces.scans.latestOf(before.target))).toBe(JSON.stringify(before))
    return
  }
  if (action.type === 'stuck') {
    if (!(await latest(action.domain))) return
    const stuck = await strand(action.domain)
    const { answer } = await followNextAction(action.domain)
    expect(answer.status).toBe(200)
    expect(measured((await latest(action.domain))!)).toBe(measured(stuck))
    return
  }
  const hasReal = await world.handle.pieces.scans.hasRealScan(domainOf(action.target))
  const response = await post('/api/scan', { ...TARGETS[action.target], ephemeral: true })
  expect(response.status).toBe(hasReal ? 400 : 200)
}

test('any sequence of scans, selective runs, stuck recoveries and ephemeral requests keeps every stored result true', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(actions, { minLength: 1, maxLength: 5 }), async (sequence) => {
      for (const action of sequence) {
        await perform(action)
        await expectStoredResultsTrue()
      }
    }),
    { numRuns: 12 },
  )
})

describe('acceptance', () => {
  test("a keyed selective run of an MCP URL without a report of its own leaves the host's website scan byte-identical and says why", async () => {
    // One report per target: an MCP run patches only the MCP server's own report, never the host's website report.
    await world.handle.pieces.database.db.delete(scans).where(eq(scans.target, mcpKey(`https://${MCP_HOST}/mcp`)))
    expect((await post('/api/scan', { url: MCP_HOST, force: true })).status).toBe(200)
    const before = (await latest(MCP_HOST))!
    expect(before.urlKind).toBe('domain')
    const publishedBefore = await (await get(`/api/score/${MCP_HOST}`)).text()

    const response = await post(
      '/api/scan/checks',
      { url: `https://${MCP_HOST}/mcp`, checkIds: ['robots-txt', 'mcp-tools-list'] },
      true,
    )
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ urlKind: 'mcp', storedScanUpdated: false })
    expect(body.storedScanNote).toContain('is a domain scan of https://well-made.mcp.test/;')
    expect(body.storedScanNote).toContain('this run was an MCP scan of https://well-made.mcp.test/mcp,')
    // The live results are still answered.
    expect(body.results.find((entry: { id: string }) => entry.id === 'mcp-tools-list').status).not.toBe('na')

    const after = (await latest(MCP_HOST))!
    expect(after.id).toBe(before.id)
    expect(JSON.stringify(after)).toBe(JSON.stringify(before))
    expect(await (await get(`/api/score/${MCP_HOST}`)).text()).toBe(publishedBefore)

    // Once the MCP server has a report of its own, the same run patches that one, and the website's stays as it was.
    expect((await post('/api/scan', { url: `https://${MCP_HOST}/mcp`, force: true })).status).toBe(200)
    const website = JSON.stringify(await world.handle.pieces.scans.latestOf(before.target))
    const patched = await (
      await post('/api/scan/checks', { url: `https://${MCP_HOST}/mcp`, checkIds: ['mcp-tools-list'] }, true)
    ).json()
    expect(patched.storedScanUpdated).toBe(true)
    expect(JSON.stringify(await world.handle.pieces.scans.latestOf(before.target))).toBe(website)

    // The same key on the stored scan's own target patches it, with no note.
    const own = await (await post('/api/scan/checks', { url: MCP_HOST, checkIds: ['robots-txt'] }, true)).json()
    expect(own.storedScanUpdated).toBe(true)
    expect(own.storedScanNote).toBeUndefined()
    // Keyless runs stay stateless and carry no note.
    const keyless = await (await post('/api/scan/checks', { url: MCP_HOST, checkIds: ['robots-txt'] })).json()
    expect(keyless.storedScanUpdated).toBe(false)
    expect(keyless).not.toHaveProperty('storedScanNote')
  })

  test("following a stuck MCP result's next_action rescans the MCP target; an older complete result does not answer it", async () => {
    const mcpUrl = `https://${MCP_HOST}/mcp`
    // Two complete scans of the target: the older one is within the freshness window once the newer is stuck.
    for (let index = 0; index < 2; index++)
      expect((await post('/api/scan', { url: mcpUrl, force: true })).status).toBe(200)
    const stuck = await strand(MCP_HOST)
    expect(stuck.urlKind).toBe('mcp')

    const audit = await (await get(`/api/score/${MCP_HOST}?format=audit`)).json()
    expect(audit.nextAction).toMatchObject({ method: 'POST', endpoint: '/api/scan', body: { url: mcpUrl, mcpUrl } })
    const { pointer, answer } = await followNextAction(MCP_HOST)
    expect(pointer.body).toEqual({ url: mcpUrl, mcpUrl })
    expect(answer.status).toBe(200)
    const rescanned = await answer.json()
    expect(rescanned).toMatchObject({ urlKind: 'mcp', analysisStatus: 'complete' })
    expect(rescanned.servedFromCache).toBeUndefined()
    const published = (await latest(MCP_HOST))!
    expect(published.id).not.toBe(stuck.id)
    expect(measured(published)).toBe(measured(stuck))
  })

  test('a stuck pinned MCP result and a stuck MCP App result are rescanned as themselves', async () => {
    const pinned = { url: MCP_HOST, mcpUrl: `https://${MCP_HOST}/mcp` }
    expect((await post('/api/scan', { ...pinned, force: true })).status).toBe(200)
    const stuckPinned = await strand(MCP_HOST)
    const followedPinned = await followNextAction(MCP_HOST)
    expect(followedPinned.pointer.body).toEqual({ url: `https://${MCP_HOST}/`, mcpUrl: pinned.mcpUrl })
    expect((await followedPinned.answer.json()).urlKind).toBe('mcp')
    expect(measured((await latest(MCP_HOST))!)).toBe(measured(stuckPinned))

    expect((await post('/api/scan', { url: `https://${APP_HOST}/mcp`, force: true })).status).toBe(200)
    const stuckApp = await strand(APP_HOST)
    expect(stuckApp.urlKind).toBe('mcp-app')
    const followedApp = await followNextAction(APP_HOST)
    expect((await followedApp.answer.json()).urlKind).toBe('mcp-app')
    expect(measured((await latest(APP_HOST))!)).toBe(measured(stuckApp))
  })

  test('a fresh pinned MCP result never answers a request for the bare domain', async () => {
    expect((await post('/api/scan', { url: MCP_HOST, mcpUrl: `https://${MCP_HOST}/mcp`, force: true })).status).toBe(
      200,
    )
    // The pinned result is the newest row with URL https://well-made.mcp.test/; the bare host still gets a domain result.
    for (let index = 0; index < 2; index++)
      expect((await (await post('/api/scan', { url: MCP_HOST })).json()).urlKind).toBe('domain')
    expect((await (await post('/api/scan', { url: MCP_HOST, mcpUrl: `https://${MCP_HOST}/mcp` })).json()).urlKind).toBe(
      'mcp',
    )
  })
})
