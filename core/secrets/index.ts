import { hkdfSync, randomBytes } from 'node:crypto'
import type { Store } from '../store/types.ts'

const ROOT_KEY = 'secret:root'
/** Renewed after this long; only tokens minted minutes before a renewal stop verifying. */
const ROOT_TTL_MS = 30 * 24 * 60 * 60 * 1000

/**
 * Keys for the service's own HMACs (opaque page tokens, agent-verification tokens). Every instance must derive the
 * same keys without an operator having to configure them, and no secret may sit in the database in plain text.
 * So the root secret is SERVICE_SECRET when the operator sets one, otherwise a random value created once in the
 * store (shared by all instances through Redis): losing it only invalidates tokens that live minutes anyway. Each
 * purpose gets its own HKDF-derived key, so a token minted for one purpose never verifies for another.
 */
export class ServiceSecrets {
  private root: Promise<Buffer> | null = null

  constructor(
    private readonly store: Store,
    private readonly configured: string | null,
  ) {}

  async key(purpose: string): Promise<Buffer> {
    if (!this.root) {
      this.root = this.loadRoot()
      // A failed load (store down) is retried on the next call instead of being remembered.
      this.root.catch(() => {
        this.root = null
      })
    }
    return Buffer.from(hkdfSync('sha256', await this.root, Buffer.alloc(0), `agent-readiness:${purpose}`, 32))
  }

  private async loadRoot(): Promise<Buffer> {
    if (this.configured) return Buffer.from(this.configured, 'utf8')
    // The first instance to ask wins; the others read its value.
    await this.store.setIfAbsent(ROOT_KEY, randomBytes(32).toString('base64url'), ROOT_TTL_MS)
    const stored = await this.store.get(ROOT_KEY)
    if (!stored) throw new Error('the store did not keep the service secret')
    return Buffer.from(stored, 'base64url')
  }
}
