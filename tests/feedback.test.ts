import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { AppHandle } from '../app/app.ts'
import { type Kernel, kernelPieces } from '../core/kernel.ts'
import type { CheckStatus } from '../core/engine/check.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { AppError } from '../core/errors.ts'
import type { Store } from '../core/store/types.ts'
import { feedbackFeature, feedbackPlugin } from '../plugins/feedback/index.ts'
import { agentFeedbackInput, type AgentFeedbackInput, checkFeedbackBody } from '../plugins/feedback/model.ts'
import { checkFeedback } from '../plugins/feedback/tables.ts'
import { AgentVerification } from '../plugins/feedback/verification.ts'
import { type ScanRow } from '../plugins/scan/repository.ts'
import { request, testApp } from './helpers.ts'
import { checkResult, discoveryLayer, scanReport } from './support/scan-report.ts'
import { solveChallenge } from './support/solve-challenge.ts'
import { clientIp } from './support/world.ts'

let handle: AppHandle
let app: { handle(request: Request): Promise<Response> }
// Fresh names per run: on a shared PostgreSQL, earlier runs' scans and reports must not reach these assertions.
const run = randomUUID().slice(0, 8)
const scanned = `fb-${run}.test`
const unscanned = `fb-none-${run}.test`
const bundle = `fb-mcp-${run}.test`
let latestScan: ScanRow

type Entry = { id: string; status: CheckStatus; score: number; details: string; mcpUrl?: string }

function report(domain: string, entries: Entry[], overrides: Partial<ScanReport> = {}): ScanReport {
  const checks = entries.map(({ id, status, ...entry }) => checkResult(id, status, entry))
  return scanReport({
    domain,
    score: 40,
    scannedAt: new Date().toISOString(),
    layers: [discoveryLayer(checks)],
    ...overrides,
  })
}

beforeAll(async () => {
  handle = await testApp({ TRUST_PROXY: 'true' })
  app = new Elysia().use(feedbackPlugin(handle.pieces))
  const scans = handle.pieces.scans
  // The older scan has robots-txt, the latest does not: feedback is about the latest scan only.
  await scans.insert(
    report(scanned, [{ id: 'robots-txt', status: 'pass', score: 10, details: 'old' }], {
      scannedAt: '2025-01-01T00:00:00.000Z',
    }),
    { ephemeral: false },
  )
  latestScan = await scans.insert(
    report(scanned, [{ id: 'llms-txt', status: 'fail', score: 0, details: 'No /llms.txt' }]),
    { ephemeral: false },
  )
  await scans.insert(
    report(bundle, [
      { id: 'llms-txt', status: 'pass', score: 10, details: 'first server', mcpUrl: `https://${bundle}/a/mcp` },
      { id: 'llms-txt', status: 'fail', score: 0, details: 'second server', mcpUrl: `https://${bundle}/b/mcp` },
    ]),
    { ephemeral: false },
  )
})
afterAll(() => handle.close())
afterEach(() => setSystemTime())

const post = async (json: unknown, ip = clientIp(), target = app) => {
  const response = await target.handle(
    request('/api/feedback/check', { method: 'POST', json, headers: { 'x-forwarded-for': ip } }),
  )
  return { response, body: (await response.json()) as Record<string, any> }
}
const get = async (path: string) => {
  const response = await app.handle(request(path, { headers: { 'x-forwarded-for': clientIp() } }))
  return { response, body: (await response.json()) as Record<string, any> }
}

const human = (overrides: Record<string, unknown> = {}) => ({
  reporterType: 'human',
  domain: scanned,
  checkId: 'llms-txt',
  reason: 'false_fail',
  message: 'We do publish /llms.txt',
  ...overrides,
})

async function agent(overrides: Record<string, unknown> = {}) {
  const { token, challenge } = await handle.pieces.verification.issue()
  return {
    reporterType: 'agent',
    domain: scanned,
    checkId: 'llms-txt',
    reason: 'false_fail',
    message: 'The file is served with a 200',
    agentId: 'test-agent/1.0',
    verificationToken: token,
    verificationAnswer: solveChallenge(challenge.data),
    ...overrides,
  }
}

/** The deps with a store whose replay markers cannot be written (everything else still works). */
function withFailingStore(deps: Kernel): Kernel {
  const store: Store = Object.create(deps.store, {
    setIfAbsent: { value: () => Promise.reject(new Error('store down')) },
  })
  return { ...deps, store }
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`)
  return error
}

describe('AgentVerification', () => {
  test('a challenge is 40 items with steps, and a token valid for at most 5 minutes', async () => {
    const issued = await handle.pieces.verification.issue()
    expect(issued.challenge.data.items).toHaveLength(40)
    expect(issued.challenge.data.items.every((item) => /^([a-z]+|[0-9]+)$/.test(item))).toBe(true)
    expect(issued.challenge.steps.length).toBeGreaterThan(3)
    const lifetime = Date.parse(issued.expiresAt) - Date.now()
    expect(lifetime).toBeGreaterThan(4 * 60_000)
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000)
  })

  test('round trip: solved once is accepted; the same token again, a wrong answer and an expired token are 401', async () => {
    const verification = handle.pieces.verification
    const { token, challenge } = await verification.issue()
    const answer = solveChallenge(challenge.data)

    const wrong = await rejection(verification.verify(token, `${answer}x`))
    expect([wrong.code, wrong.status, wrong.details?.reason]).toEqual(['AGENT_VERIFICATION_FAILED', 401, 'mismatch'])
    // A wrong answer does not use the token up.
    await verification.verify(token, answer)
    const replay = await rejection(verification.verify(token, answer))
    expect([replay.code, replay.status, replay.details?.reason]).toEqual(['AGENT_VERIFICATION_FAILED', 401, 'replayed'])

    const late = await verification.issue()
    setSystemTime(new Date(Date.now() + 5 * 60_000 + 1000))
    const expired = await rejection(verification.verify(late.token, solveChallenge(late.challenge.data)))
    expect([expired.code, expired.details?.reason]).toEqual(['AGENT_VERIFICATION_FAILED', 'expired'])
  })

  test("an altered token or another token's answer is refused", async () => {
    const verification = handle.pieces.verification
    const first = await verification.issue()
    const second = await verification.issue()
    const [id, expiry, mac] = first.token.split('.')
    const extended = `${id}.${Number(expiry) + 60_000}.${mac}`
    expect((await rejection(verification.verify(extended, solveChallenge(first.challenge.data)))).details?.reason).toBe(
      'mismatch',
    )
    expect(
      (await rejection(verification.verify(first.token, solveChallenge(second.challenge.data)))).details?.reason,
    ).toBe('mismatch')
    expect((await rejection(verification.verify('not-a-token', 'x'))).details?.reason).toBe('malformed')
  })

  test('a store that cannot record the answer is 503 VERIFICATION_UNAVAILABLE, and the token stays usable', async () => {
    const issued = await handle.pieces.verification.issue()
    const answer = solveChallenge(issued.challenge.data)
    const down = await rejection(new AgentVerification(withFailingStore(handle.pieces)).verify(issued.token, answer))
    expect([down.code, down.status]).toEqual(['VERIFICATION_UNAVAILABLE', 503])
    await handle.pieces.verification.verify(issued.token, answer)
  })
})

describe('POST /api/feedback/check', () => {
  test('a human report is stored with the result snapshotted from the latest scan', async () => {
    const { response, body } = await post(
      human({ reporterEmail: 'owner@fb.test', domain: `https://${scanned.toUpperCase()}/pricing` }),
    )
    expect(response.status).toBe(200)
    expect(body.ok).toBe(true)
    const [row] = await handle.pieces.database.db.select().from(checkFeedback).where(eq(checkFeedback.id, body.id))
    expect(row).toMatchObject({
      domain: scanned,
      checkId: 'llms-txt',
      reporterType: 'human',
      reporterEmail: 'owner@fb.test',
      agentId: null,
      scanId: latestScan.id,
      snapshot: { status: 'fail', score: 0, maxScore: 10, details: 'No /llms.txt' },
    })
  })

  test('an MCP bundle report names the server its snapshot comes from', async () => {
    const { response, body } = await post(human({ domain: bundle, mcpUrl: `https://${bundle}/b/mcp` }))
    expect(response.status).toBe(200)
    const [row] = await handle.pieces.database.db.select().from(checkFeedback).where(eq(checkFeedback.id, body.id))
    expect(row?.snapshot).toEqual({
      status: 'fail',
      score: 0,
      maxScore: 10,
      details: 'second server',
      mcpUrl: `https://${bundle}/b/mcp`,
    })
  })

  test('a verified agent report is stored once; the same token again and a wrong answer are 401', async () => {
    const payload = await agent()
    const first = await post(payload)
    expect(first.response.status).toBe(200)
    const [row] = await handle.pieces.database.db
      .select()
      .from(checkFeedback)
      .where(eq(checkFeedback.id, first.body.id))
    expect(row).toMatchObject({ reporterType: 'agent', agentId: 'test-agent/1.0', reporterEmail: null })

    const replay = await post(payload)
    expect(replay.response.status).toBe(401)
    expect(replay.body).toMatchObject({ code: 'AGENT_VERIFICATION_FAILED', error: expect.any(String) })

    const wrong = await post(await agent({ verificationAnswer: 'deadbeefdeadbeef:1:2:YWJj' }))
    expect(wrong.response.status).toBe(401)
    expect(wrong.body.code).toBe('AGENT_VERIFICATION_FAILED')
  })

  test('503 when verification cannot be recorded', async () => {
    // The feedback feature built again over the failing store, as the composition root builds it.
    const failing = {
      ...kernelPieces(withFailingStore(handle.pieces), handle.pieces.errors),
      scans: handle.pieces.scans,
    }
    const degraded = new Elysia().use(feedbackPlugin({ ...failing, ...feedbackFeature.provide!(failing) }))
    const { response, body } = await post(await agent(), clientIp(), degraded)
    expect(response.status).toBe(503)
    expect(body.code).toBe('VERIFICATION_UNAVAILABLE')
  })

  test.each([
    ['an unknown check id', human({ checkId: 'no-such-check' }), 'UNKNOWN_CHECK_IDS'],
    ['a message over 1000 characters', human({ message: 'x'.repeat(1001) }), 'VALIDATION_FAILED'],
    ['an unknown reason', human({ reason: 'bad' }), 'VALIDATION_FAILED'],
    ['an unknown reporter type', human({ reporterType: 'robot' }), 'VALIDATION_FAILED'],
    ['a malformed email', human({ reporterEmail: 'not-an-email' }), 'VALIDATION_FAILED'],
    ['agent fields from a human', human({ agentId: 'x' }), 'VALIDATION_FAILED'],
    ['a missing field', { ...human(), checkId: undefined }, 'VALIDATION_FAILED'],
    ['not a domain', human({ domain: 'localhost' }), 'INVALID_DOMAIN'],
  ])('400 for %s', async (_, payload, code) => {
    const { response, body } = await post(payload)
    expect(response.status).toBe(400)
    expect(body.code).toBe(code)
  })

  test('400 for an agent without verification or with an email, before any token is spent', async () => {
    const missing = await post({ ...(await agent()), verificationToken: undefined, verificationAnswer: undefined })
    expect(missing.response.status).toBe(400)
    expect(missing.body.details.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'verificationAnswer',
      'verificationToken',
    ])

    const payload = await agent({ reporterEmail: 'bot@fb.test' })
    const withEmail = await post(payload)
    expect(withEmail.response.status).toBe(400)
    expect(withEmail.body.details.issues).toEqual([{ path: 'reporterEmail', message: expect.any(String) }])
    // The refused request did not use the token up.
    expect((await post({ ...payload, reporterEmail: undefined })).response.status).toBe(200)
  })

  test('404 for a domain without a scan, or a check that is not in the latest scan', async () => {
    for (const payload of [
      human({ domain: unscanned }),
      human({ checkId: 'robots-txt' }),
      human({ domain: bundle, mcpUrl: `https://${bundle}/c/mcp` }),
      await agent({ domain: unscanned }),
    ]) {
      const { response, body } = await post(payload)
      expect(response.status).toBe(404)
      expect(body.code).toBe('NOT_FOUND')
    }
  })

  test('429 after 10 reports per IP in 10 minutes', async () => {
    const ip = clientIp()
    for (let i = 0; i < 10; i++) expect((await post(human({ checkId: 'no-such-check' }), ip)).response.status).toBe(400)
    const { response, body } = await post(human(), ip)
    expect(response.status).toBe(429)
    expect(body.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
  })

  test('the body model is a plain object schema the MCP tool can reuse', () => {
    expect(checkFeedbackBody.safeParse(human()).success).toBe(true)
    expect(checkFeedbackBody.omit({ reporterType: true, reporterEmail: true }).safeParse(human()).success).toBe(true)
  })
})

describe('agent feedback', () => {
  const domain = `agents-${run}.test`
  const service = () => handle.pieces.feedbackService

  async function submission(overrides: Partial<AgentFeedbackInput> = {}): Promise<AgentFeedbackInput> {
    const { token, challenge } = await handle.pieces.verification.issue()
    return agentFeedbackInput.parse({
      domain,
      agent_id: 'test-agent/1.0',
      user_intent: 'Buy a pair of running shoes in size 42',
      task_description: 'Searched the catalog and tried to check out',
      outcome: 'success',
      content: 'Found the product through the sitemap; checkout worked.',
      recommendation: 'recommend',
      verificationToken: token,
      verificationAnswer: solveChallenge(challenge.data),
      ...overrides,
    })
  }

  beforeAll(async () => {
    await service().submitAgentFeedback(
      await submission({ outcome: 'failure', recommendation: 'not_recommend', layer_scores: { discovery: 2 } }),
    )
    await service().submitAgentFeedback(await submission({ outcome: 'partial_failure', recommendation: 'neutral' }))
  })

  test('legacy stage keys are stored under the current names', async () => {
    const stored = await service().submitAgentFeedback(
      await submission({
        domain: `https://${domain.toUpperCase()}/checkout`,
        friction_points: ['no guest checkout'],
        layer_scores: { discovery: 5, identity: 4, integration: 3, payments: 2, 'in-agent-experience': 1 },
      }),
    )
    expect(stored).toMatchObject({
      id: expect.any(Number),
      domain,
      agent_id: 'test-agent/1.0',
      outcome: 'success',
      friction_points: ['no guest checkout'],
      layer_scores: { discovery: 5, identity: 4, access: 3, payments: 2, experience: 1 },
    })
    expect(Number.isNaN(Date.parse(stored.created_at))).toBe(false)
  })

  test('a legacy key next to its current name is a 400; an unverified report is a 401 and is not stored', async () => {
    const conflict = await rejection(
      service().submitAgentFeedback(await submission({ layer_scores: { access: 3, integration: 4 } })),
    )
    expect([conflict.code, conflict.status]).toEqual(['VALIDATION_FAILED', 400])
    const before = (await service().listAgentFeedback(domain, { limit: 1, offset: 0 })).total
    const unverified = await rejection(service().submitAgentFeedback(await submission({ verificationAnswer: 'wrong' })))
    expect(unverified.code).toBe('AGENT_VERIFICATION_FAILED')
    expect((await service().listAgentFeedback(domain, { limit: 1, offset: 0 })).total).toBe(before)
  })

  test('the input model refuses unknown stages and scores outside 1-5', () => {
    const base = {
      domain,
      agent_id: 'a',
      user_intent: 'u',
      task_description: 't',
      outcome: 'success',
      content: 'c',
      recommendation: 'neutral',
      verificationToken: 't',
      verificationAnswer: 'a',
    }
    expect(agentFeedbackInput.safeParse({ ...base, layer_scores: { checkout: 3 } }).success).toBe(false)
    expect(agentFeedbackInput.safeParse({ ...base, layer_scores: { access: 6 } }).success).toBe(false)
    expect(agentFeedbackInput.safeParse({ ...base, layer_scores: { access: 2.5 } }).success).toBe(false)
    expect(agentFeedbackInput.parse(base)).toMatchObject({ friction_points: [], layer_scores: {} })
  })

  test('GET /api/feedback/{domain} pages the reports newest first', async () => {
    const all = await get(`/api/feedback/${domain}`)
    expect(all.response.status).toBe(200)
    expect(all.body).toMatchObject({ domain, total: 3, limit: 20, offset: 0 })
    expect(all.body.items.map((item: { outcome: string }) => item.outcome)).toEqual([
      'success',
      'partial_failure',
      'failure',
    ])
    expect(all.body.items[0].layer_scores).toEqual({ discovery: 5, identity: 4, access: 3, payments: 2, experience: 1 })

    const second = await get(`/api/feedback/${encodeURIComponent(`https://${domain}/`)}?limit=1&offset=1`)
    expect(second.body).toMatchObject({ domain, total: 3, limit: 1, offset: 1 })
    expect(second.body.items.map((item: { outcome: string }) => item.outcome)).toEqual(['partial_failure'])

    const none = await get(`/api/feedback/${unscanned}`)
    expect(none.body).toMatchObject({ domain: unscanned, items: [], total: 0 })
  })

  test('GET /api/feedback/{domain}/stats counts outcomes and recommendations', async () => {
    const { response, body } = await get(`/api/feedback/${domain}/stats`)
    expect(response.status).toBe(200)
    expect(body).toEqual({
      domain,
      total: 3,
      success_rate: 0.333,
      recommend_rate: 0.333,
      outcomes: { success: 1, partial_failure: 1, failure: 1 },
      recommendations: { recommend: 1, neutral: 1, not_recommend: 1 },
    })
    const empty = await get(`/api/feedback/${unscanned}/stats`)
    expect(empty.body).toMatchObject({
      total: 0,
      success_rate: 0,
      recommend_rate: 0,
      outcomes: { success: 0, partial_failure: 0, failure: 0 },
    })
  })

  test.each([
    ['/api/feedback/localhost', 'INVALID_DOMAIN'],
    [`/api/feedback/${run}.test?limit=0`, 'VALIDATION_FAILED'],
    [`/api/feedback/${run}.test?limit=101`, 'VALIDATION_FAILED'],
    [`/api/feedback/${run}.test?offset=-1`, 'VALIDATION_FAILED'],
    ['/api/feedback/localhost/stats', 'INVALID_DOMAIN'],
  ])('400 for %s', async (path, code) => {
    const { response, body } = await get(path)
    expect(response.status).toBe(400)
    expect(body.code).toBe(code)
  })
})
