import { randomUUID } from 'node:crypto'
import postgres from 'postgres'
import { createApp, type AppHandle } from '../app/app.ts'
import type { FeatureName } from '../app/feature-list.ts'
import { loadConfig } from '../core/config.ts'
import { openStore } from '../core/store/index.ts'

/**
 * Tests run on embedded defaults (a throwaway PGlite, the in-process store) unless DATABASE_URL / REDIS_URL are
 * set, in which case they run against the real servers; each app gets its own store key prefix so that
 * rate-limit counters of one test never leak into another.
 */
export function testEnv(env: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    DATABASE_URL: process.env.DATABASE_URL || 'memory://',
    REDIS_URL: process.env.REDIS_URL || undefined,
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE: 'true',
    PUBLIC_BASE_URL: 'http://localhost:3000',
    ...env,
  }
}

export function testConfig(env: Record<string, string | undefined> = {}) {
  return loadConfig(testEnv(env))
}

/**
 * What a test app is built from: `features` (by name, app/feature-list.ts; all when omitted) and whether to `start`
 * the background work. It starts nothing unless asked: a suite whose requests queue jobs (a scan with rendered
 * checks, a journey run) or that needs the workers or the read cache's invalidation feed says `start: true`.
 */
export interface TestAppOptions {
  features?: readonly FeatureName[]
  start?: boolean
}

export async function testApp(
  env: Record<string, string | undefined> = {},
  options: TestAppOptions = {},
): Promise<AppHandle> {
  const config = testConfig(env)
  const namespace = randomUUID()
  const store = await openStore(config, { prefix: `test:${namespace}:` })
  const handle = await createApp(config, { store, jobNamespace: `test-${namespace}.`, features: options.features })
  if (options.start) await handle.start()
  return handle
}

/**
 * A started test app listening on a free loopback port, for clients that reach it over the network (the CLI's
 * `--server`). `url` is its origin; close() stops listening, then closes the app.
 */
export async function servedTestApp(
  env: Record<string, string | undefined> = {},
): Promise<AppHandle & { url: string }> {
  const handle = await testApp(env, { start: true })
  handle.app.listen({ port: 0, hostname: '127.0.0.1' })
  return {
    ...handle,
    url: `http://127.0.0.1:${handle.app.server!.port}`,
    close: async () => {
      await handle.app.stop()
      await handle.close()
    },
  }
}

/**
 * A test app on a database nobody else writes to, for tests that read whole tables (listings, rankings, totals):
 * a fresh PGlite by default, or with DATABASE_URL a throwaway database created for it. Its close() also drops
 * that database.
 */
export async function isolatedTestApp(
  env: Record<string, string | undefined> = {},
  options: TestAppOptions = {},
): Promise<AppHandle> {
  const base = process.env.DATABASE_URL
  if (!base) return testApp(env, options)
  const name = `isolated_test_${randomUUID().replaceAll('-', '')}`
  const admin = postgres(base, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  const handle = await testApp({ ...env, DATABASE_URL: url.href }, options)
  return {
    ...handle,
    close: async () => {
      await handle.close()
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}

export function request(path: string, init: RequestInit & { json?: unknown } = {}): Request {
  const { json, ...rest } = init
  const headers = new Headers(rest.headers)
  if (json !== undefined) headers.set('content-type', 'application/json')
  return new Request(`http://localhost${path}`, {
    ...rest,
    headers,
    body: json === undefined ? rest.body : JSON.stringify(json),
  })
}
