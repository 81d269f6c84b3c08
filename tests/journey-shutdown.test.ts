import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { AppHandle } from '../app/app.ts'
import { journeyChannel, JourneyWorker } from '../plugins/journey/worker.ts'
import { testApp } from './helpers.ts'
import { createRun } from './support/journey.ts'

/**
 * A worker that stops (a deploy, SIGTERM) ends the runs it is working as interrupted at once, without waiting for
 * the site or judging half a walk, and leaves the runs it had not started queued for the next worker.
 */
const SLOW_HOST = 'slow.test'
let requests = 0
let answered = 0
const slow = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch() {
    requests++
    await Bun.sleep(10_000)
    answered++
    return new Response('<!doctype html><title>Slow</title><a href="/pricing">Pricing</a>', {
      headers: { 'content-type': 'text/html' },
    })
  },
})
let app: AppHandle
beforeAll(async () => {
  // No queue worker: the runs here are worked by hand.
  app = await testApp(
    { SCANNER_RESOLVE: `${SLOW_HOST}:443:127.0.0.1:${slow.port}`, WORKER_CONCURRENCY: '0' },
    { start: true },
  )
})
afterAll(async () => {
  await app.close()
  slow.stop(true)
})

async function queuedRun(): Promise<string> {
  const response = await createRun(app, { intent: { id: 'find-pricing' }, domain: SLOW_HOST })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

test('stopping ends a run in progress as interrupted, before the site even answers, with an error event', async () => {
  const id = await queuedRun()
  const published: { type: string }[] = []
  const unsubscribe = await app.pieces.store.subscribe(journeyChannel(id), (message) =>
    published.push(JSON.parse(message)),
  )
  const worker = new JourneyWorker(app.pieces)
  const working = worker.process(id)
  for (let waited = 0; requests === 0 && waited < 10_000; waited += 25) await Bun.sleep(25)
  expect((await app.pieces.journeyRuns.byId(id))?.status).toBe('running')

  await worker.stop()
  await working
  const run = await app.pieces.journeyRuns.byId(id)
  expect(answered).toBe(0)
  expect(run).toMatchObject({ status: 'failed', error: { code: 'RUN_INTERRUPTED' } })
  expect(run?.verdict ?? null).toBeNull()
  for (let waited = 0; published.at(-1)?.type !== 'error' && waited < 5_000; waited += 25) await Bun.sleep(25)
  await unsubscribe()
  expect(published.map((event) => event.type)).not.toContain('result')
  expect(published.at(-1)?.type).toBe('error')
})

test('a stopped worker takes no new run: the job fails for its retry and the run stays queued', async () => {
  const id = await queuedRun()
  const worker = new JourneyWorker(app.pieces)
  await worker.stop()
  await expect(worker.process(id)).rejects.toThrow('stopping')
  expect((await app.pieces.journeyRuns.byId(id))?.status).toBe('queued')
})
