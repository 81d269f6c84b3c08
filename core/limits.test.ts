import { describe, expect, test } from 'bun:test'
import {
  type Caller,
  clientIp,
  consume,
  DAY,
  defineLimits,
  describeIpLimit,
  describeLimit,
  type LimitDecision,
  limitWindow,
  MINUTE,
  peek,
  rateLimitHeaders,
  retryAfterSeconds,
  UNKNOWN_IP,
} from './limits.ts'
import type { Store } from './store/types.ts'

// The mechanism over limits of its own; the service's limits, declared by its features, are tests/limits.test.ts.
const TEST_LIMITS = defineLimits({
  burst: { limit: 10, windowMs: MINUTE, durable: false, per: 'ip', exempt: [] },
  daily: { limit: 30, windowMs: DAY, durable: true, per: 'ip', exempt: ['scan'] },
  form: { limit: 3, windowMs: 10 * MINUTE, durable: false, per: 'ip', exempt: [] },
})

describe('defineLimits', () => {
  test('names each spec by its key, the store key of its counters', () => {
    expect(TEST_LIMITS.form).toEqual({
      name: 'form',
      limit: 3,
      windowMs: 10 * MINUTE,
      durable: false,
      per: 'ip',
      exempt: [],
    })
  })
})

describe('the sentences descriptions quote', () => {
  test('windows read as a person would say them, counts come from the limit', () => {
    expect(limitWindow(TEST_LIMITS.burst)).toBe('minute')
    expect(limitWindow(TEST_LIMITS.form)).toBe('10 minutes')
    expect(limitWindow(TEST_LIMITS.daily)).toBe('rolling 24 hours')
    expect(describeLimit(TEST_LIMITS.daily)).toBe('30 per rolling 24 hours')
    expect(describeIpLimit(TEST_LIMITS.burst)).toBe('10 requests per minute per IP')
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

describe('with the store unreachable', () => {
  test('every limit admits (fails open) instead of throwing', async () => {
    const refused = () => Promise.reject(new Error('connection refused'))
    const down = { slidingWindowHit: refused, slidingWindowPeek: refused } as unknown as Store
    const caller: Caller = { kind: 'anonymous', ip: '198.51.100.9' }
    for (const limit of [TEST_LIMITS.burst, TEST_LIMITS.daily]) {
      expect(await consume(down, limit, caller)).toMatchObject({ allowed: true, exempt: false, remaining: limit.limit })
      expect((await peek(down, limit, caller)).allowed).toBe(true)
    }
  })
})
