import { afterAll, beforeAll, expect, test } from 'bun:test'
import { testApp } from '../../tests/helpers.ts'
import type { AppHandle } from '../app.ts'
import { ServiceSecrets } from './index.ts'

let handle: AppHandle
beforeAll(async () => {
  handle = await testApp()
})
afterAll(() => handle.close())

test('keys are stable across instances sharing the database and differ by purpose', async () => {
  const first = new ServiceSecrets(handle.deps.database.db)
  const second = new ServiceSecrets(handle.deps.database.db)
  const [a, b] = await Promise.all([first.key('page-token'), second.key('page-token')])
  expect(a.length).toBe(32)
  expect(a.equals(b)).toBe(true)
  expect((await first.key('verification')).equals(a)).toBe(false)
})
