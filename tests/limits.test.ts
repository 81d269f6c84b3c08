import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import {
  type Caller,
  consume,
  describeIpLimit,
  describeLimit,
  type Limit,
  limitWindow,
  peek,
  rateLimitHeaders,
  retryAfterSeconds,
} from '../core/limits.ts'
import { testBackends } from '../core/store/testing.ts'
import type { Store } from '../core/store/types.ts'
import { BADGE_LIMITS } from '../plugins/badge/limits.ts'
import { ARD_LIMITS } from '../plugins/ard/limits.ts'
import { CONTACT_LIMITS } from '../plugins/contact/limits.ts'
import { JOURNEY_LIMITS, journeyTargetSubject } from '../plugins/journey/limits.ts'
import { LEADERBOARD_LIMITS } from '../plugins/leaderboard/limits.ts'
import { SCAN_LIMITS } from '../plugins/scan/limits.ts'
import { SERVICE_LIMITS } from './support/limits.ts'

/** The service's limits as its features declare them, on each store; the mechanism's own tests are core/limits.test.ts. */
const LIMITS = Object.fromEntries(SERVICE_LIMITS)

const anonymous = (ip: string): Caller => ({ kind: 'anonymous', ip })
const keyed = (tier: 'scan' | 'partner' | 'graph-stream', keyId = 1, ip = '198.51.100.1'): Caller => ({
  kind: 'key',
  ip,
  keyId,
  tier,
  label: `${tier} test key`,
})

describe('the limits table', () => {
  test('the features declare every limit of the service, once', () => {
    expect([...SERVICE_LIMITS.keys()].toSorted()).toEqual(
      [
        'scanBurst',
        'scanDaily',
        'scanForced',
        'score',
        'checksCatalog',
        'ardSearch',
        'ardRead',
        'openRead',
        'contact',
        'feedback',
        'badge',
        'journeyRead',
        'journeyBurst',
        'journeyTargetDaily',
        'journeyIpDaily',
        'journeyKeyDaily',
        'mcp',
      ].toSorted(),
    )
  })

  test('matches the numbers of the spec', () => {
    const table = Object.fromEntries(
      Object.entries(LIMITS).map(([name, spec]) => [name, `${spec.limit}/${spec.windowMs / 60_000}min`]),
    )
    expect(table).toMatchObject({
      scanBurst: '10/1min',
      score: '10/1min',
      scanDaily: '30/1440min',
      scanForced: '6/1440min',
      checksCatalog: '60/1min',
      ardSearch: '30/1min',
      ardRead: '60/1min',
      contact: '3/10min',
      journeyBurst: '20/1min',
      journeyTargetDaily: '100/1440min',
      journeyIpDaily: '20/1440min',
      journeyKeyDaily: '1000/1440min',
    })
  })

  test('the daily budgets, and only they, are durable', () => {
    for (const spec of Object.values(LIMITS)) expect(spec.durable).toBe(spec.windowMs === 86_400_000)
    expect(
      Object.entries(LIMITS)
        .filter(([, spec]) => spec.durable)
        .map(([name]) => name),
    ).toEqual(['scanDaily', 'scanForced', 'journeyTargetDaily', 'journeyIpDaily', 'journeyKeyDaily'])
  })

  test('a limit that counts keys never counts anonymous callers', () => {
    for (const spec of Object.values(LIMITS)) {
      if (spec.per === 'key') expect(spec.exempt as readonly string[]).toContain('anonymous')
    }
  })
})

describe('the sentences descriptions quote', () => {
  test('windows read as a person would say them, counts come from the table', () => {
    expect(limitWindow(LEADERBOARD_LIMITS.openRead)).toBe('minute')
    expect(limitWindow(CONTACT_LIMITS.contact)).toBe('10 minutes')
    expect(limitWindow(SCAN_LIMITS.scanDaily)).toBe('rolling 24 hours')
    expect(describeLimit(JOURNEY_LIMITS.journeyIpDaily)).toBe(
      `${JOURNEY_LIMITS.journeyIpDaily.limit} per rolling 24 hours`,
    )
    expect(describeIpLimit(BADGE_LIMITS.badge)).toBe(`${BADGE_LIMITS.badge.limit} requests per minute per IP`)
  })
})

describe('per-target subjects', () => {
  test('per-target subjects keep their four parts apart', () => {
    const a = journeyTargetSubject({ domain: 'a.test', intent: 'x:y', harness: 'h', model: 'm' })
    const b = journeyTargetSubject({ domain: 'a.test', intent: 'x', harness: 'y:h', model: 'm' })
    expect(a).not.toBe(b)
  })
})

const backends = testBackends()
afterAll(() => Promise.all(backends.map((backend) => backend.cleanup())))

for (const backend of backends) {
  describe.skipIf(backend.skip)(`consume on the ${backend.name} store`, () => {
    let store: Store
    beforeEach(async () => {
      store = await backend.open()
    })
    afterEach(() => store.close())

    const spend = (limit: Limit, caller: Caller, times: number, subject?: string) =>
      Promise.all(Array.from({ length: times }, () => consume(store, limit, caller, subject)))

    test('50 concurrent requests against the scan burst admit exactly 10', async () => {
      const decisions = await spend(SCAN_LIMITS.scanBurst, anonymous('203.0.113.50'), 50)
      const admitted = decisions.filter((decision) => decision.allowed)
      expect(admitted).toHaveLength(10)
      expect(admitted.map((decision) => decision.remaining).toSorted((a, b) => a - b)).toEqual([
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
      ])
      expect(decisions.filter((decision) => !decision.allowed).every((decision) => decision.retryAfterMs > 0)).toBe(
        true,
      )
    })

    test('a denial reports the window, nothing remaining and when to retry', async () => {
      const caller = anonymous('203.0.113.51')
      await spend(CONTACT_LIMITS.contact, caller, 3)
      const denied = await consume(store, CONTACT_LIMITS.contact, caller)
      expect(denied).toMatchObject({
        name: 'contact',
        allowed: false,
        exempt: false,
        limit: 3,
        remaining: 0,
        durable: false,
      })
      expect(denied.retryAfterMs).toBeGreaterThan(9 * 60_000)
      expect(denied.retryAfterMs).toBeLessThanOrEqual(10 * 60_000)
      expect(denied.resetMs).toBeGreaterThanOrEqual(denied.retryAfterMs)
      expect(retryAfterSeconds(denied)).toBe(Math.ceil(denied.retryAfterMs / 1000))
    })

    test('IPs are counted apart, an IPv6 /64 together', async () => {
      await spend(CONTACT_LIMITS.contact, anonymous('203.0.113.52'), 3)
      expect((await consume(store, CONTACT_LIMITS.contact, anonymous('203.0.113.53'))).allowed).toBe(true)
      await spend(CONTACT_LIMITS.contact, anonymous('2001:db8:1:2::1'), 3)
      expect((await consume(store, CONTACT_LIMITS.contact, anonymous('2001:db8:1:2:ffff::9'))).allowed).toBe(false)
      expect((await consume(store, CONTACT_LIMITS.contact, anonymous('2001:db8:1:3::1'))).allowed).toBe(true)
    })

    test('scan-family keys are exempt from the scan family, and only from it', async () => {
      for (const tier of ['scan', 'partner', 'graph-stream'] as const) {
        const decisions = await spend(SCAN_LIMITS.scanBurst, keyed(tier, 7, '203.0.113.54'), 15)
        expect(decisions.every((decision) => decision.allowed && decision.exempt)).toBe(true)
        expect((await consume(store, SCAN_LIMITS.scanDaily, keyed(tier))).exempt).toBe(true)
        expect((await consume(store, SCAN_LIMITS.score, keyed(tier))).exempt).toBe(true)
      }
      // An exempt caller spends nothing: the same IP, anonymous, still has its whole burst.
      expect((await consume(store, SCAN_LIMITS.scanBurst, anonymous('203.0.113.54'))).remaining).toBe(9)
      await spend(ARD_LIMITS.ardSearch, keyed('partner', 8, '203.0.113.55'), 30)
      expect((await consume(store, ARD_LIMITS.ardSearch, keyed('partner', 8, '203.0.113.55'))).allowed).toBe(false)
    })

    test('journey: anonymous callers hit the per-IP cap, keyed callers their per-key allowance', async () => {
      const visitor = anonymous('203.0.113.56')
      await spend(JOURNEY_LIMITS.journeyIpDaily, visitor, 20)
      const capped = await consume(store, JOURNEY_LIMITS.journeyIpDaily, visitor)
      expect(capped).toMatchObject({ allowed: false, durable: true })
      expect(retryAfterSeconds(capped)).toBeGreaterThan(86_000)
      expect((await consume(store, JOURNEY_LIMITS.journeyKeyDaily, visitor)).exempt).toBe(true)

      expect((await consume(store, JOURNEY_LIMITS.journeyIpDaily, keyed('partner', 9))).exempt).toBe(true)
      expect((await consume(store, JOURNEY_LIMITS.journeyBurst, keyed('partner', 9))).exempt).toBe(true)
      // One key's allowance follows the key across addresses.
      await consume(store, JOURNEY_LIMITS.journeyKeyDaily, keyed('partner', 9, '192.0.2.1'))
      const second = await consume(store, JOURNEY_LIMITS.journeyKeyDaily, keyed('partner', 9, '192.0.2.2'))
      expect(second).toMatchObject({ allowed: true, remaining: 998, exempt: false })
      expect((await consume(store, JOURNEY_LIMITS.journeyKeyDaily, keyed('partner', 10))).remaining).toBe(999)
    })

    test('the per-target cap needs its subject and counts across IPs', async () => {
      await expect(consume(store, JOURNEY_LIMITS.journeyTargetDaily, anonymous('203.0.113.57'))).rejects.toThrow(
        'per target',
      )
      const target = journeyTargetSubject({ domain: 'shop.test', intent: 'buy', harness: 'builtin', model: 'none' })
      await consume(store, JOURNEY_LIMITS.journeyTargetDaily, anonymous('203.0.113.57'), target)
      const fromElsewhere = await consume(store, JOURNEY_LIMITS.journeyTargetDaily, anonymous('203.0.113.58'), target)
      expect(fromElsewhere.remaining).toBe(98)
      expect(Object.keys(rateLimitHeaders(fromElsewhere))).toHaveLength(3)
    })

    test('peek spends nothing, so a selective run can refuse early and spend after probing', async () => {
      const caller = anonymous('203.0.113.59')
      for (let i = 0; i < 5; i++)
        expect(await peek(store, SCAN_LIMITS.scanDaily, caller)).toMatchObject({ allowed: true, remaining: 30 })
      const spent = await spend(SCAN_LIMITS.scanDaily, caller, 30)
      expect(spent.every((decision) => decision.allowed)).toBe(true)
      expect(await peek(store, SCAN_LIMITS.scanDaily, caller)).toMatchObject({ allowed: false, remaining: 0 })
    })
  })
}
