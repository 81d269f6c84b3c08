import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { testApp } from './helpers.ts'
import type { AppHandle } from '../app/app.ts'
import { MemoryStore } from '../core/store/memory.ts'
import { ServiceSecrets } from '../core/secrets/index.ts'

let handle: AppHandle
beforeAll(async () => {
  handle = await testApp({}, { features: [] })
})
afterAll(() => handle.close())

test('instances sharing a store derive the same keys; purposes get different keys', async () => {
  const first = new ServiceSecrets(handle.pieces.store, null)
  const second = new ServiceSecrets(handle.pieces.store, null)
  const [a, b] = await Promise.all([first.key('page-token'), second.key('page-token')])
  expect(a.length).toBe(32)
  expect(a.equals(b)).toBe(true)
  expect((await first.key('verification')).equals(a)).toBe(false)
})

test('SERVICE_SECRET fixes the keys whatever the store holds', async () => {
  const secret = 'x'.repeat(40)
  const one = await new ServiceSecrets(new MemoryStore(() => {}), secret).key('page-token')
  const two = await new ServiceSecrets(new MemoryStore(() => {}), secret).key('page-token')
  expect(one.equals(two)).toBe(true)
})

test('no secret is kept in the database', async () => {
  await handle.pieces.secrets.key('page-token')
  const tables = await handle.pieces.database.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_name like '%secret%'`,
  )
  expect(JSON.stringify(tables)).not.toContain('secret')
})
