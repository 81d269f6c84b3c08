import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** Random secrets the service creates for itself once, shared by every instance through the database. */
export const serviceSecrets = pgTable('service_secrets', {
  name: text('name').primaryKey(),
  /** base64url of 32 random bytes. */
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
