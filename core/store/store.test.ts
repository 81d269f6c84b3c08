import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { openStore } from './index.ts'
import { type TestBackend, testBackends } from './testing.ts'
import type { Store } from './types.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Gathers messages; `received()` waits for `count` of them and fails fast, after `timeoutMs`, on a lost one. */
function collect(count: number, timeoutMs = 2_000) {
  const messages: string[] = []
  const arrivals: Array<() => void> = []
  return {
    messages,
    onMessage: (message: string) => {
      messages.push(message)
      for (const notify of arrivals) notify()
    },
    received: () =>
      new Promise<string[]>((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return
          clearTimeout(timer)
          resolve(messages)
        }
        const timer = setTimeout(
          () => reject(new Error(`only ${messages.length} of ${count} messages arrived`)),
          timeoutMs,
        )
        arrivals.push(check)
        check()
      }),
  }
}

/** The one contract both stores must honour; every behaviour is asserted identically on each. */
function storeContract(backend: TestBackend) {
  let store: Store
  beforeEach(async () => {
    store = await backend.open()
  })
  afterEach(() => store.close())

  test('reports its kind and answers ping', async () => {
    expect(store.kind).toBe(backend.name)
    await store.ping()
  })

  describe('values', () => {
    test('set, get and del', async () => {
      expect(await store.get('missing')).toBeNull()
      await store.set('plain', 'v1')
      expect(await store.get('plain')).toBe('v1')
      await store.set('plain', 'v2')
      expect(await store.get('plain')).toBe('v2')
      await store.del('plain')
      expect(await store.get('plain')).toBeNull()
    })

    test('a value with a TTL expires', async () => {
      await store.set('short', 'v', 50)
      expect(await store.get('short')).toBe('v')
      await sleep(80)
      expect(await store.get('short')).toBeNull()
    })

    test('setIfAbsent admits exactly one of many concurrent callers, and again after expiry', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.setIfAbsent('nonce', `c${i}`, 80)))
      expect(results.filter(Boolean)).toHaveLength(1)
      expect(await store.get('nonce')).toBe(`c${results.indexOf(true)}`)
      expect(await store.setIfAbsent('nonce', 'late', 80)).toBe(false)
      await sleep(110)
      expect(await store.setIfAbsent('nonce', 'after', 80)).toBe(true)
    })

    test('incr counts atomically and expires from the first increment, not the last', async () => {
      const counts = await Promise.all(Array.from({ length: 25 }, () => store.incr('counter', 150)))
      expect(counts.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1))
      expect(await store.get('counter')).toBe('25')
      await sleep(100)
      expect(await store.incr('counter', 150)).toBe(26)
      await sleep(80)
      expect(await store.get('counter')).toBeNull()
      expect(await store.incr('counter', 150)).toBe(1)
    })
  })

  describe('sliding window', () => {
    test('admits up to the limit and reports when the oldest hit leaves', async () => {
      const t0 = Date.now()
      for (let i = 1; i <= 3; i++) {
        expect(await store.slidingWindowHit('w', 3, 1_000, t0 + i)).toEqual({
          allowed: true,
          count: i,
          retryAfterMs: 0,
          resetMs: 1_000,
        })
      }
      expect(await store.slidingWindowHit('w', 3, 1_000, t0 + 400)).toEqual({
        allowed: false,
        count: 3,
        retryAfterMs: 601,
        resetMs: 603,
      })
    })

    test('slides: each hit leaves exactly one window after it was made, unlike a fixed bucket', async () => {
      const t0 = Date.now()
      expect((await store.slidingWindowHit('s', 2, 1_000, t0)).allowed).toBe(true)
      expect((await store.slidingWindowHit('s', 2, 1_000, t0 + 500)).allowed).toBe(true)
      expect(await store.slidingWindowHit('s', 2, 1_000, t0 + 900)).toMatchObject({ allowed: false, retryAfterMs: 100 })
      // The first hit is exactly one window old: gone, so there is room for one, and only one.
      expect(await store.slidingWindowHit('s', 2, 1_000, t0 + 1_000)).toMatchObject({ allowed: true, count: 2 })
      expect(await store.slidingWindowHit('s', 2, 1_000, t0 + 1_100)).toMatchObject({
        allowed: false,
        count: 2,
        retryAfterMs: 400,
        resetMs: 900,
      })
      expect(await store.slidingWindowHit('s', 2, 1_000, t0 + 1_500)).toMatchObject({ allowed: true, count: 2 })
    })

    test('denied hits are not recorded, so they do not keep the window closed', async () => {
      const t0 = Date.now()
      await store.slidingWindowHit('d', 1, 1_000, t0)
      for (let i = 1; i <= 5; i++)
        expect((await store.slidingWindowHit('d', 1, 1_000, t0 + i * 100)).allowed).toBe(false)
      expect(await store.slidingWindowHit('d', 1, 1_000, t0 + 1_000)).toMatchObject({ allowed: true, count: 1 })
    })

    test('hits in the same millisecond are counted separately', async () => {
      const now = Date.now()
      for (let i = 1; i <= 4; i++) expect((await store.slidingWindowHit('same', 10, 1_000, now)).count).toBe(i)
    })

    test('peek answers like a hit and records nothing', async () => {
      const t0 = Date.now()
      expect(await store.slidingWindowPeek('p', 2, 1_000, t0)).toEqual({
        allowed: true,
        count: 0,
        retryAfterMs: 0,
        resetMs: 0,
      })
      await store.slidingWindowHit('p', 2, 1_000, t0)
      await store.slidingWindowHit('p', 2, 1_000, t0 + 200)
      for (let i = 0; i < 3; i++) {
        expect(await store.slidingWindowPeek('p', 2, 1_000, t0 + 300)).toEqual({
          allowed: false,
          count: 2,
          retryAfterMs: 700,
          resetMs: 900,
        })
      }
      expect(await store.slidingWindowPeek('p', 2, 1_000, t0 + 1_000)).toMatchObject({ allowed: true, count: 1 })
    })

    test('a lowered limit waits until enough hits leave, not just the oldest', async () => {
      const t0 = Date.now()
      for (let i = 0; i < 4; i++) await store.slidingWindowHit('lowered', 4, 1_000, t0 + i * 100)
      expect(await store.slidingWindowHit('lowered', 2, 1_000, t0 + 400)).toMatchObject({
        allowed: false,
        retryAfterMs: 800,
      })
    })

    test("on the store's own clock the window expires in real time", async () => {
      expect((await store.slidingWindowHit('clock', 1, 100)).allowed).toBe(true)
      const denied = await store.slidingWindowHit('clock', 1, 100)
      expect(denied.allowed).toBe(false)
      expect(denied.retryAfterMs).toBeGreaterThan(0)
      expect(denied.retryAfterMs).toBeLessThanOrEqual(100)
      await sleep(denied.retryAfterMs + 20)
      expect((await store.slidingWindowHit('clock', 1, 100)).allowed).toBe(true)
    })

    test('over real time, hits still inside the window count and older ones do not, however the store ages its logs', async () => {
      // 100 ms windows: the in-process store moves logs between generations every window; Redis expires keys.
      await store.slidingWindowHit('aging', 3, 100)
      await sleep(60)
      await store.slidingWindowHit('aging', 3, 100)
      await sleep(60)
      // The first hit (about 120 ms ago) has left; the second (about 60 ms ago) still counts.
      expect((await store.slidingWindowPeek('aging', 3, 100)).count).toBe(1)
      await store.slidingWindowHit('aging', 3, 100)
      expect((await store.slidingWindowPeek('aging', 3, 100)).count).toBe(2)
      await sleep(230)
      expect(await store.slidingWindowPeek('aging', 3, 100)).toEqual({
        allowed: true,
        count: 0,
        retryAfterMs: 0,
        resetMs: 0,
      })
    })

    test('50 concurrent hits against a limit of 10 admit exactly 10', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => store.slidingWindowHit('race', 10, 60_000)))
      expect(results.filter((result) => result.allowed)).toHaveLength(10)
      expect(
        results
          .filter((result) => result.allowed)
          .map((result) => result.count)
          .toSorted((a, b) => a - b),
      ).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
      expect((await store.slidingWindowPeek('race', 10, 60_000)).count).toBe(10)
    })
  })

  describe('pub/sub', () => {
    test('delivers to every subscriber of the channel, in order, and to no other channel', async () => {
      const first = collect(3)
      const second = collect(3)
      const other = collect(1)
      await store.subscribe('events', first.onMessage)
      await store.subscribe('events', second.onMessage)
      await store.subscribe('elsewhere', other.onMessage)
      for (const message of ['a', 'b', 'c']) await store.publish('events', message)
      expect(await first.received()).toEqual(['a', 'b', 'c'])
      expect(await second.received()).toEqual(['a', 'b', 'c'])
      await sleep(20)
      expect(other.messages).toEqual([])
    })

    test('unsubscribing stops delivery to that subscriber only', async () => {
      const leaving = collect(1)
      const staying = collect(2)
      const unsubscribe = await store.subscribe('room', leaving.onMessage)
      await store.subscribe('room', staying.onMessage)
      await store.publish('room', 'one')
      await leaving.received()
      await unsubscribe()
      await unsubscribe()
      await store.publish('room', 'two')
      expect(await staying.received()).toEqual(['one', 'two'])
      expect(leaving.messages).toEqual(['one'])
    })

    test('a channel can be left entirely and joined again', async () => {
      const unsubscribe = await store.subscribe('again', () => {})
      await unsubscribe()
      const back = collect(1)
      await store.subscribe('again', back.onMessage)
      await store.publish('again', 'hello')
      expect(await back.received()).toEqual(['hello'])
    })

    test('leaving a channel after the store closed resolves (a stream outliving its app must not throw)', async () => {
      const closing = await backend.open()
      const unsubscribe = await closing.subscribe('late', () => {})
      await closing.close()
      await unsubscribe()
    })
  })

  describe('locks', () => {
    test('are exclusive until released', async () => {
      const attempts = await Promise.all(Array.from({ length: 10 }, () => store.acquireLock('job', 5_000)))
      const holders = attempts.filter((release) => release !== null)
      expect(holders).toHaveLength(1)
      expect(await store.acquireLock('job', 5_000)).toBeNull()
      await holders[0]!()
      const next = await store.acquireLock('job', 5_000)
      expect(next).not.toBeNull()
      await next!()
    })

    test('expire, and a stale holder releasing does not free the next holder', async () => {
      const stale = await store.acquireLock('lease', 50)
      expect(stale).not.toBeNull()
      await sleep(80)
      const current = await store.acquireLock('lease', 5_000)
      expect(current).not.toBeNull()
      await stale!()
      expect(await store.acquireLock('lease', 5_000)).toBeNull()
      await current!()
    })
  })

  test('a closed store answers its readiness probe with an error', async () => {
    await store.close()
    await expect(store.ping()).rejects.toThrow()
  })
}

const backends = testBackends()
afterAll(() => Promise.all(backends.map((backend) => backend.cleanup())))

for (const backend of backends) {
  describe.skipIf(backend.skip)(`${backend.name} store`, () => {
    storeContract(backend)

    test('a subscriber that throws is reported and does not stop delivery to the others', async () => {
      const errors: Error[] = []
      const store = await backend.open({ onError: (error) => errors.push(error) })
      try {
        const healthy = collect(1)
        await store.subscribe('fragile', () => {
          throw new Error('subscriber bug')
        })
        await store.subscribe('fragile', healthy.onMessage)
        await store.publish('fragile', 'still delivered')
        expect(await healthy.received()).toEqual(['still delivered'])
        expect(errors.map((error) => error.message)).toEqual(['subscriber bug'])
      } finally {
        await store.close()
      }
    })
  })
}

describe('memory store only', () => {
  test('200,000 distinct addresses each keep a window of their own (logs are keyed by a hash)', async () => {
    const store = await backends.find((backend) => backend.name === 'memory')!.open()
    try {
      const address = (n: number) => `rl:score:ip:10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
      let admitted = 0
      for (let n = 0; n < 200_000; n++) if ((await store.slidingWindowHit(address(n), 1, 60_000)).allowed) admitted++
      expect(admitted).toBe(200_000)
      expect((await store.slidingWindowHit(address(123_456), 1, 60_000)).allowed).toBe(false)
    } finally {
      await store.close()
    }
  })
})

const redis = backends.find((backend) => backend.name === 'redis')!

describe.skipIf(redis.skip)('redis store only', () => {
  test('prefixes isolate stores sharing one Redis', async () => {
    const [a, b] = await Promise.all([redis.open(), redis.open()])
    try {
      await a.set('shared-name', 'from a')
      expect(await b.get('shared-name')).toBeNull()
      const heard = collect(1, 300)
      await b.subscribe('news', heard.onMessage)
      await a.publish('news', 'not for b')
      await expect(heard.received()).rejects.toThrow('only 0 of 1')
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  test('an outage rejects commands instead of crashing, and the store recovers when Redis returns', async () => {
    const upstream = new URL(process.env.REDIS_URL!)
    const proxy = cuttableProxy(upstream.hostname, Number(upstream.port || 6379))
    const errors: Error[] = []
    const store = await openStore(
      { redisUrl: `redis://127.0.0.1:${proxy.port}`, logLevel: 'silent' },
      { prefix: `ar-test:${crypto.randomUUID()}:`, onError: (error) => errors.push(error) },
    )
    try {
      await store.set('survives', 'yes', 10_000)
      proxy.cut()
      await sleep(50)
      await expect(store.ping()).rejects.toThrow('not connected')
      await expect(store.get('survives')).rejects.toThrow()
      await expect(store.slidingWindowHit('outage', 1, 1_000)).rejects.toThrow()
      expect(errors.length).toBeGreaterThan(0)
      proxy.restore()
      let value: string | null = null
      for (let attempt = 0; attempt < 50 && value === null; attempt++) {
        value = await store.get('survives').catch(() => null)
        if (value === null) await sleep(100)
      }
      expect(value).toBe('yes')
      await store.ping()
      await store.del('survives')
    } finally {
      await store.close()
      proxy.stop()
    }
  })
})

/** A TCP relay to Redis whose connections can be cut and refused (an outage) and then allowed again. */
function cuttableProxy(host: string, port: number) {
  const open = new Set<{ end(): void }>()
  const listen = (listenPort: number) =>
    Bun.listen<{ upstream: Promise<Bun.Socket<undefined>> }>({
      hostname: '127.0.0.1',
      port: listenPort,
      socket: {
        open(client) {
          open.add(client)
          client.data = {
            upstream: Bun.connect({
              hostname: host,
              port,
              socket: {
                open: (socket) => void open.add(socket),
                data: (_socket, chunk) => void client.write(chunk),
                close: () => void client.end(),
                error: () => void client.end(),
              },
            }),
          }
        },
        data: (client, chunk) => void client.data.upstream.then((socket) => socket.write(chunk)),
        close: (client) => void client.data.upstream.then((socket) => socket.end()),
        error: (client) => void client.data.upstream.then((socket) => socket.end()),
      },
    })
  let server = listen(0)
  const proxyPort = server.port
  return {
    port: proxyPort,
    cut() {
      server.stop(true)
      for (const socket of open) socket.end()
      open.clear()
    },
    restore() {
      server = listen(proxyPort)
    },
    stop() {
      server.stop(true)
    },
  }
}

test('an unreachable REDIS_URL stops start-up with a message naming it, without the password', async () => {
  const started = Date.now()
  const opening = openStore({ redisUrl: 'redis://user:hunter2@127.0.0.1:1', logLevel: 'silent' })
  const error = await opening.then(
    () => null,
    (reason: unknown) => reason as Error,
  )
  expect(error?.message).toContain('REDIS_URL=redis://127.0.0.1:1')
  expect(error?.message).not.toContain('hunter2')
  expect(Date.now() - started).toBeLessThan(5_000)
})
