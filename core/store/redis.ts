import { randomUUID } from 'node:crypto'
import { Redis, type RedisOptions } from 'ioredis'
import {
  deliver,
  type ReleaseLock,
  type SlidingWindowState,
  type Store,
  type StoreErrorHandler,
  type Unsubscribe,
} from './types.ts'

/**
 * The shared store for several instances. Two kinds of connection, because Redis ties a subscribing connection
 * up: one for ordinary commands, one subscriber (created on first subscribe).
 */

/** Bounds start-up against an address that swallows packets; a refused connection fails at once anyway. */
const CONNECT_TIMEOUT_MS = 5_000

/** A request path must answer even when Redis stalls: a command fails after this instead of hanging. */
const COMMAND_TIMEOUT_MS = 2_000

/**
 * One script, so pruning, counting and recording cannot interleave with another instance's hit.
 * KEYS[1] sorted set of hit times; ARGV limit, windowMs, nowMs ('' = server clock), member ('' = peek).
 * The member is random because two hits in the same millisecond must be two entries, not one.
 */
const SLIDING_WINDOW = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = count < limit
if allowed and ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
end
local retryAfter = 0
if not allowed then
  local blocking = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  retryAfter = tonumber(blocking[2]) + window - now
end
local reset = 0
if count > 0 then
  local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  reset = tonumber(newest[2]) + window - now
end
return { allowed and 1 or 0, count, retryAfter, reset }
`

/** PTTL < 0 rather than "count is 1": a counter left without expiry (e.g. by a plain SET) still gets one. */
const INCR_WITH_TTL = `
local count = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`

/** Compare-and-delete: after expiry the key may belong to the next holder, whose lock must survive. */
const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`

interface Channel {
  subscriptions: Set<{ onMessage: (message: string) => void }>
  /** The SUBSCRIBE in flight or done: later subscribers to the channel wait for the same confirmation. */
  ready: Promise<unknown>
}

export interface RedisStoreOptions {
  url: string
  /** Prepended to every key and channel name. */
  prefix: string
  onError: StoreErrorHandler
}

/** Connects before returning, so a wrong REDIS_URL stops start-up instead of failing the first request. */
export async function connectRedisStore(options: RedisStoreOptions): Promise<Store> {
  const redis = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    // Commands issued during an outage fail after one reconnection attempt instead of queueing for minutes.
    maxRetriesPerRequest: 1,
  })
  // connect() only rejects with "Connection is closed."; the cause arrives as an 'error' event.
  let cause: Error | undefined
  const recordCause = (error: Error) => {
    cause = error
  }
  redis.on('error', recordCause)
  try {
    await redis.connect()
  } catch (error) {
    redis.disconnect()
    const reason = (cause ?? (error as Error)).message
    throw new Error(`Cannot connect to Redis at REDIS_URL=${withoutCredentials(options.url)}: ${reason}`)
  }
  redis.off('error', recordCause)
  // Without a listener ioredis reports errors itself; with one, a lost connection is logged, never fatal.
  redis.on('error', options.onError)
  return new RedisStore(redis, options.prefix, options.onError)
}

class RedisStore implements Store {
  readonly kind = 'redis' as const
  private subscriber: Redis | null = null
  private readonly channels = new Map<string, Channel>()
  private closed = false

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onError: StoreErrorHandler,
  ) {}

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.key(key))
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs === undefined) await this.redis.set(this.key(key), value)
    else await this.redis.set(this.key(key), value, 'PX', ttlMs)
  }

  async del(key: string): Promise<void> {
    await this.redis.del(this.key(key))
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.key(key), value, 'PX', ttlMs, 'NX')) === 'OK'
  }

  async incr(key: string, ttlMs: number): Promise<number> {
    return (await this.redis.eval(INCR_WITH_TTL, 1, this.key(key), ttlMs)) as number
  }

  async slidingWindowHit(key: string, limit: number, windowMs: number, nowMs?: number): Promise<SlidingWindowState> {
    return this.slide(key, limit, windowMs, nowMs, randomUUID())
  }

  async slidingWindowPeek(key: string, limit: number, windowMs: number, nowMs?: number): Promise<SlidingWindowState> {
    return this.slide(key, limit, windowMs, nowMs, '')
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.redis.publish(this.key(channel), message)
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe> {
    const name = this.key(channel)
    const subscription = { onMessage }
    let entry = this.channels.get(name)
    if (!entry) {
      entry = { subscriptions: new Set(), ready: this.subscriberConnection().subscribe(name) }
      this.channels.set(name, entry)
    }
    entry.subscriptions.add(subscription)
    const joined = entry
    try {
      await joined.ready
    } catch (error) {
      // Forget the failed attempt so the next subscriber sends a fresh SUBSCRIBE.
      if (this.channels.get(name) === joined) this.channels.delete(name)
      throw error
    }
    return async () => {
      if (!joined.subscriptions.delete(subscription) || joined.subscriptions.size > 0) return
      if (this.channels.get(name) !== joined) return
      this.channels.delete(name)
      // A closed or broken subscriber connection holds no subscription any more: nothing is left to drop.
      await this.subscriber?.unsubscribe(name).catch(() => {})
    }
  }

  async acquireLock(key: string, ttlMs: number): Promise<ReleaseLock | null> {
    const token = randomUUID()
    if (!(await this.setIfAbsent(key, token, ttlMs))) return null
    return async () => {
      await this.redis.eval(RELEASE_LOCK, 1, this.key(key), token)
    }
  }

  async ping(): Promise<void> {
    // Fail at once while reconnecting: a readiness probe must not wait for the command timeout.
    if (this.redis.status !== 'ready') throw new Error(`Redis is not connected (${this.redis.status})`)
    await this.redis.ping()
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await Promise.all(
      [this.redis, this.subscriber].map(async (connection) => {
        // QUIT lets replies in flight arrive; a connection that is down has nothing to wait for.
        if (connection?.status === 'ready') await connection.quit().catch(() => connection.disconnect())
        else connection?.disconnect()
      }),
    )
  }

  private key(name: string): string {
    return this.prefix + name
  }

  private async slide(
    key: string,
    limit: number,
    windowMs: number,
    nowMs: number | undefined,
    member: string,
  ): Promise<SlidingWindowState> {
    const now = nowMs === undefined ? '' : Math.floor(nowMs)
    const [allowed, count, retryAfterMs, resetMs] = (await this.redis.eval(
      SLIDING_WINDOW,
      1,
      this.key(key),
      limit,
      windowMs,
      now,
      member,
    )) as [number, number, number, number]
    return { allowed: allowed === 1, count, retryAfterMs, resetMs }
  }

  private subscriberConnection(): Redis {
    if (!this.subscriber) {
      const subscriber = this.duplicate()
      subscriber.on('message', (channel: string, message: string) => {
        for (const { onMessage } of this.channels.get(channel)?.subscriptions ?? []) {
          deliver(onMessage, message, this.onError)
        }
      })
      this.subscriber = subscriber
    }
    return this.subscriber
  }

  private duplicate(override: Partial<RedisOptions> = {}): Redis {
    // A connection opened after close() would never be closed and would keep the process alive.
    if (this.closed) throw new Error('the Redis store is closed')
    const connection = this.redis.duplicate(override)
    connection.on('error', this.onError)
    return connection
  }
}

/** The URL may carry a password; an error message must not. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.toString()
  } catch {
    return '(unparseable URL)'
  }
}
