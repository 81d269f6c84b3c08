import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import {
  type Caller,
  clientIp,
  consume,
  describeIpLimit,
  describeLimit,
  journeyTargetSubject,
  LIMITS,
  type LimitDecision,
  type LimitName,
  limitWindow,
  peek,
  rateLimitHeaders,
  retryAfterSeconds,
  UNKNOWN_IP,
} from './limits.ts'
import { testBackends } from './store/testing.ts'
import type { Store } from './store/types.ts'

const anonymous = (ip: string): Caller => ({ kind: 'anonymous', ip })
const keyed = (tier: 'scan' | 'partner' | 'graph-stream', keyId = 1, ip = '198.51.100.1'): Caller => ({
  kind: 'key',
  ip,
  keyId,
  tier,
  label: `${tier} test key`,
})

describe('the limits table', () => {
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
    expect(limitWindow('openRead')).toBe('minute')
    expect(limitWindow('contact')).toBe('10 minutes')
    expect(limitWindow('scanDaily')).toBe('rolling 24 hours')
    expect(describeLimit('journeyIpDaily')).toBe(`${LIMITS.journeyIpDaily.limit} per rolling 24 hours`)
    expect(describeIpLimit('badge')).toBe(`${LIMITS.badge.limit} requests per minute per IP`)
  })
})

describe('response helpers', () => {
  const decision = (overrides: Partial<LimitDecision>): LimitDecision => ({
    name: 'journeyIpDaily',
    allowed: false,
    exempt: false,
    limit: 20,
    windowMs: 86_400_000,
    remaining: 0,
    resetMs: 0,
    retryAfterMs: 0,
    durable: true,
    ...overrides,
  })

  test('Retry-After rounds up to whole seconds, and the body milliseconds are those seconds', () => {
    expect(retryAfterSeconds(decision({ retryAfterMs: 1 }))).toBe(1)
    expect(retryAfterSeconds(decision({ retryAfterMs: 1_500 }))).toBe(2)
    expect(retryAfterSeconds(decision({ retryAfterMs: 60_000 }))).toBe(60)
    expect(retryAfterSeconds(decision({ allowed: true, retryAfterMs: 0 }))).toBe(0)
  })

  test('rate headers give limit, remaining and seconds until reset', () => {
    expect(rateLimitHeaders(decision({ limit: 100, remaining: 42, resetMs: 3_600_001 }))).toEqual({
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '42',
      'X-RateLimit-Reset': '3601',
    })
  })

  test('per-target subjects keep their four parts apart', () => {
    const a = journeyTargetSubject({ domain: 'a.test', intent: 'x:y', harness: 'h', model: 'm' })
    const b = journeyTargetSubject({ domain: 'a.test', intent: 'x', harness: 'y:h', model: 'm' })
    expect(a).not.toBe(b)
  })
})

describe('clientIp', () => {
  const withForwarded = (value: string) =>
    new Request('http://service.test/', { headers: { 'x-forwarded-for': value } })

  test('without TRUST_PROXY the socket address counts and X-Forwarded-For is ignored', () => {
    expect(clientIp(withForwarded('203.0.113.7'), () => '192.0.2.10', false)).toBe('192.0.2.10')
  })

  test('with TRUST_PROXY the right-most valid forwarded address (the one our proxy appended) counts', () => {
    expect(clientIp(withForwarded('198.51.100.66, 203.0.113.7'), () => '192.0.2.10', true)).toBe('203.0.113.7')
    expect(clientIp(withForwarded('203.0.113.8, unknown, not-an-ip'), () => '192.0.2.10', true)).toBe('203.0.113.8')
    expect(clientIp(withForwarded('203.0.113.9:4711'), () => null, true)).toBe('203.0.113.9')
    expect(clientIp(withForwarded('[2001:DB8::0:1]:443'), () => null, true)).toBe('2001:db8::1')
  })

  test('with TRUST_PROXY but no usable header the socket address counts', () => {
    expect(clientIp(new Request('http://service.test/'), () => '192.0.2.10', true)).toBe('192.0.2.10')
    expect(clientIp(withForwarded('garbage'), () => '192.0.2.10', true)).toBe('192.0.2.10')
  })

  test('IPv4-mapped IPv6 becomes plain IPv4, from the socket or the header', () => {
    expect(clientIp(new Request('http://service.test/'), () => '::ffff:192.0.2.10', false)).toBe('192.0.2.10')
    expect(clientIp(withForwarded('::ffff:203.0.113.7'), () => null, true)).toBe('203.0.113.7')
  })

  test('octal-looking, shortened and out-of-range IPv4 forms are not addresses', () => {
    expect(clientIp(withForwarded('010.1.2.3, 127.1'), () => '192.0.2.10', true)).toBe('192.0.2.10')
    expect(clientIp(withForwarded('256.1.2.3, 1.2.3.04'), () => '192.0.2.10', true)).toBe('192.0.2.10')
    expect(clientIp(withForwarded(' 255.255.255.255 '), () => null, true)).toBe('255.255.255.255')
  })

  test('the socket address is not looked up when a trusted header names the caller', () => {
    const unused = () => {
      throw new Error('socket address looked up')
    }
    expect(clientIp(withForwarded('203.0.113.7'), unused, true)).toBe('203.0.113.7')
  })

  test('no socket and no trusted header is the shared unknown caller', () => {
    expect(clientIp(withForwarded('203.0.113.7'), () => null, false)).toBe(UNKNOWN_IP)
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

    const spend = (name: LimitName, caller: Caller, times: number, subject?: string) =>
      Promise.all(Array.from({ length: times }, () => consume(store, name, caller, subject)))

    test('50 concurrent requests against the scan burst admit exactly 10', async () => {
      const decisions = await spend('scanBurst', anonymous('203.0.113.50'), 50)
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
      await spend('contact', caller, 3)
      const denied = await consume(store, 'contact', caller)
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
      await spend('contact', anonymous('203.0.113.52'), 3)
      expect((await consume(store, 'contact', anonymous('203.0.113.53'))).allowed).toBe(true)
      await spend('contact', anonymous('2001:db8:1:2::1'), 3)
      expect((await consume(store, 'contact', anonymous('2001:db8:1:2:ffff::9'))).allowed).toBe(false)
      expect((await consume(store, 'contact', anonymous('2001:db8:1:3::1'))).allowed).toBe(true)
    })

    test('scan-family keys are exempt from the scan family, and only from it', async () => {
      for (const tier of ['scan', 'partner', 'graph-stream'] as const) {
        const decisions = await spend('scanBurst', keyed(tier, 7, '203.0.113.54'), 15)
        expect(decisions.every((decision) => decision.allowed && decision.exempt)).toBe(true)
        expect((await consume(store, 'scanDaily', keyed(tier))).exempt).toBe(true)
        expect((await consume(store, 'score', keyed(tier))).exempt).toBe(true)
      }
      // An exempt caller spends nothing: the same IP, anonymous, still has its whole burst.
      expect((await consume(store, 'scanBurst', anonymous('203.0.113.54'))).remaining).toBe(9)
      await spend('ardSearch', keyed('partner', 8, '203.0.113.55'), 30)
      expect((await consume(store, 'ardSearch', keyed('partner', 8, '203.0.113.55'))).allowed).toBe(false)
    })

    test('journey: anonymous callers hit the per-IP cap, keyed callers their per-key allowance', async () => {
      const visitor = anonymous('203.0.113.56')
      await spend('journeyIpDaily', visitor, 20)
      const capped = await consume(store, 'journeyIpDaily', visitor)
      expect(capped).toMatchObject({ allowed: false, durable: true })
      expect(retryAfterSeconds(capped)).toBeGreaterThan(86_000)
      expect((await consume(store, 'journeyKeyDaily', visitor)).exempt).toBe(true)

      expect((await consume(store, 'journeyIpDaily', keyed('partner', 9))).exempt).toBe(true)
      expect((await consume(store, 'journeyBurst', keyed('partner', 9))).exempt).toBe(true)
      // One key's allowance follows the key across addresses.
      await consume(store, 'journeyKeyDaily', keyed('partner', 9, '192.0.2.1'))
      const second = await consume(store, 'journeyKeyDaily', keyed('partner', 9, '192.0.2.2'))
      expect(second).toMatchObject({ allowed: true, remaining: 998, exempt: false })
      expect((await consume(store, 'journeyKeyDaily', keyed('partner', 10))).remaining).toBe(999)
    })

    test('the per-target cap needs its subject and counts across IPs', async () => {
      await expect(consume(store, 'journeyTargetDaily', anonymous('203.0.113.57'))).rejects.toThrow('per target')
      const target = journeyTargetSubject({ domain: 'shop.test', intent: 'buy', harness: 'builtin', model: 'none' })
      await consume(store, 'journeyTargetDaily', anonymous('203.0.113.57'), target)
      const fromElsewhere = await consume(store, 'journeyTargetDaily', anonymous('203.0.113.58'), target)
      expect(fromElsewhere.remaining).toBe(98)
      expect(Object.keys(rateLimitHeaders(fromElsewhere))).toHaveLength(3)
    })

    test('peek spends nothing, so a selective run can refuse early and spend after probing', async () => {
      const caller = anonymous('203.0.113.59')
      for (let i = 0; i < 5; i++)
        expect(await peek(store, 'scanDaily', caller)).toMatchObject({ allowed: true, remaining: 30 })
      const spent = await spend('scanDaily', caller, 30)
      expect(spent.every((decision) => decision.allowed)).toBe(true)
      expect(await peek(store, 'scanDaily', caller)).toMatchObject({ allowed: false, remaining: 0 })
    })
  })
}

describe('with the store unreachable', () => {
  test('every limit admits (fails open) instead of throwing', async () => {
    const refused = () => Promise.reject(new Error('connection refused'))
    const down = { slidingWindowHit: refused, slidingWindowPeek: refused } as unknown as Store
    for (const name of ['scanBurst', 'scanDaily'] as const) {
      expect(await consume(down, name, anonymous('198.51.100.9'))).toMatchObject({
        allowed: true,
        exempt: false,
        remaining: LIMITS[name].limit,
      })
      expect((await peek(down, name, anonymous('198.51.100.9'))).allowed).toBe(true)
    }
  })
})
