import type { Store } from './store/types.ts'

/** Published with a tag whenever what a tag covers changes, so every instance drops its rendered reads. */
export const INVALIDATE_CHANNEL = 'read-cache:invalidate'

export interface CachedRead {
  /** Encoded once: a string body would be transcoded to UTF-8 on every response. */
  body: Blob
  headers: Record<string, string>
}

/**
 * Rendered read responses (score reads), each under a tag (the domain). Reads must never lag a write: a write
 * drops the tag's entries at once in this process and tells the other instances through the store's pub/sub.
 * Entries also expire, and the map is bounded (oldest out first).
 */
export class ReadCache {
  private readonly entries = new Map<string, CachedRead & { tag: string; expiresAt: number }>()
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

  get(key: string): CachedRead | null {
    const entry = this.entries.get(key)
    if (!entry) return null
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key)
      return null
    }
    return entry
  }

  set(key: string, tag: string, read: CachedRead): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, { ...read, tag, expiresAt: Date.now() + this.ttlMs })
  }

  /** What `tag` covers changed: drop it here now and on every other instance through the store. */
  async invalidate(tag: string): Promise<void> {
    this.drop(tag)
    await this.store.publish(INVALIDATE_CHANNEL, tag).catch(() => {})
  }

  private drop(tag: string): void {
    for (const [key, entry] of this.entries) if (entry.tag === tag) this.entries.delete(key)
  }
}
