import type { Config } from './config.ts'
import { contextPlugin } from './context.ts'
import type { SigningKeys } from './crypto/signing.ts'
import { type Database, migrate, openDatabase } from './db/index.ts'
import type { BrowserProvider } from './engine/browser.ts'
import type { AppErrors } from './errors.ts'
import type { Engine } from './engine/engine.ts'
import type { CheckRegistry } from './engine/registry.ts'
import type { BackgroundWork } from './feature.ts'
import type { OutboundClient } from './outbound/client.ts'
import { JobQueue } from './jobs/queue.ts'
import { KeyService } from './keys/service.ts'
import { createLogger, type Logger } from './log.ts'
import { Outage } from './outage.ts'
import { ReadCache } from './read-cache.ts'
import { ServiceSecrets } from './secrets/index.ts'
import { openStore } from './store/index.ts'
import type { Store } from './store/types.ts'

/**
 * The pieces the kernel provides to every feature (core/feature.ts), built once per app or worker process. It
 * knows no feature: what features build on it (repositories, services) they provide themselves.
 */
export interface Kernel {
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
}

/**
 * What a feature may need from the kernel: its pieces, the errors of the composed app (every code, and the
 * envelope of each path, as the features declared them), and the request-context plugin (request id, caller,
 * limits, body parser, error mapper) built once over them, which every feature's routes use.
 */
export type KernelPieces = Kernel & { errors: AppErrors; context: ReturnType<typeof contextPlugin> }

/** The names of the kernel's pieces, known before it is opened, so that the boot check runs before any connection. */
const KERNEL_PIECE_NAMES: Record<keyof KernelPieces, true> = {
  config: true,
  log: true,
  database: true,
  store: true,
  keys: true,
  signing: true,
  outbound: true,
  registry: true,
  browser: true,
  secrets: true,
  readCache: true,
  jobs: true,
  errors: true,
  context: true,
}
export const KERNEL_PIECES = Object.keys(KERNEL_PIECE_NAMES)

export function kernelPieces(kernel: Kernel, errors: AppErrors): KernelPieces {
  return { ...kernel, errors, context: contextPlugin(kernel, errors) }
}

export interface KernelOverrides {
  log?: Logger
  store?: Store
  database?: Database
  /** Prefix of this app's job queue names, for tests sharing one database. */
  jobNamespace?: string
}

/** Opens the kernel around `engine`, which the composition root builds over the checks it registers. */
export async function openKernel(
  config: Readonly<Config>,
  engine: Engine,
  overrides: KernelOverrides = {},
): Promise<Kernel> {
  const log = overrides.log ?? createLogger(config)
  const database = overrides.database ?? (await openDatabase(config))
  await migrate(config, database)
  // ioredis reports every reconnection attempt; an outage is logged when it starts, not every few hundred ms.
  const storeOutage = new Outage(log, 'store')
  const store = overrides.store ?? (await openStore(config, { onError: (error) => storeOutage.failed(error) }))
  return {
    ...engine,
    log,
    database,
    store,
    keys: new KeyService(database.db),
    secrets: new ServiceSecrets(store, config.serviceSecret),
    readCache: new ReadCache(store),
    jobs: JobQueue.create(database, log, { namespace: overrides.jobNamespace }),
  }
}

/**
 * The kernel's own background work, started before the features' and stopped after them: the read cache's
 * invalidation feed (drops announced by other instances) and the job queue (pg-boss's schema and timers), which
 * the features' workers and every job sent need.
 */
export function kernelBackground(kernel: Kernel): BackgroundWork[] {
  return [
    { start: () => kernel.readCache.start(), stop: () => kernel.readCache.stop().catch(() => {}) },
    { start: () => kernel.jobs.start(), stop: () => kernel.jobs.stop() },
  ]
}

/** Closes the connections; the background work is stopped first (AppHandle.close). */
export async function closeKernel(kernel: Kernel): Promise<void> {
  await Promise.allSettled([kernel.store.close(), kernel.database.close(), kernel.browser?.close()])
}
