import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { fileURLToPath } from 'node:url'
import { createApp, type AppHandle } from '../app/app.ts'
import { loadConfig } from '../core/config.ts'
import { createBrowserProvider } from '../core/engine/browser-puppeteer.ts'
import { type FixtureSite, resolveRules, startFixtureSites } from './fixtures/sites/server.ts'
import { testConfig } from './helpers.ts'
import {
  type DisposablePostgres,
  type DisposableRedis,
  disposableServersAvailable,
  startDisposablePostgres,
  startDisposableRedis,
} from './support/disposable-servers.ts'

/**
 * Faults a production deployment meets: a worker killed mid-job, PostgreSQL and Redis going away mid-scan. Each
 * test runs its own PostgreSQL (and Redis) so that it can stop them; a partial scan needs Chromium for its
 * rendered checks. The slow step that holds a job in progress is the summary model, a scripted loopback server.
 */
const runnable = disposableServersAvailable() && createBrowserProvider(testConfig()) !== null
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SENTENCE = 'The scripted model says agents can use this site, once its rendered checks pass.'
/** The spec's bound for a killed deep job: done within three minutes of a worker coming back. */
const RECOVERY_BUDGET_MS = 170_000

/** A chat-completions server that holds every request while `holding`, then answers with SENTENCE. */
function startModel() {
  let holding = true
  let requests = 0
  const waiting: (() => void)[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch() {
      requests++
      if (holding) await new Promise<void>((resolve) => waiting.push(resolve))
      return Response.json({ choices: [{ message: { content: SENTENCE } }] })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests: () => requests,
    release() {
      holding = false
      for (const resolve of waiting.splice(0)) resolve()
    },
    stop: () => server.stop(true),
  }
}

async function until<T>(what: string, take: () => Promise<T | undefined> | T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await Promise.resolve()
      .then(take)
      .catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(250)
  }
}

const scan = (handle: AppHandle, url: string, ip: string) =>
  handle.app.handle(
    new Request('http://localhost/api/scan', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ url, force: true }),
    }),
  )

const get = (handle: AppHandle, path: string, headers: Record<string, string> = {}) =>
  handle.app.handle(new Request(`http://localhost${path}`, { headers }))

describe.skipIf(!runnable)('resilience', () => {
  let sites: FixtureSite[]
  let model: ReturnType<typeof startModel>
  let postgres: DisposablePostgres
  const cleanups: (() => Promise<unknown> | unknown)[] = []

  beforeAll(async () => {
    sites = await startFixtureSites(['spa', 'blog'])
    postgres = await startDisposablePostgres()
  })
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch(() => {})
  })
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()))
    await postgres.destroy()
  })

  const baseEnv = (database: string) => ({
    DATABASE_URL: database,
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: resolveRules(sites),
    TRUST_PROXY: 'true',
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: model.url,
    LLM_API_KEY: 'scripted',
    LLM_MODEL: 'scripted',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://localhost:3000',
  })

  /** A database of its own per test on the disposable cluster. */
  async function freshDatabase(name: string): Promise<string> {
    const { default: postgresClient } = await import('postgres')
    const admin = postgresClient(postgres.url, { max: 1, onnotice: () => {} })
    await admin.unsafe(`drop database if exists ${name} with (force)`)
    await admin.unsafe(`create database ${name}`)
    await admin.end()
    return postgres.url.replace(/\/postgres$/, `/${name}`)
  }

  async function completed(handle: AppHandle, domain: string) {
    const row = await handle.pieces.scans.latest(domain)
    return row?.analysisStatus === 'complete' ? row : undefined
  }

  test('a deep job whose worker is killed (-9) mid-job is completed by the next worker within three minutes', async () => {
    model = startModel()
    cleanups.push(() => model.stop())
    const env = baseEnv(await freshDatabase('resilience_killed_worker'))
    const handle = await createApp(loadConfig({ ...env, WORKER_CONCURRENCY: '0' }))
    cleanups.push(() => handle.close())
    await handle.start()

    const response = await scan(handle, 'spa.test', '198.18.7.1')
    expect(response.status).toBe(202)

    const spawnWorker = () =>
      Bun.spawn([process.execPath, 'app/cli/main.ts', 'worker', '--concurrency', '1'], {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdout: 'ignore',
        stderr: 'ignore',
      })
    const first = spawnWorker()
    cleanups.push(() => first.kill('SIGKILL'))
    // The worker has resolved the rendered checks and is waiting on the summary: mid-job.
    await until('the first worker to reach the model', () => (model.requests() > 0 ? true : undefined), 120_000)
    first.kill('SIGKILL')
    await first.exited
    expect((await handle.pieces.scans.latest('spa.test'))?.analysisStatus).toBe('partial')

    model.release()
    const restartedAt = Date.now()
    const second = spawnWorker()
    cleanups.push(() => second.kill('SIGKILL'))
    const row = await until('the scan to complete', () => completed(handle, 'spa.test'), RECOVERY_BUDGET_MS)
    expect(Date.now() - restartedAt).toBeLessThan(RECOVERY_BUDGET_MS)
    // The model's sentence, not the fallback: the retried job ran to its end in the second worker.
    expect(row.agenticSummary).toBe(SENTENCE)
  }, 300_000)

  test('PostgreSQL and Redis stopped mid-scan: routes degrade, and everything completes once they are back', async () => {
    model = startModel()
    cleanups.push(() => model.stop())
    const redis: DisposableRedis = await startDisposableRedis()
    cleanups.push(() => redis.kill())
    const env = { ...baseEnv(await freshDatabase('resilience_outage')), REDIS_URL: redis.url }
    const handle = await createApp(loadConfig({ ...env, WORKER_CONCURRENCY: '1' }))
    cleanups.push(() => handle.close())
    await handle.start()

    expect((await scan(handle, 'spa.test', '198.18.8.1')).status).toBe(202)
    await until('the worker to reach the model', () => (model.requests() > 0 ? true : undefined), 120_000)

    await redis.kill()
    // Scans still run without Redis: limits fail open, cache invalidation and events are best effort.
    const duringRedisOutage = await scan(handle, 'blog.test', '198.18.8.2')
    expect([200, 202]).toContain(duringRedisOutage.status)
    const stream = await get(handle, '/api/scan/stream?domain=spa.test&force=1', { 'x-forwarded-for': '198.18.8.3' })
    expect(stream.status).toBe(200)
    const frames = (await stream.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)))
    expect(frames.some((frame) => frame.type === 'scan_complete')).toBe(true)
    expect((await get(handle, '/healthz')).status).toBe(200)
    const storeDown = await get(handle, '/readyz')
    expect(storeDown.status).toBe(503)
    expect((await storeDown.json()).checks.store.ok).toBe(false)

    await postgres.stop()
    expect((await get(handle, '/healthz', { authorization: 'Bearer ar_not_a_real_key' })).status).toBe(200)
    const scoreRead = await get(handle, '/api/score/blog.test')
    expect(scoreRead.status).toBe(500)
    expect(scoreRead.headers.get('x-request-id')).toBeTruthy()
    expect((await scoreRead.json()).code).toBe('DATABASE_UNAVAILABLE')
    const databaseDown = await get(handle, '/readyz')
    expect(databaseDown.status).toBe(503)
    expect((await databaseDown.json()).checks.database.ok).toBe(false)

    // The held job now fails to store its result; it must be retried, not lost, once the database is back.
    model.release()
    await Bun.sleep(1_000)
    await postgres.start()
    await redis.start()

    const spa = await until('spa.test to complete', () => completed(handle, 'spa.test'), RECOVERY_BUDGET_MS)
    expect(spa.agenticSummary).toBe(SENTENCE)
    await until('blog.test to complete', () => completed(handle, 'blog.test'), RECOVERY_BUDGET_MS)
    await until('readiness', async () => ((await get(handle, '/readyz')).status === 200 ? true : undefined), 30_000)
  }, 400_000)
})
