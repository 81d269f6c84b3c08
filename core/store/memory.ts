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

type Waiter = (payload: string | null) => void

/** How often expired entries nobody reads again are dropped; lazy expiry alone would let memory grow. */
const SWEEP_INTERVAL_MS = 60_000

export class MemoryStore implements Store {
  readonly kind = 'memory' as const
  private readonly values = new Map<string, Expiring<string>>()
  /**
   * One array per window: its expiry (epoch ms) first, then its hit times ascending. A single array rather than
   * an object around one keeps the entry small: anonymous readers can each leave one behind for a window.
   */
  private readonly windows = new Map<string, number[]>()
  private readonly queues = new Map<string, string[]>()
  /** Consumers blocked in `dequeue`, longest waiting first (as Redis serves BRPOP clients). */
  private readonly waiters = new Map<string, Waiter[]>()
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
    this.windows.delete(key)
    this.queues.delete(key)
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

  async enqueue(queue: string, payload: string): Promise<void> {
    const waiter = this.waiters.get(queue)?.shift()
    if (waiter) {
      waiter(payload)
      return
    }
    const items = this.queues.get(queue)
    if (items) items.push(payload)
    else this.queues.set(queue, [payload])
  }

  async dequeue(queue: string, timeoutMs: number): Promise<string | null> {
    if (this.closed) return null
    const items = this.queues.get(queue)
    if (items) {
      const payload = items.shift()!
      if (items.length === 0) this.queues.delete(queue)
      return payload
    }
    if (timeoutMs <= 0) return null
    return new Promise((resolve) => {
      const waiter: Waiter = (payload) => {
        clearTimeout(timer)
        resolve(payload)
      }
      const timer = setTimeout(() => {
        const remaining = (this.waiters.get(queue) ?? []).filter((other) => other !== waiter)
        if (remaining.length) this.waiters.set(queue, remaining)
        else this.waiters.delete(queue)
        resolve(null)
      }, timeoutMs)
      const waiting = this.waiters.get(queue)
      if (waiting) waiting.push(waiter)
      else this.waiters.set(queue, [waiter])
    })
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('the in-process store is closed')
  }

  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.sweeper)
    for (const waiting of this.waiters.values()) for (const waiter of waiting) waiter(null)
    this.waiters.clear()
    this.channels.clear()
  }

  private slide(key: string, limit: number, windowMs: number, nowMs: number, record: boolean): SlidingWindowState {
    let log = this.windows.get(key)
    if (log && log[0]! <= Date.now()) {
      this.windows.delete(key)
      log = undefined
    }
    // Hits are ascending from index 1, so the ones that left the window are a prefix.
    let left = 1
    while (log && left < log.length && log[left]! <= nowMs - windowMs) left++
    if (left > 1) log!.splice(1, left - 1)
    const before = log ? log.length - 1 : 0
    const allowed = before < limit
    if (allowed && record) {
      if (!log) {
        log = [0]
        this.windows.set(key, log)
      }
      // Injected clocks may go backwards in tests; keep the log sorted so the index arithmetic below holds.
      let at = log.length
      while (at > 1 && log[at - 1]! > nowMs) at--
      log.splice(at, 0, nowMs)
      // Expiry on the real clock, as PEXPIRE does in Redis: the log outlives its newest hit by one window.
      log[0] = Date.now() + windowMs
    }
    const count = log ? log.length - 1 : 0
    return {
      allowed,
      count,
      // The hit at position count - limit is the last that must leave before the count drops below the limit.
      retryAfterMs: allowed ? 0 : log![1 + count - limit]! + windowMs - nowMs,
      resetMs: count ? log![count]! + windowMs - nowMs : 0,
    }
  }

  private sweep(): void {
    const now = Date.now()
    for (const [key, entry] of this.values) if (entry.expiresAt <= now) this.values.delete(key)
    for (const [key, log] of this.windows) if (log[0]! <= now) this.windows.delete(key)
  }
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
