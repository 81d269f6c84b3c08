/**
 * The server half of bench/score-read.ts, run in its own process so that the load generator has the other core:
 * `score` serves the real app with one stored scan of the excellent fixture; `bare <file>` serves the same bytes
 * from a minimal Elysia route. Prints `READY <port>` once it listens.
 */
import { Elysia } from 'elysia'
import { createApp } from '../app/app.ts'
import { loadConfig } from '../core/config.ts'
import { createEngine } from '../app/engine.ts'
import { scanUrl } from '../tests/support/scan.ts'
import { startFixtureSite } from '../tests/fixtures/sites/server.ts'

const [mode, bodyFile] = process.argv.slice(2)
if (mode === 'bare') {
  // The very bytes a score read returns, so that the comparison measures what the route adds, not payload size.
  const body = await Bun.file(bodyFile!).text()
  const app = new Elysia()
    .get('/bare', () => new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } }))
    .listen({ port: 0, hostname: '127.0.0.1' })
  console.log(`READY ${app.server!.port}`)
} else {
  const site = await startFixtureSite('excellent')
  const config = loadConfig({
    DATABASE_URL: 'memory://',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'true',
    WORKER_CONCURRENCY: '0',
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: site.resolveRule,
  })
  const report = await scanUrl(site.host, createEngine(config, { browser: null }))
  await site.stop()
  const { app, pieces, start } = await createApp(config, { browser: null })
  await start()
  await pieces.scans.insert(report, { ephemeral: false })
  app.listen({ port: 0, hostname: '127.0.0.1' })
  console.log(`READY ${app.server!.port}`)
}

// Exit cleanly on SIGINT so that `bun --cpu-prof` can write its profile.
process.on('SIGINT', () => process.exit(0))
