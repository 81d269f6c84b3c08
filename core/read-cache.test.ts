import { afterAll, describe, expect, test } from 'bun:test'
import { ReadCache } from './read-cache.ts'
import { testBackends } from './store/testing.ts'

const read = (path: string) => new Request(`http://service.test${path}`)
const stored = (body: string) => ({
  body,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=3600' },
})

describe('ReadCache', () => {
  const backends = testBackends()
  afterAll(() => Promise.all(backends.map((backend) => backend.cleanup())))

  for (const backend of backends) {
    describe(backend.name, () => {
      test.skipIf(backend.skip)(
        'answers the same request target with the stored bytes, a fresh Response each time',
        async () => {
          const store = await backend.open()
          const cache = new ReadCache(store)
          expect(cache.respond(read('/api/score/a.test'), {})).toBeNull()
          cache.put(read('/api/score/a.test'), 'a.test', cache.epoch(), stored('{"domain":"a.test","note":"—"}'))
          const first = cache.respond(read('/api/score/a.test'), { 'x-request-id': 'one' })!
          const second = cache.respond(new Request('http://other-host.test/api/score/a.test'), {
            'x-request-id': 'two',
          })!
          expect(await first.text()).toBe('{"domain":"a.test","note":"—"}')
          expect(await second.text()).toBe('{"domain":"a.test","note":"—"}')
          expect(first.headers.get('x-request-id')).toBe('one')
          expect(second.headers.get('x-request-id')).toBe('two')
          expect(first.headers.get('cache-control')).toBe('public, max-age=3600')
          // The query is part of the target: another spelling is another entry.
          expect(cache.respond(read('/api/score/a.test?format=audit'), {})).toBeNull()
          await store.close()
        },
      )

      test.skipIf(backend.skip)("a write drops its tag's entries on this instance and on every other one", async () => {
        const [storeA, storeB] = await backend.openPeers()
        const here = new ReadCache(storeA)
        const there = new ReadCache(storeB)
        await Promise.all([here.start(), there.start()])
        for (const cache of [here, there]) {
          cache.put(read('/api/score/a.test'), 'a.test', cache.epoch(), stored('a'))
          cache.put(read('/api/score/a.test?format=audit'), 'a.test', cache.epoch(), stored('a audit'))
          cache.put(read('/api/score/b.test'), 'b.test', cache.epoch(), stored('b'))
        }
        await here.invalidate('a.test')
        expect(here.respond(read('/api/score/a.test'), {})).toBeNull()
        expect(here.respond(read('/api/score/a.test?format=audit'), {})).toBeNull()
        const deadline = Date.now() + 5_000
        while (there.respond(read('/api/score/a.test'), {}) && Date.now() < deadline) await Bun.sleep(10)
        expect(there.respond(read('/api/score/a.test'), {})).toBeNull()
        expect(there.respond(read('/api/score/a.test?format=audit'), {})).toBeNull()
        expect(await here.respond(read('/api/score/b.test'), {})!.text()).toBe('b')
        expect(await there.respond(read('/api/score/b.test'), {})!.text()).toBe('b')
        await Promise.all([here.stop(), there.stop()])
        await Promise.all([storeA.close(), storeB.close()])
      })
    })
  }

  test('a rendering that began before a write is not kept', async () => {
    const store = await backends[0]!.open()
    const cache = new ReadCache(store)
    const before = cache.epoch()
    await cache.invalidate('a.test')
    cache.put(read('/api/score/a.test'), 'a.test', before, stored('old'))
    expect(cache.respond(read('/api/score/a.test'), {})).toBeNull()
    cache.put(read('/api/score/a.test'), 'a.test', cache.epoch(), stored('new'))
    expect(await cache.respond(read('/api/score/a.test'), {})!.text()).toBe('new')
    await store.close()
  })

  test('entries expire, and the map is bounded with the oldest out first', async () => {
    const store = await backends[0]!.open()
    const shortLived = new ReadCache(store, 20)
    shortLived.put(read('/x'), 'x', shortLived.epoch(), stored('x'))
    expect(shortLived.respond(read('/x'), {})).not.toBeNull()
    await Bun.sleep(30)
    expect(shortLived.respond(read('/x'), {})).toBeNull()

    const small = new ReadCache(store, 60_000, 2)
    small.put(read('/1'), 't', small.epoch(), stored('1'))
    small.put(read('/2'), 't', small.epoch(), stored('2'))
    small.put(read('/3'), 't', small.epoch(), stored('3'))
    expect(small.respond(read('/1'), {})).toBeNull()
    expect(small.respond(read('/2'), {})).not.toBeNull()
    expect(small.respond(read('/3'), {})).not.toBeNull()
    await store.close()
  })
})
