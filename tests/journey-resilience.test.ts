import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { createApp, type AppHandle } from '../app/app.ts'
import { openStore } from '../core/store/index.ts'
import { journeyChannel, JourneyWorker } from '../plugins/journey/worker.ts'
import { resolveRules, startFixtureSites, type FixtureSite } from './fixtures/sites/server.ts'
import { testConfig } from './helpers.ts'
import { createRun, getPath, readFrames, untilEnded } from './support/journey.ts'

/**
 * Runs that cannot finish end `failed`, never stuck `running`; a stream follows a run another instance executes.
 * Two apps share one database and one store: the same Redis with REDIS_URL, else one in-process store object.
 */
let sites: FixtureSite[]
let api: AppHandle
let worker: AppHandle
beforeAll(async () => {
  sites = await startFixtureSites(['excellent'])
  const env = { SCANNER_RESOLVE: resolveRules(sites), TRUST_PROXY: 'true' }
  const prefix = `test:${randomUUID()}:`
  // The API instance works no jobs, so every run here is executed by the other instance (or by hand).
  const apiConfig = testConfig({ ...env, WORKER_CONCURRENCY: '0' })
  const store = await openStore(apiConfig, { prefix })
  api = await createApp(apiConfig, { store, browser: null, jobNamespace: `test-api-${randomUUID()}.` })
  await api.start()
  const workerConfig = testConfig({ ...env, WORKER_CONCURRENCY: '2' })
  worker = await createApp(workerConfig, {
    store: process.env.REDIS_URL ? await openStore(workerConfig, { prefix }) : store,
    ...(process.env.DATABASE_URL ? {} : { database: api.pieces.database }),
    browser: null,
    jobNamespace: `test-worker-${randomUUID()}.`,
  })
  await worker.start()
})
afterAll(async () => {
  await worker.close()
  await api.close().catch(() => {})
  await Promise.all(sites.map((site) => site.stop()))
})

const pricing = { intent: { id: 'find-pricing' }, domain: 'excellent.test' }

describe('journey runs that cannot finish', () => {
  test('a retry of a run left running (its process died) ends it failed with RUN_INTERRUPTED and publishes error', async () => {
    const created = (await (await createRun(api, pricing)).json()) as { id: string }
    const repository = api.pieces.journeyRuns
    expect(await repository.markRunning(created.id)).toBe(true)
    const published: string[] = []
    const unsubscribe = await api.pieces.store.subscribe(journeyChannel(created.id), (message) =>
      published.push(message),
    )
    // The job is still queued on the API instance's queue: a worker there takes it as the retry would.
    await new JourneyWorker(api.pieces).start(1)
    const run = await untilEnded(api, created.id)
    await unsubscribe()
    expect(run.status).toBe('failed')
    expect(run.error).toMatchObject({ code: 'RUN_INTERRUPTED' })
    expect(typeof run.finished_at).toBe('string')
    expect(published.map((message) => JSON.parse(message) as { type: string }).map((event) => event.type)).toEqual([
      'error',
    ])
    const frames = await readFrames(await getPath(api, `/api/journey/runs/${created.id}/stream`))
    expect(frames.map((frame) => frame.event)).toEqual(['run_id', 'error'])
    expect(frames[1]!.data).toMatchObject({ run_id: created.id, code: 'RUN_INTERRUPTED' })
  })

  test('an exception while running ends the run failed with an error event', async () => {
    const repository = api.pieces.journeyRuns
    const [row] = await repository.insert(
      [
        {
          intentId: 'find-pricing',
          customIntent: null,
          domain: 'excellent.test',
          agentId: 'retired-agent',
          harness: 'builtin',
          model: 'x',
          identity: 'self',
          keyId: null,
        },
      ],
      async () => {},
    )
    const published: string[] = []
    const unsubscribe = await api.pieces.store.subscribe(journeyChannel(row!.id), (message) => published.push(message))
    await new JourneyWorker(api.pieces).process(row!.id)
    // Redis delivers asynchronously.
    for (let waited = 0; published.length === 0 && waited < 5000; waited += 50) await Bun.sleep(50)
    await unsubscribe()
    expect(published.map((message) => JSON.parse(message) as unknown)).toEqual([
      { type: 'error', error: { code: 'AGENT_UNAVAILABLE', message: expect.any(String) } },
    ])
    const run = (await (await getPath(api, `/api/journey/runs/${row!.id}`)).json()) as Record<string, unknown>
    expect(run.status).toBe('failed')
    expect(run.error).toMatchObject({ code: 'AGENT_UNAVAILABLE' })
  })
})

describe('across instances', () => {
  test('a stream on one instance follows a run another instance executes', async () => {
    const created = (await (await createRun(worker, pricing)).json()) as { id: string; stream_url: string }
    const frames = await readFrames(await getPath(api, new URL(created.stream_url).pathname))
    const events = frames.map((frame) => frame.event)
    expect(events[0]).toBe('run_id')
    expect(events.at(-1)).toBe('result')
    const result = frames.at(-1)!.data as { status: string; step_count: number; id: string }
    expect(result).toMatchObject({ id: created.id, status: 'completed' })
    expect(frames.filter((frame) => frame.event === 'trajectory')).toHaveLength(result.step_count)
  })
})
