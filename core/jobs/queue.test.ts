import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { z } from 'zod'
import { testConfig } from '../../tests/helpers.ts'
import { type Database, openDatabase } from '../db/index.ts'
import { createLogger } from '../log.ts'
import { defineJob, JobQueue } from './queue.ts'

let database: Database
let jobs: JobQueue

beforeAll(async () => {
  database = await openDatabase(testConfig())
  jobs = JobQueue.create(database, createLogger(testConfig()), { namespace: `test-${randomUUID()}.` })
  await jobs.start()
  await database.db.execute(sql`create table if not exists job_queue_test (id text primary key)`)
})

afterAll(async () => {
  await jobs.stop()
  await database.db.execute(sql`drop table if exists job_queue_test`)
  await database.close()
})

const echoJob = (name: string, retryLimit = 0) =>
  defineJob({
    name,
    data: z.object({ value: z.string() }),
    retryLimit,
    retryDelaySeconds: 1,
    expireInSeconds: 60,
    heartbeatSeconds: 10,
  })

/** Resolves with what `take` returns once it returns something, polling every 50 ms; rejects after `ms`. */
async function eventually<T>(take: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await take()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await Bun.sleep(50)
  }
}

describe('JobQueue', () => {
  test('a queue that was only built refuses to send, so building an app never depends on started timers', async () => {
    const built = JobQueue.create(database, createLogger(testConfig()), { namespace: `test-${randomUUID()}.` })
    await expect(built.send(echoJob('never-started'), { value: 'x' })).rejects.toThrow(
      /before the job queue was started/,
    )
    await built.stop()
  })

  test('a job sent inside a transaction exists only if the transaction commits', async () => {
    const job = echoJob('transactional')
    await jobs.declare(job)
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into job_queue_test (id) values ('rolled-back')`)
        await jobs.send(job, { value: 'rolled-back' }, { tx })
        throw new Error('roll back')
      })
      .catch(() => {})
    expect(await jobs.pending(job)).toBe(0)

    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into job_queue_test (id) values ('committed')`)
      await jobs.send(job, { value: 'committed' }, { tx })
    })
    expect(await jobs.pending(job)).toBe(1)
    const seen: string[] = []
    await jobs.work(job, 1, async ({ value }) => {
      seen.push(value)
    })
    expect(await eventually(() => (seen.length > 0 ? seen : undefined))).toEqual(['committed'])
  })

  test('a failing attempt is retried, and only the last attempt is final', async () => {
    const job = echoJob('retried', 2)
    const attempts: { retryCount: number; final: boolean }[] = []
    await jobs.work(job, 1, async (_data, attempt) => {
      attempts.push(attempt)
      if (!attempt.final) throw new Error('transient')
    })
    await jobs.send(job, { value: 'x' })
    await eventually(() => (attempts.length === 3 ? true : undefined), 30_000)
    expect(attempts).toEqual([
      { retryCount: 0, final: false },
      { retryCount: 1, final: false },
      { retryCount: 2, final: true },
    ])
  }, 40_000)

  test('a payload that does not match the job schema is dropped without running the handler', async () => {
    const job = echoJob('validated')
    const foreignProducer = { ...job, data: z.unknown() }
    const seen: string[] = []
    await jobs.work(job, 1, async ({ value }) => {
      seen.push(value)
    })
    await jobs.send(foreignProducer, { value: 42 })
    await jobs.send(job, { value: 'valid' })
    await eventually(() => (seen.length > 0 ? true : undefined))
    await eventually(async () => ((await jobs.pending(job)) === 0 ? true : undefined))
    expect(seen).toEqual(['valid'])
  })

  test('namespaces keep the jobs of two queues on one database apart', async () => {
    const other = JobQueue.create(database, createLogger(testConfig()), {
      namespace: `test-${randomUUID()}.`,
      supervise: false,
    })
    await other.start()
    try {
      const job = echoJob('isolated')
      await other.declare(job)
      await jobs.declare(job)
      await other.send(job, { value: 'theirs' })
      expect(await other.pending(job)).toBe(1)
      expect(await jobs.pending(job)).toBe(0)
    } finally {
      await other.stop()
    }
  })
})
