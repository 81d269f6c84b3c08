import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'
import type { Config } from '../config.ts'
import { PACKAGE_ROOT } from '../package-root.ts'

/**
 * One drizzle type for both engines, so no service knows which one it talks to. Queries name their tables
 * (each feature's tables.ts); no relational-query schema is registered, so the kernel needs none of them.
 */
export type Db = PgDatabase<PgQueryResultHKT>

interface DatabaseHandle {
  db: Db
  ping(): Promise<void>
  close(): Promise<void>
}

/** The engine is visible so that the job queue can open its own connections to the same database. */
export type Database =
  | (DatabaseHandle & { kind: 'postgres'; url: string })
  | (DatabaseHandle & { kind: 'pglite'; client: PGlite })

const MIGRATIONS_FOLDER = join(PACKAGE_ROOT, 'migrations')

/** Arbitrary constant naming our advisory lock: concurrent starts against one PostgreSQL migrate one at a time. */
const MIGRATION_LOCK_ID = 7_246_110_412

export async function openDatabase(config: Pick<Config, 'database'>): Promise<Database> {
  if (config.database.kind === 'postgres') {
    const client = postgres(config.database.url, { max: 10, onnotice: () => {}, connect_timeout: 10 })
    const db = drizzlePostgres({ client }) as unknown as Db
    return {
      kind: 'postgres',
      url: config.database.url,
      db,
      ping: async () => {
        await client`select 1`
      },
      close: () => client.end({ timeout: 5 }),
    }
  }
  const { dataDir } = config.database
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  // pg_trgm (discover's near-miss matching) is a contrib extension PGlite must load; migrations create it.
  const client = new PGlite({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm } })
  const db = drizzlePglite({ client }) as unknown as Db
  return {
    kind: 'pglite',
    client,
    db,
    ping: async () => {
      await client.query('select 1')
    },
    close: () => client.close(),
  }
}

/** Applies the committed drizzle-kit migrations; the same SQL runs on PostgreSQL and PGlite. */
export async function migrate(config: Pick<Config, 'database'>, database: Database): Promise<void> {
  if (config.database.kind === 'postgres') {
    // A dedicated single connection holds the advisory lock for the whole run.
    const client = postgres(config.database.url, { max: 1, onnotice: () => {} })
    try {
      await client`select pg_advisory_lock(${MIGRATION_LOCK_ID})`
      await migratePostgres(drizzlePostgres({ client }), { migrationsFolder: MIGRATIONS_FOLDER })
      await client`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`
    } finally {
      await client.end({ timeout: 5 })
    }
    return
  }
  await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER })
}

export async function checkDatabase(database: Database): Promise<boolean> {
  try {
    await database.db.execute(sql`select 1`)
    return true
  } catch {
    return false
  }
}
