import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import postgres from 'postgres'
import { createApp, type AppHandle } from '../app/app.ts'
import { loadConfig } from '../core/config.ts'
import { testEnv } from './helpers.ts'
import { createRun, getPath } from './support/journey.ts'

/**
 * A worker process killed (-9) in the middle of a journey: the run must end `failed` (RUN_INTERRUPTED) once the
 * queue gives the job to the next worker, never stay `running`. Worker processes share the database with the API,
 * so this needs PostgreSQL (DATABASE_URL); it gets a database of its own there.
 */
const runnable = Boolean(process.env.DATABASE_URL)
const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** A site that never answers: whatever the agent asks first, it is still waiting when the worker dies. */
function startHeldSite() {
  let requests = 0
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    fetch: () => {
      requests++
      return new Promise<Response>(() => {})
    },
  })
  return { port: server.port!, requests: () => requests, stop: () => server.stop(true) }
}

async function until<T>(what: string, take: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await take().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(250)
  }
}

describe.skipIf(!runnable)('a journey worker killed mid-run', () => {
  const name = `journey_kill_${randomUUID().replaceAll('-', '')}`
  const admin = runnable ? postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} }) : null
  let site: ReturnType<typeof startHeldSite>
  let env: Record<string, string>
  let api: AppHandle
  const workers: ReturnType<typeof Bun.spawn>[] = []

  beforeAll(async () => {
    site = startHeldSite()
    await admin!.unsafe(`create database ${name}`)
    const url = new URL(process.env.DATABASE_URL!)
    url.pathname = `/${name}`
    const all = testEnv({
      DATABASE_URL: url.href,
      SCANNER_RESOLVE: `held.test:443:127.0.0.1:${site.port}`,
      TRUST_PROXY: 'true',
    })
    env = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined))
    api = await createApp(loadConfig({ ...env, WORKER_CONCURRENCY: '0' }), { browser: null })
    await api.start()
  })
  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL')
    await api?.close()
    site.stop()
    await admin!.unsafe(`drop database if exists ${name} with (force)`)
    await admin!.end()
  })

  const spawnWorker = () => {
    const worker = Bun.spawn([process.execPath, 'app/cli/main.ts', 'worker', '--concurrency', '1'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdout: 'ignore',
      stderr: 'ignore',
    })
    workers.push(worker)
    return worker
  }

  test('the run ends failed with RUN_INTERRUPTED once the next worker takes the job back', async () => {
    const created = (await (await createRun(api, { intent: { id: 'find-pricing' }, domain: 'held.test' })).json()) as {
      id: string
    }
    const first = spawnWorker()
    await until('the worker to reach the site', async () => (site.requests() > 0 ? true : undefined), 60_000)
    const read = async () =>
      (await (await getPath(api, `/api/journey/runs/${created.id}`)).json()) as {
        status: string
        error: { code: string } | null
      }
    expect((await read()).status).toBe('running')
    first.kill('SIGKILL')
    await first.exited
    spawnWorker()
    const run = await until(
      'the run to end',
      async () => {
        const current = await read()
        return current.status === 'running' ? undefined : current
      },
      150_000,
    )
    expect(run.status).toBe('failed')
    expect(run.error?.code).toBe('RUN_INTERRUPTED')
  }, 240_000)
})
