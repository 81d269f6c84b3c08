/**
 * The store holds only what may be lost: rate-limit counters, short caches, SSE fan-out, locks and replay
 * markers. PostgreSQL is the system of record (and holds the job queue); nothing here must survive a restart.
 * Two implementations share this contract and one test suite: Redis (several instances) and in-process (one).
 */

export type StoreKind = 'redis' | 'memory'

/** The state of a sliding window after a hit, or as a hit would see it for a peek. */
export interface SlidingWindowState {
  /** The hit was admitted and recorded (for a peek: a hit now would be). */
  allowed: boolean
  /** Hits inside the window, this one included when it was recorded. */
  count: number
  /** 0 when allowed; otherwise the time until enough old hits leave the window for one more to fit. */
  retryAfterMs: number
  /** Time until every hit now inside the window has left it (remaining back to the limit); 0 when empty. */
  resetMs: number
}

/** Gives a lock back; a no-op when the lock already expired and someone else holds it now. */
export type ReleaseLock = () => Promise<void>

export type Unsubscribe = () => Promise<void>

/**
 * Keys and channels share one namespace per store (Redis semantics): use a key for one kind of
 * value only. Every time-to-live is in milliseconds.
 */
export interface Store {
  readonly kind: StoreKind

  get(key: string): Promise<string | null>
  /** Without `ttlMs` the value lives until deleted (or, in Redis, evicted). */
  set(key: string, value: string, ttlMs?: number): Promise<void>
  del(key: string): Promise<void>
  /** Atomic: exactly one of any number of concurrent callers gets `true`; one-time tokens and replay refusal. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>
  /** Atomic increment; the expiry is set when the counter is created and never pushed back by later hits. */
  incr(key: string, ttlMs: number): Promise<number>

  /**
   * A true sliding window (a log of hit times, not fixed buckets), atomic under concurrency: drops hits older
   * than `windowMs`, then records this one only when fewer than `limit` (at least 1) remain. A denied hit is not
   * recorded, so hammering a closed window does not keep it closed. `nowMs` defaults to the store's clock
   * (Redis: the server's, shared by every instance); tests inject it.
   */
  slidingWindowHit(key: string, limit: number, windowMs: number, nowMs?: number): Promise<SlidingWindowState>
  /** The same answer as `slidingWindowHit` without recording anything: lets a route refuse before costly work. */
  slidingWindowPeek(key: string, limit: number, windowMs: number, nowMs?: number): Promise<SlidingWindowState>

  /** Fire and forget: only subscribers connected now receive the message, as with Redis pub/sub. */
  publish(channel: string, message: string): Promise<void>
  /** Resolves once the subscription is live, so a message published afterwards is delivered. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe>

  /** `null` when someone else holds the lock; it expires after `ttlMs` even if never released. */
  acquireLock(key: string, ttlMs: number): Promise<ReleaseLock | null>

  /** Throws when the backend cannot answer; the readiness probe. */
  ping(): Promise<void>
  close(): Promise<void>
}

/** Where a store reports failures that have no caller to reject: a lost connection, a throwing subscriber. */
export type StoreErrorHandler = (error: Error) => void

/** A subscriber that throws must not break delivery to the others, nor the connection that carried the message. */
export function deliver(onMessage: (message: string) => void, message: string, onError: StoreErrorHandler): void {
  try {
    onMessage(message)
  } catch (error) {
    onError(error instanceof Error ? error : new Error(String(error)))
  }
}
