import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Db } from '../db/index.ts'
import { isRowId } from '../ids.ts'
import { apiKeys } from './tables.ts'

export const KEY_TIERS = ['scan', 'partner', 'graph-stream'] as const
export type KeyTier = (typeof KEY_TIERS)[number]

/**
 * What each tier grants (spec, Authentication). Tiers are cumulative: a partner key is also a scan key, and a
 * graph-stream key is a partner key that also gets graph-narrowed journey frames.
 */
export const TIER_CAPABILITIES: Record<KeyTier, ReadonlySet<Capability>> = {
  scan: new Set(['scan-exempt', 'patch-stored-scan']),
  partner: new Set(['scan-exempt', 'patch-stored-scan', 'journey-custom-intent', 'journey-domain-route']),
  'graph-stream': new Set([
    'scan-exempt',
    'patch-stored-scan',
    'journey-custom-intent',
    'journey-domain-route',
    'journey-graph-stream',
  ]),
}
export type Capability =
  | 'scan-exempt'
  | 'patch-stored-scan'
  | 'journey-custom-intent'
  | 'journey-domain-route'
  | 'journey-graph-stream'

export interface ResolvedKey {
  id: number
  tier: KeyTier
  label: string
}

export interface KeyListing extends ResolvedKey {
  prefix: string
  createdAt: Date
  revokedAt: Date | null
}

const KEY_PREFIX = 'ark_'

function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

export class KeyService {
  constructor(private readonly db: Db) {}

  /** Returns the plaintext key once; only its hash is stored. */
  async create(tier: KeyTier, label: string): Promise<{ id: number; key: string; prefix: string }> {
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`
    const prefix = key.slice(0, 12)
    const [row] = await this.db
      .insert(apiKeys)
      .values({ tier, label, hash: hashKey(key), prefix })
      .returning({ id: apiKeys.id })
    return { id: row!.id, key, prefix }
  }

  async list(): Promise<KeyListing[]> {
    const rows = await this.db.select().from(apiKeys).orderBy(asc(apiKeys.id))
    return rows.map((row) => ({
      id: row.id,
      tier: row.tier,
      label: row.label,
      prefix: row.prefix,
      createdAt: row.createdAt,
      revokedAt: row.revokedAt,
    }))
  }

  /** Revokes one key; other keys are untouched. Returns false when no active key has that id. */
  async revoke(id: number): Promise<boolean> {
    if (!isRowId(id)) return false
    const rows = await this.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id })
    return rows.length > 0
  }

  /** Resolves a presented bearer token; an unknown, malformed or revoked token resolves to null, never throws. */
  async resolve(token: string): Promise<ResolvedKey | null> {
    if (!token.startsWith(KEY_PREFIX) || token.length > 256) return null
    const presented = hashKey(token)
    const [row] = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.hash, presented), isNull(apiKeys.revokedAt)))
      .limit(1)
    // The index lookup is by hash, so the secret itself is never compared; the final comparison is constant-time
    // anyway so that no path through this function compares key material byte by byte.
    if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(presented, 'hex'))) return null
    return { id: row.id, tier: row.tier, label: row.label }
  }
}

export function hasCapability(tier: KeyTier, capability: Capability): boolean {
  return TIER_CAPABILITIES[tier].has(capability)
}
