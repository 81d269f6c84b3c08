import type { Store } from './store/types.ts'

/** Published with a tag whenever what a tag covers changes, so every instance drops its rendered reads. */
export const INVALIDATE_CHANNEL = 'read-cache:invalidate'

interface CachedRead {
  /** Encoded once: a string body would be transcoded to UTF-8 on every response. */
  body: Blob
  headers: Record<string, string>
  tag: string
  expiresAt: number
}

/**
 * Rendered read responses (score reads), keyed by the request target exactly as sent (path and query) and
 * grouped under a tag (the domain). A route stores what it rendered for a target; the `cachedRead` route macro
 * answers the same target again before the query is parsed or validated, which is sound because an entry only
 * exists for a target the route itself accepted. Other spellings of the same read get entries of their own.
 *
 * Reads must never lag a write: a write drops the tag's entries at once in this process and tells the other
 * instances through the store's pub/sub, and a rendering that began before any drop is not kept. Entries also
 * expire, and the map is bounded (oldest out first).
 */
export class ReadCache {
  private readonly entries = new Map<string, CachedRead>()
  /** Counts drops, so that a read that raced a write cannot store what it rendered from the old data. */
  private drops = 0
  private unsubscribe: (() => Promise<void>) | null = null

  constructor(
    private readonly store: Store,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.store.subscribe(INVALIDATE_CHANNEL, (tag) => this.drop(tag))
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.()
  }

  /** A fresh Response for what was stored under this request's target, carrying `extraHeaders`; null on a miss. */
  respond(request: Request, extraHeaders: Record<string, string>): Response | null {
    const key = requestTarget(request)
    const entry = this.entries.get(key)
    if (!entry) return null
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key)
      return null
    }
    return new Response(entry.body, { headers: { ...entry.headers, ...extraHeaders } })
  }

  /** Taken before reading what a rendering is made of, and handed back to `put`. */
  epoch(): number {
    return this.drops
  }

  /**
   * Keeps the 200 a route rendered for this request's target until `tag` changes or the entry expires, unless
   * something was dropped since `epoch` (the rendering may then hold data a write has already replaced).
   */
  put(request: Request, tag: string, epoch: number, read: { body: string; headers: Record<string, string> }): void {
    if (epoch !== this.drops) return
    const key = requestTarget(request)
    this.entries.delete(key)
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, {
      body: new Blob([read.body]),
      headers: read.headers,
      tag,
      expiresAt: Date.now() + this.ttlMs,
    })
  }

  /** What `tag` covers changed: drop it here now and on every other instance through the store. */
  async invalidate(tag: string): Promise<void> {
    this.drop(tag)
    await this.store.publish(INVALIDATE_CHANNEL, tag).catch(() => {})
  }

  private drop(tag: string): void {
    this.drops++
    for (const [key, entry] of this.entries) if (entry.tag === tag) this.entries.delete(key)
  }
}

/** Path and query as the client sent them: `request.url` is absolute, so skip the scheme and authority. */
function requestTarget(request: Request): string {
  const url = request.url
  const path = url.indexOf('/', url.indexOf('//') + 2)
  return path === -1 ? '/' : url.slice(path)
}
