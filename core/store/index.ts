import type { Config } from '../config.ts'
import { createLogger } from '../log.ts'
import { MemoryStore } from './memory.ts'
import { connectRedisStore } from './redis.ts'
import type { Store, StoreErrorHandler } from './types.ts'

export type { ReleaseLock, SlidingWindowState, Store, StoreErrorHandler, StoreKind, Unsubscribe } from './types.ts'

export interface OpenStoreOptions {
  /** Redis namespace for every key and channel (default `ar:`); tests pass a random one. */
  prefix?: string
  /** Failures with no caller to reject (lost connection, throwing subscriber); default: logged at error level. */
  onError?: StoreErrorHandler
}

/** Redis when REDIS_URL is set (connected before this resolves), the in-process store otherwise. */
export async function openStore(
  config: Pick<Config, 'redisUrl' | 'logLevel'>,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const onError = options.onError ?? logErrors(config)
  if (!config.redisUrl) return new MemoryStore(onError)
  return connectRedisStore({ url: config.redisUrl, prefix: options.prefix ?? 'ar:', onError })
}

function logErrors(config: Pick<Config, 'logLevel'>): StoreErrorHandler {
  const log = createLogger(config)
  return (error) => log.error({ err: error }, 'store')
}
