import { sql } from 'drizzle-orm'
import { fromDrizzle, fromPglite, type Job, PgBoss } from 'pg-boss'
import type { z } from 'zod'
import type { Database, Db } from '../db/index.ts'
import type { Logger } from '../log.ts'
import { Outage } from '../outage.ts'

/**
 * Durable background jobs on pg-boss: jobs live in PostgreSQL (the system of record, or PGlite by default), are
 * enqueued in the same transaction as the row they finish, retried with backoff, and taken back from a worker
 * that stopped sending heartbeats (killed, frozen, cut off), so no job is lost when a process or Redis dies.
 */

export interface JobDefinition<T> {
  /** Queue name; stable, since queued jobs outlive deployments. */
  name: string
  /** Payloads are validated when taken: a job written by an older or foreign producer is dropped, not run. */
  data: z.ZodType<T>
  retryLimit: number
  retryDelaySeconds: number
  /** Longest a single attempt may run before it is failed (and retried). */
  expireInSeconds: number
  /** A worker that sends no heartbeat for this long is presumed dead and its job is retried elsewhere. */
  heartbeatSeconds: number
  /**
   * Workers take a sent job at once instead of at their next poll: in this process through `wake`, in others
   * through LISTEN/NOTIFY (PostgreSQL only). Polling stays the floor when a notification is lost.
   */
  notify?: boolean
}

export function defineJob<T>(definition: JobDefinition<T>): JobDefinition<T> {
  return definition
}

export interface Attempt {
  /** 0 on the first attempt. */
  retryCount: number
  /** No retry follows when this attempt fails: the handler reports the failure to users now. */
  final: boolean
}

/** What a transaction or the database offers for enqueueing: drizzle's `execute`. */
export type Executor = Pick<Db, 'execute'>

/** How often expired and heartbeat-less jobs are looked for; bounds how long a dead worker's job waits. */
const SUPERVISE_INTERVAL_SECONDS = 10
const POLLING_INTERVAL_SECONDS = 1
const STOP_TIMEOUT_MS = 15_000

export interface JobQueueOptions {
  /** Prefix of every queue name: lets tests that share one database keep their jobs apart. */
  namespace?: string
  /** Whether this process looks for expired jobs and runs maintenance (every process may; pg-boss coordinates). */
  supervise?: boolean
}

export class JobQueue {
  /** pg-boss reports every failed poll; an outage is logged when it starts, not once a second until it ends. */
  private readonly outage: Outage
  private started = false
  /** This process's pg-boss worker ids per queue, for `wake`. */
  private readonly workers = new Map<string, string[]>()

  private constructor(
    private readonly boss: PgBoss,
    private readonly namespace: string,
    private readonly log: Logger,
  ) {
    this.outage = new Outage(log, 'job queue')
    boss.on('error', (error) => this.outage.failed(error))
  }

  /** Builds the queue without touching the database: `start()` installs pg-boss's schema and starts it. */
  static create(database: Database, log: Logger, options: JobQueueOptions = {}): JobQueue {
    const common = {
      supervise: options.supervise ?? true,
      superviseIntervalSeconds: SUPERVISE_INTERVAL_SECONDS,
      monitorIntervalSeconds: SUPERVISE_INTERVAL_SECONDS,
      schema: 'pgboss',
    }
    const boss =
      database.kind === 'postgres'
        ? new PgBoss({ ...common, connectionString: database.url, max: 4, useListenNotify: true })
        : new PgBoss({ ...common, db: fromPglite(database.client), backend: 'pglite' })
    return new JobQueue(boss, options.namespace ?? '', log)
  }

  /**
   * Installs or upgrades pg-boss's own schema and starts its timers (queue cache, supervision, cron); jobs can
   * only be sent, worked or scheduled after this.
   */
  async start(): Promise<void> {
    await this.boss.start()
    this.started = true
  }

  /** Creates the queue or brings its retry and expiry policy up to date. */
  async declare(job: JobDefinition<unknown>): Promise<void> {
    const name = this.queueName(job)
    const policy = {
      retryLimit: job.retryLimit,
      retryDelay: job.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: job.expireInSeconds,
      heartbeatSeconds: job.heartbeatSeconds,
      notify: job.notify ?? false,
    }
    if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, policy)
    else await this.boss.createQueue(name, policy)
  }

  /**
   * Enqueues a job; with `tx`, inside that transaction, so the job exists exactly when the row it finishes does.
   * `singletonKey` keeps one queued job per key (a second send while one waits is a no-op).
   */
  async send<T>(job: JobDefinition<T>, data: T, options: { tx?: Executor; singletonKey?: string } = {}): Promise<void> {
    if (!this.started) throw new Error(`jobs: ${job.name} sent before the job queue was started (AppHandle.start())`)
    await this.boss.send(this.queueName(job), job.data.parse(data) as object, {
      // pg-boss types drizzle's execute result more narrowly than drizzle declares it; the shapes agree at run time.
      ...(options.tx ? { db: fromDrizzle(options.tx as unknown as Parameters<typeof fromDrizzle>[0], sql) } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    })
  }

  /**
   * Runs `handler` for each job, `concurrency` at a time in this process. A handler that throws fails the
   * attempt; pg-boss retries it with backoff until `retryLimit`.
   */
  async work<T>(
    job: JobDefinition<T>,
    concurrency: number,
    handler: (data: T, attempt: Attempt) => Promise<void>,
  ): Promise<void> {
    await this.declare(job)
    const name = this.queueName(job)
    const id = await this.boss.work<object>(
      name,
      { batchSize: 1, localConcurrency: concurrency, pollingIntervalSeconds: POLLING_INTERVAL_SECONDS },
      async ([taken]: Job<object>[]) => {
        const parsed = job.data.safeParse(taken!.data)
        if (!parsed.success) {
          this.log.warn({ queue: job.name, jobId: taken!.id }, 'jobs: malformed job dropped')
          return
        }
        await handler(parsed.data, { retryCount: taken!.retryCount, final: taken!.retryCount >= job.retryLimit })
      },
    )
    this.workers.set(name, [...(this.workers.get(name) ?? []), id])
  }

  /**
   * Stops this process's workers of the queue from taking jobs; a job already running is left to finish, within
   * the grace period of `stop()`.
   */
  async unwork(job: JobDefinition<unknown>): Promise<void> {
    const name = this.queueName(job)
    if (!this.workers.delete(name)) return
    await this.boss.offWork(name, { wait: false })
  }

  /** Has this process's workers of the queue fetch now rather than at their next poll (after a committed send). */
  wake(job: JobDefinition<unknown>): void {
    for (const id of this.workers.get(this.queueName(job)) ?? []) this.boss.notifyWorker(id)
  }

  /** Runs the job on a cron schedule, once per tick across every process sharing the database. */
  async schedule(job: JobDefinition<Record<string, never>>, cron: string): Promise<void> {
    await this.declare(job)
    await this.boss.schedule(this.queueName(job), cron, {})
  }

  /** Jobs of a queue that are waiting, running or due for a retry (read now, not from cached queue stats). */
  async pending(job: JobDefinition<unknown>): Promise<number> {
    const found = await this.boss.findJobs(this.queueName(job))
    return found.filter((entry) => entry.state === 'created' || entry.state === 'active' || entry.state === 'retry')
      .length
  }

  /** Stops taking jobs, lets running handlers finish (up to a grace period), then closes pg-boss's connections. */
  async stop(): Promise<void> {
    this.started = false
    await this.boss.stop({ graceful: true, timeout: STOP_TIMEOUT_MS }).catch((error: unknown) => {
      this.log.warn({ err: error }, 'jobs: stop failed')
    })
  }

  private queueName(job: JobDefinition<unknown>): string {
    return `${this.namespace}${job.name}`
  }
}
