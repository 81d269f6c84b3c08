import { createApp } from './app.ts'
import type { Config } from '../core/config.ts'

/** How long in-flight requests (including open SSE streams) get to finish after SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000

/**
 * Bun answers a Content-Length over its own `maxRequestBodySize` with a bare 413 (no envelope, no request id)
 * before the app sees the request. So Bun's limit is out of reach and the app enforces MAX_BODY_BYTES itself:
 * a declared length in onRequest, a chunked body by the streaming cap of the body parser (core/request/body-cap.ts).
 */
export function listenOptions(config: Pick<Config, 'port' | 'host'>) {
  return { port: config.port, hostname: config.host, maxRequestBodySize: Number.MAX_SAFE_INTEGER }
}

export async function serve(config: Readonly<Config>): Promise<void> {
  const { app, pieces, start, close } = await createApp(config)
  await start()
  app.listen(listenOptions(config))
  pieces.log.info(
    {
      url: config.publicBaseUrl,
      port: config.port,
      database: pieces.database.kind,
      store: pieces.store.kind,
      signing: pieces.signing.current ? pieces.signing.current.kid : null,
    },
    'agent-readiness listening',
  )

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    pieces.log.info({ signal }, 'shutting down: finishing in-flight requests')
    const forced = setTimeout(() => {
      pieces.log.warn('grace period over: closing open connections')
      void app.server?.stop(true)
    }, SHUTDOWN_GRACE_MS)
    forced.unref()
    await app.server?.stop(false)
    clearTimeout(forced)
    await close()
    pieces.log.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
