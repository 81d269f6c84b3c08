import { randomUUID } from 'node:crypto'
import {
  deliver,
  type ReleaseLock,
  type SlidingWindowState,
  type Store,
  type StoreErrorHandler,
  type Unsubscribe,
} from './types.ts'

/**
 * The single-instance store: what `npm start` uses with no REDIS_URL. Every operation runs synchronously up to
 * its first await, which is what makes read-modify-write sequences atomic here without locks.
 */

interface Expiring<T> {
  value: T
  /** Epoch milliseconds; Infinity for no expiry. */
  expiresAt: number
}

interface Subscription {
  onMessage: (message: string) => void
}

/** How often expired entries nobody reads again are dropped; lazy expiry alone would let memory grow. */
const SWEEP_INTERVAL_MS = 60_000

export class MemoryStore implements Store {
  readonly kind = 'memory' as const
  private readonly values = new Map<string, Expiring<string>>()
  /** Sliding-window hit logs by window length. */
  private readonly windows = new Map<number, WindowLogs>()
  private readonly channels = new Map<string, Set<Subscription>>()
  private readonly onError: StoreErrorHandler
  private readonly sweeper: ReturnType<typeof setInterval>
  private closed = false

  constructor(onError: StoreErrorHandler) {
    this.onError = onError
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS)
    // The sweep is housekeeping: it must never be what keeps a finished process (or test run) alive.
    this.sweeper.unref()
  }

  async get(key: string): Promise<string | null> {
    return live(this.values, key)?.value ?? null
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.values.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : Date.now() + ttlMs })
  }

  async del(key: string): Promise<void> {
    this.values.delete(key)
    const hashed = hashKey(key)
    for (const logs of this.windows.values()) logs.delete(hashed)
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (live(this.values, key)) return false
    this.values.set(key, { value, expiresAt: Date.now() + ttlMs })
    return true
  }

  async incr(key: string, ttlMs: number): Promise<number> {
    const entry = live(this.values, key)
    const count = (entry ? Number(entry.value) : 0) + 1
    if (!Number.isSafeInteger(count)) throw new Error(`ERR value at ${key} is not an integer or out of range`)
    // Like the Redis script: a counter that somehow has no expiry gets one, so it cannot live forever.
    const expiresAt = entry && entry.expiresAt !== Infinity ? entry.expiresAt : Date.now() + ttlMs
    this.values.set(key, { value: String(count), expiresAt })
    return count
  }

  async slidingWindowHit(key: string, limit: number, windowMs: number, nowMs?: number): Promise<SlidingWindowState> {
    return this.slide(key, limit, windowMs, nowMs ?? Date.now(), true)
  }

  async slidingWindowPeek(key: string, limit: number, windowMs: number, nowMs?: number): Promise<SlidingWindowState> {
    return this.slide(key, limit, windowMs, nowMs ?? Date.now(), false)
  }

  async publish(channel: string, message: string): Promise<void> {
    const subscriptions = this.channels.get(channel)
    if (!subscriptions) return
    const recipients = [...subscriptions]
    // Asynchronous like Redis delivery, so a publisher never runs subscriber code inside its own call.
    queueMicrotask(() => {
      for (const { onMessage } of recipients) deliver(onMessage, message, this.onError)
    })
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe> {
    const subscription: Subscription = { onMessage }
    let subscriptions = this.channels.get(channel)
    if (!subscriptions) {
      subscriptions = new Set()
      this.channels.set(channel, subscriptions)
    }
    subscriptions.add(subscription)
    return async () => {
      const current = this.channels.get(channel)
      if (!current?.delete(subscription)) return
      if (current.size === 0) this.channels.delete(channel)
    }
  }

  async acquireLock(key: string, ttlMs: number): Promise<ReleaseLock | null> {
    const token = randomUUID()
    if (!(await this.setIfAbsent(key, token, ttlMs))) return null
    return async () => {
      // Only the holder's token releases: after expiry the key may belong to the next holder.
      if (live(this.values, key)?.value === token) this.values.delete(key)
    }
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('the in-process store is closed')
  }

  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.sweeper)
    this.channels.clear()
  }

  private slide(key: string, limit: number, windowMs: number, nowMs: number, record: boolean): SlidingWindowState {
    let logs = this.windows.get(windowMs)
    if (!logs) {
      logs = new WindowLogs(windowMs)
      this.windows.set(windowMs, logs)
    }
    const hashed = hashKey(key)
    const stored = logs.get(hashed)
    const hits = inWindow(stored, nowMs - windowMs)
    const allowed = hits.length < limit
    if (allowed && record) {
      // Injected clocks may go backwards in tests; keep the log sorted so the index arithmetic below holds.
      let at = hits.length
      while (at > 0 && hits[at - 1]! > nowMs) at--
      hits.splice(at, 0, nowMs)
    }
    if (hits.length === 0) {
      if (stored !== undefined) logs.delete(hashed)
    } else if ((allowed && record) || hits.length !== (typeof stored === 'number' ? 1 : stored!.length)) {
      logs.set(hashed, hits.length === 1 ? hits[0]! : hits)
    }
    const count = hits.length
    return {
      allowed,
      count,
      // The hit at index count - limit is the last that must leave before the count drops below the limit.
      retryAfterMs: allowed ? 0 : hits[count - limit]! + windowMs - nowMs,
      resetMs: count ? hits[count - 1]! + windowMs - nowMs : 0,
    }
  }

  private sweep(): void {
    const now = Date.now()
    for (const [key, entry] of this.values) if (entry.expiresAt <= now) this.values.delete(key)
  }
}

/** The hits of a stored log newer than `floor`, ascending, as an array the caller may change. */
function inWindow(log: HitLog | undefined, floor: number): number[] {
  if (log === undefined) return []
  if (typeof log === 'number') return log > floor ? [log] : []
  let left = 0
  while (left < log.length && log[left]! <= floor) left++
  return log.slice(left)
}

/** A lone hit is kept as its time alone, more as an ascending array. */
type HitLog = number | number[]

/**
 * The hit logs of one window length, in two generations that rotate every window: a log not written for a whole
 * window has only hits that left it, so the older generation is dropped at once instead of being swept entry by
 * entry (sweeping a million expired logs stalled the event loop for a quarter of a second).
 *
 * Logs are keyed by a 53-bit hash of their key (`hashKey`, computed once per store operation), and a lone hit is
 * kept as a number: with a new client address per request, a key string and an array per log were what garbage
 * collection paid for, and tail latency grew with every minute of traffic. Two keys that collide (about one chance in 2,000 with three million live logs,
 * under a per-process seed nobody outside knows) only share one window.
 */
class WindowLogs {
  private current = new Map<number, HitLog>()
  private previous = new Map<number, HitLog>()
  private rotatedAt = Date.now()

  constructor(private readonly windowMs: number) {}

  get(hashed: number): HitLog | undefined {
    this.rotate()
    return this.current.get(hashed) ?? this.previous.get(hashed)
  }

  set(hashed: number, log: HitLog): void {
    this.rotate()
    this.previous.delete(hashed)
    this.current.set(hashed, log)
  }

  delete(hashed: number): void {
    this.current.delete(hashed)
    this.previous.delete(hashed)
  }

  private rotate(): void {
    const now = Date.now()
    const age = now - this.rotatedAt
    if (age < this.windowMs) return
    // Every write into `current` happened within one window of `rotatedAt` (each write rotates first), so after
    // two windows none of it is live either.
    this.previous = age < 2 * this.windowMs ? this.current : new Map()
    this.current = new Map()
    this.rotatedAt = now
  }
}

const HASH_SEED = crypto.getRandomValues(new Uint32Array(1))[0]!

/** cyrb53 (bryc, public domain): a 53-bit string hash, exact as a JavaScript number, so a map key costs no cell. */
function hashKey(key: string): number {
  let h1 = 0xdeadbeef ^ HASH_SEED
  let h2 = 0x41c6ce57 ^ HASH_SEED
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index)
    h1 = Math.imul(h1 ^ code, 2654435761)
    h2 = Math.imul(h2 ^ code, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

/** Lazy expiry: an expired entry reads as absent and is dropped on the spot. */
function live<T>(map: Map<string, Expiring<T>>, key: string): Expiring<T> | undefined {
  const entry = map.get(key)
  if (entry && entry.expiresAt <= Date.now()) {
    map.delete(key)
    return undefined
  }
  return entry
}
