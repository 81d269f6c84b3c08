import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Limit } from '../core/limits.ts'
import { JOURNEY_LIMITS, journeyTargetSubject } from '../plugins/journey/limits.ts'
import { clientIp, startWorld, type World } from './support/world.ts'
import { createRun } from './support/journey.ts'

/**
 * The journey create limits (spec, Limits) on whichever store the run uses (in-process, or Redis with REDIS_URL).
 * Windows are filled through the store itself rather than by making a hundred runs.
 */
let world: World
let key: { id: number; key: string }
beforeAll(async () => {
  world = await startWorld(['excellent'], { browser: null, env: { WORKER_CONCURRENCY: '2' }, start: true })
  key = await world.handle.pieces.keys.create('partner', 'journey limits')
})
afterAll(() => world.close())

async function fill({ name, limit, windowMs }: Limit, subject: string, hits: number): Promise<void> {
  for (let index = 0; index < hits; index++)
    await world.handle.pieces.store.slidingWindowHit(`rl:${name}:${subject}`, limit, windowMs)
}

const pricingOn = (domain: string) => ({ intent: { id: 'find-pricing' }, domain })
const uniqueDomain = () => `limits-${crypto.randomUUID().slice(0, 8)}.test`

describe('anonymous journey limits', () => {
  test('burst: the 21st create in a minute from one IP is 429 with Retry-After, X-RateLimit-* of the burst window and no retry_after_ms', async () => {
    const ip = clientIp()
    await fill(JOURNEY_LIMITS.journeyBurst, `ip:${ip}`, 20)
    const response = await createRun(world.handle, pricingOn(uniqueDomain()), { 'x-forwarded-for': ip })
    expect(response.status).toBe(429)
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
    const body = (await response.json()) as Record<string, unknown>
    expect(body.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(body).not.toHaveProperty('retry_after_ms')
    // Like every other answer of the create route, it describes the window that answered: the burst's (issue 20).
    expect(response.headers.get('x-ratelimit-limit')).toBe('20')
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0)
  })

  test('per IP: the 21st run in 24 hours is 429 with retry_after_ms equal to Retry-After; headers describe the target window', async () => {
    const ip = clientIp()
    await fill(JOURNEY_LIMITS.journeyIpDaily, `ip:${ip}`, 20)
    const response = await createRun(world.handle, pricingOn(uniqueDomain()), { 'x-forwarded-for': ip })
    expect(response.status).toBe(429)
    const body = (await response.json()) as { code: string; retry_after_ms: number }
    expect(body.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(Number.isInteger(body.retry_after_ms)).toBe(true)
    expect(body.retry_after_ms).toBeGreaterThan(0)
    expect(body.retry_after_ms).toBe(Number(response.headers.get('retry-after')) * 1000)
    expect(response.headers.get('x-ratelimit-limit')).toBe('100')
    expect(response.headers.get('x-ratelimit-remaining')).toBe('100')
  })

  test('per target: over 100 runs, 200 with the newest stored run, rate_limited and Retry-After; no per-IP unit spent', async () => {
    const domain = uniqueDomain()
    const created = await createRun(world.handle, pricingOn(domain))
    expect(created.status).toBe(201)
    const run = (await created.json()) as { id: string }
    const subject = journeyTargetSubject({ domain, intent: 'find-pricing', harness: 'builtin', model: 'deterministic' })
    await fill(JOURNEY_LIMITS.journeyTargetDaily, subject, 99)
    const ip = clientIp()
    await fill(JOURNEY_LIMITS.journeyIpDaily, `ip:${ip}`, 19)
    const capped = await createRun(world.handle, pricingOn(domain), { 'x-forwarded-for': ip })
    expect(capped.status).toBe(200)
    const body = (await capped.json()) as Record<string, unknown>
    expect(body).toMatchObject({ id: run.id, rate_limited: true, domain, intent_id: 'find-pricing' })
    expect(body).not.toHaveProperty('intent')
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(capped.headers.get('x-ratelimit-limit')).toBe('100')
    expect(capped.headers.get('x-ratelimit-remaining')).toBe('0')
    // The capped answer spent nothing: the IP's last unit still starts a run elsewhere.
    expect((await createRun(world.handle, pricingOn(uniqueDomain()), { 'x-forwarded-for': ip })).status).toBe(201)
  })
})

describe('keyed journey limits', () => {
  test('no burst and no per-target cap; headers describe the key window', async () => {
    const ip = clientIp()
    await fill(JOURNEY_LIMITS.journeyBurst, `ip:${ip}`, 20)
    const domain = uniqueDomain()
    await fill(
      JOURNEY_LIMITS.journeyTargetDaily,
      journeyTargetSubject({ domain, intent: 'find-pricing', harness: 'builtin', model: 'deterministic' }),
      100,
    )
    const response = await createRun(world.handle, pricingOn(domain), {
      'x-forwarded-for': ip,
      authorization: `Bearer ${key.key}`,
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000')
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(1000)
  })

  test('1000 per rolling 24 hours per key, then 429 with retry_after_ms', async () => {
    const own = await world.handle.pieces.keys.create('partner', 'journey limits exhausted')
    await fill(JOURNEY_LIMITS.journeyKeyDaily, `key:${own.id}`, 1000)
    const response = await createRun(world.handle, pricingOn(uniqueDomain()), { authorization: `Bearer ${own.key}` })
    expect(response.status).toBe(429)
    expect(((await response.json()) as { retry_after_ms: number }).retry_after_ms).toBeGreaterThan(0)
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000')
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0')
  })
})
