import { hkdfSync, randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '../db/index.ts'
import { serviceSecrets } from './tables.ts'

const ROOT = 'root'

/**
 * Keys for the service's own HMACs (opaque page tokens, agent-verification tokens). They must be the same on every
 * instance and survive restarts, and an operator should not have to configure them: a random root secret is created
 * once in the database (the first instance to ask wins the insert), and each purpose gets its own HKDF-derived key,
 * so a token minted for one purpose never verifies for another.
 */
export class ServiceSecrets {
  private root: Promise<Buffer> | null = null

  constructor(private readonly db: Db) {}

  async key(purpose: string): Promise<Buffer> {
    if (!this.root) {
      this.root = this.loadRoot()
      // A failed load (database down) is retried on the next call instead of being remembered.
      this.root.catch(() => {
        this.root = null
      })
    }
    return Buffer.from(hkdfSync('sha256', await this.root, Buffer.alloc(0), `agent-readiness:${purpose}`, 32))
  }

  private async loadRoot(): Promise<Buffer> {
    await this.db
      .insert(serviceSecrets)
      .values({ name: ROOT, secret: randomBytes(32).toString('base64url') })
      .onConflictDoNothing()
    const [row] = await this.db.select().from(serviceSecrets).where(eq(serviceSecrets.name, ROOT))
    return Buffer.from(row!.secret, 'base64url')
  }
}
