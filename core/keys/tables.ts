import { index, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

/** API keys are stored only as SHA-256 hashes; `prefix` lets operators recognise a key in `keys list`. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    label: text('label').notNull(),
    tier: text('tier', { enum: ['scan', 'partner', 'graph-stream'] }).notNull(),
    hash: text('hash').notNull(),
    prefix: text('prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('api_keys_hash_idx').on(table.hash), index('api_keys_tier_idx').on(table.tier)],
)
