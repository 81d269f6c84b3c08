import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { openStore, type OpenStoreOptions } from './index.ts'
import type { Store } from './types.ts'

/**
 * Test support: the store backends a suite runs against. Redis joins only when REDIS_URL is set, under a
 * random prefix per test run, so parallel runs and a shared Redis never see each other's keys.
 */
export interface TestBackend {
  name: 'memory' | 'redis'
  skip: boolean
  open(options?: Pick<OpenStoreOptions, 'onError'>): Promise<Store>
  /**
   * The stores two instances of one deployment hold: on memory the one in-process store (an instance cannot
   * share it with another process), on Redis two connections under one prefix.
   */
  openPeers(): Promise<[Store, Store]>
  /** Deletes every key the run left behind. */
  cleanup(): Promise<void>
}

export function testBackends(): TestBackend[] {
  const redisUrl = process.env.REDIS_URL || null
  const runPrefix = `ar-test:${randomUUID()}:`
  let opened = 0
  return [
    {
      name: 'memory',
      skip: false,
      open: (options = {}) => openStore({ redisUrl: null, logLevel: 'silent' }, options),
      openPeers: async () => {
        const store = await openStore({ redisUrl: null, logLevel: 'silent' })
        return [store, store]
      },
      cleanup: async () => {},
    },
    {
      name: 'redis',
      skip: redisUrl === null,
      // A prefix per store as well, so one test's leftovers cannot leak into the next.
      open: (options = {}) =>
        openStore({ redisUrl, logLevel: 'silent' }, { ...options, prefix: `${runPrefix}${++opened}:` }),
      openPeers: async () => {
        const prefix = `${runPrefix}${++opened}:`
        const open = () => openStore({ redisUrl, logLevel: 'silent' }, { prefix })
        return [await open(), await open()]
      },
      cleanup: async () => {
        if (redisUrl === null) return
        const redis = new Redis(redisUrl)
        try {
          let cursor = '0'
          do {
            const [next, keys] = await redis.scan(cursor, 'MATCH', `${runPrefix}*`, 'COUNT', 500)
            if (keys.length) await redis.del(...keys)
            cursor = next
          } while (cursor !== '0')
        } finally {
          await redis.quit()
        }
      },
    },
  ]
}
