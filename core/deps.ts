import type { Config } from './config.ts'
import type { SigningKeys } from './crypto/signing.ts'
import { type Database, migrate, openDatabase } from './db/index.ts'
import type { BrowserProvider } from './engine/browser.ts'
import { createEngineDeps } from './engine-deps.ts'
import type { CheckRegistry } from './engine/registry.ts'
import type { OutboundClient } from './outbound/client.ts'
import { JobQueue } from './jobs/queue.ts'
import { KeyService } from './keys/service.ts'
import { createLogger, type Logger } from './log.ts'
import { Outage } from './outage.ts'
import { ReadCache } from './read-cache.ts'
import { ServiceSecrets } from './secrets/index.ts'
import { openStore } from './store/index.ts'
import type { Store } from './store/types.ts'
import { ardIndexer } from '../plugins/ard/indexer.ts'
import { JourneyRepository } from '../plugins/journey/repository.ts'
import { ScanRepository } from '../plugins/scan/repository.ts'

/** Everything a plugin or service may need, built once per app; services receive plain pieces of it. */
export interface AppDeps {
  config: Readonly<Config>
  log: Logger
  database: Database
  store: Store
  keys: KeyService
  signing: SigningKeys
  outbound: OutboundClient
  registry: CheckRegistry
  /** The system or remote Chromium for rendered checks; null when none is configured. */
  browser: BrowserProvider | null
  /** HMAC keys for the service's own tokens, shared by all instances. */
  secrets: ServiceSecrets
  /** Rendered score reads, dropped on every scan write (here and, through the store, on every instance). */
  readCache: ReadCache
  /** Durable background jobs (deep analysis, cleanup), kept in the database. */
  jobs: JobQueue
  /** The scans table; every stored result also updates the ARD index, in the same transaction. */
  scans: ScanRepository
  /** Journey runs and their steps, shared by the journey routes and the worker that executes runs. */
  journeyRuns: JourneyRepository
}

export interface DepsOverrides {
  log?: Logger
  store?: Store
  database?: Database
  browser?: BrowserProvider | null
  /** Prefix of this app's job queue names, for tests sharing one database. */
  jobNamespace?: string
}

export async function openDeps(config: Readonly<Config>, overrides: DepsOverrides = {}): Promise<AppDeps> {
  const log = overrides.log ?? createLogger(config)
  const engine = createEngineDeps(config, overrides)
  const database = overrides.database ?? (await openDatabase(config))
  await migrate(config, database)
  // ioredis reports every reconnection attempt; an outage is logged when it starts, not every few hundred ms.
  const storeOutage = new Outage(log, 'store')
  const store = overrides.store ?? (await openStore(config, { onError: (error) => storeOutage.failed(error) }))
  const readCache = new ReadCache(store)
  const jobs = JobQueue.create(database, log, { namespace: overrides.jobNamespace })
  return {
    ...engine,
    log,
    database,
    store,
    keys: new KeyService(database.db),
    secrets: new ServiceSecrets(store, config.serviceSecret),
    readCache,
    jobs,
    scans: new ScanRepository(database.db, [ardIndexer(config, engine.registry)]),
    journeyRuns: new JourneyRepository(database.db),
  }
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await deps.jobs.stop()
  await deps.readCache.stop().catch(() => {})
  await Promise.allSettled([deps.store.close(), deps.database.close(), deps.browser?.close()])
}
