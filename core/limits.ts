import ipaddr from 'ipaddr.js'
import type { KeyTier } from './keys/service.ts'
import type { SlidingWindowState, Store } from './store/types.ts'

/**
 * The rate-limit mechanism: each feature declares its limits as data beside its routes (`defineLimits` in its
 * limits.ts, listed in its `limits`), and this module counts them. Each is a true sliding window in the store, so a
 * budget "per rolling 24 hours" means exactly that, not "until midnight".
 */

export type Caller =
  | { kind: 'anonymous'; ip: string }
  | { kind: 'key'; ip: string; keyId: number; tier: KeyTier; label: string }

export interface LimitSpec {
  limit: number
  windowMs: number
  /** Daily budgets: their 429 carries `retry_after_ms`, burst denials only `Retry-After` (spec, Errors). */
  durable: boolean
  /**
   * Whose hits share a window: the caller's IP (an IPv6 caller's /64), the caller's key, or a subject the route
   * must name (the journey per-target cap).
   */
  per: 'ip' | 'key' | 'target'
  /** Callers never counted: key tiers, or 'anonymous' for limits that only count keys. */
  exempt: readonly (KeyTier | 'anonymous')[]
  /** Its 429 describes its window in `X-RateLimit-*`, as every other answer of its route does (the journey create). */
  rateHeaders?: true
}

/** A limit: its spec, and the name that keys its counters in the store and names it in 429s and /openapi.json. */
export interface Limit extends LimitSpec {
  readonly name: string
}

export const MINUTE = 60_000
export const DAY = 24 * 60 * MINUTE

/**
 * Names each spec by its key: `defineLimits({ upload: { … } }).upload` is the limit named "upload". The name is the
 * store key of its counters, so renaming one resets them; the boot check (core/feature.ts) keeps names unique.
 */
export function defineLimits<const Names extends string>(
  specs: Record<Names, LimitSpec>,
): { readonly [Name in Names]: Limit } {
  // Frozen: one limit object is shared by every route and tool that spends it.
  const limits = Object.entries<LimitSpec>(specs).map(([name, spec]) => [name, Object.freeze({ name, ...spec })])
  return Object.fromEntries(limits) as { [Name in Names]: Limit }
}

/** A limit's window in words: "minute", "10 minutes", "rolling 24 hours". */
export function limitWindow({ windowMs }: Limit): string {
  return windowMs === MINUTE ? 'minute' : windowMs === DAY ? 'rolling 24 hours' : `${windowMs / MINUTE} minutes`
}

/**
 * "10 per minute", "30 per rolling 24 hours": route and tool descriptions quote their limits through these rather
 * than restate numbers that could drift from what is enforced.
 */
export function describeLimit(limit: Limit): string {
  return `${limit.limit} per ${limitWindow(limit)}`
}

/** "60 requests per minute per IP": how a route's description names the per-IP limit its `limit` option applies. */
export function describeIpLimit(limit: Limit): string {
  return `${limit.limit} requests per ${limitWindow(limit)} per IP`
}

export interface LimitDecision {
  name: string
  allowed: boolean
  /** The caller is exempt: nothing was counted, and the counts below describe no real window. */
  exempt: boolean
  limit: number
  windowMs: number
  remaining: number
  /** Until every hit now in the window has left it, i.e. until `remaining` is back to `limit`. */
  resetMs: number
  /** 0 when allowed; otherwise until one more hit would be admitted. */
  retryAfterMs: number
  durable: boolean
}

/**
 * Spends one unit of `limit` for `caller` when any is left; a denied attempt spends nothing. `subject` replaces
 * the default (`ip:<ip>` or `key:<id>`) and is required for per-target limits.
 */
export function consume(store: Store, limit: Limit, caller: Caller, subject?: string): Promise<LimitDecision> {
  return decide(store, limit, caller, subject, true)
}

/**
 * What `consume` would answer, spending nothing. For budgets spent only after costly work succeeds (the
 * selective run probes the target first): refuse early when nothing is left, then `consume` once the work is
 * done; losing a race between the two only means that final `consume` refuses.
 */
export function peek(store: Store, limit: Limit, caller: Caller, subject?: string): Promise<LimitDecision> {
  return decide(store, limit, caller, subject, false)
}

/** The `Retry-After` value: whole seconds, rounded up so a client that waits that long is admitted. */
export function retryAfterSeconds(decision: LimitDecision): number {
  return Math.ceil(decision.retryAfterMs / 1000)
}

/**
 * The journey routes' rate headers for the one window a response describes. `X-RateLimit-Reset` is a delta in
 * seconds (rounded up) until the window is empty again, not an epoch timestamp.
 */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetMs / 1000)),
  }
}

/** What a request with neither a socket address nor a trusted header (e.g. `app.handle` in tests) counts as. */
export const UNKNOWN_IP = 'unknown'

/**
 * The caller's IP for per-IP limits: the socket peer, or with TRUST_PROXY the right-most valid address of
 * X-Forwarded-For, the one the trusted proxy in front of us appended (set TRUST_PROXY only behind such a proxy).
 * The socket address is asked for only when no trusted header names the caller.
 */
export function clientIp(request: Request, socketIp: () => string | null, trustProxy: boolean): string {
  if (trustProxy) {
    // The right-most entry is the one our own proxy appended; entries to its left are whatever the client
    // claimed and would let anyone dodge per-IP limits.
    const entries = (request.headers.get('x-forwarded-for') ?? '').split(',')
    for (let index = entries.length - 1; index >= 0; index--) {
      const ip = normaliseIp(entries[index]!)
      if (ip) return ip
    }
  }
  const socket = socketIp()
  return (socket === null ? null : normaliseIp(socket)) ?? UNKNOWN_IP
}

async function decide(
  store: Store,
  spec: Limit,
  caller: Caller,
  subject: string | undefined,
  record: boolean,
): Promise<LimitDecision> {
  const { name } = spec
  const fixed = { name, limit: spec.limit, windowMs: spec.windowMs, durable: spec.durable }
  if (spec.exempt.includes(caller.kind === 'key' ? caller.tier : 'anonymous')) {
    return { ...fixed, allowed: true, exempt: true, remaining: spec.limit, resetMs: 0, retryAfterMs: 0 }
  }
  const key = `rl:${name}:${subject ?? defaultSubject(name, spec, caller)}`
  let window: SlidingWindowState
  try {
    window = record
      ? await store.slidingWindowHit(key, spec.limit, spec.windowMs)
      : await store.slidingWindowPeek(key, spec.limit, spec.windowMs)
  } catch {
    // Limits fail open: counters are loseable state, and refusing every caller while Redis is down would turn a
    // cache outage into a full one. The store logs the outage itself; abuse is bounded by its length.
    return { ...fixed, allowed: true, exempt: false, remaining: spec.limit, resetMs: 0, retryAfterMs: 0 }
  }
  return {
    ...fixed,
    allowed: window.allowed,
    exempt: false,
    remaining: Math.max(0, spec.limit - window.count),
    resetMs: window.resetMs,
    retryAfterMs: window.retryAfterMs,
  }
}

function defaultSubject(name: string, spec: LimitSpec, caller: Caller): string {
  switch (spec.per) {
    case 'ip':
      return `ip:${ipSubject(caller.ip)}`
    case 'key':
      if (caller.kind === 'key') return `key:${caller.keyId}`
      throw new Error(`Limit "${name}" counts keys: anonymous callers must be listed in its exempt list`)
    case 'target':
      throw new Error(`Limit "${name}" is per target: pass the subject`)
  }
}

/** One IPv6 host usually holds a whole /64, so counting single addresses would let it rotate past any limit. */
function ipSubject(ip: string): string {
  return ip.includes(':') && ipaddr.IPv6.isValid(ip)
    ? `${ipaddr.IPv6.networkAddressFromCIDR(`${ip}/64`).toString()}/64`
    : ip
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const CANONICAL_IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`)

/**
 * A canonical address, so that one client has one spelling: IPv4-mapped IPv6 as IPv4, IPv6 compressed, no zone
 * (an interface name on our side says nothing about the client). `null` when it is not an address at all.
 */
function normaliseIp(raw: string): string | null {
  const value = raw.trim()
  // Every anonymous request passes here: the common case, a canonical dotted quad, skips the parsers.
  if (CANONICAL_IPV4.test(value)) return value
  // Some proxies write "addr:port" or "[v6]:port".
  const withoutPort =
    /^\[([^\]]+)\](?::\d+)?$/.exec(value)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(value)?.[1] ?? value
  const host = withoutPort.replace(/%.*$/, '')
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipaddr.IPv4.parse(host).toString()
  if (!ipaddr.IPv6.isValid(host)) return null
  const address = ipaddr.IPv6.parse(host)
  return address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : address.toString()
}
