/**
 * Static-phase scan latency of the excellent fixture: median over 50 sequential scans, then throughput and the
 * process's peak RSS with 10 scans in flight (`--concurrency 50` for the hardening figure in bench/RESULTS.md). A counting proxy in front of the fixture shows how many requests each scan sends and whether
 * any identical request (method, path, Accept, User-Agent, Origin, body) was sent twice. Prints figures; asserts nothing.
 *
 *   bun bench/scan.ts [--scans 50] [--concurrency 10]
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../core/config.ts'
import { createEngine } from '../app/engine.ts'
import { scanUrl } from '../tests/support/scan.ts'
import { startFixtureSite } from '../tests/fixtures/sites/server.ts'
import { percentile } from './stats.ts'

const { values } = parseArgs({
  options: { scans: { type: 'string', default: '50' }, concurrency: { type: 'string', default: '10' } },
})
const SCANS = Number(values.scans)
const CONCURRENCY = Number(values.concurrency)

const site = await startFixtureSite('excellent')
const seen = new Map<string, number>()
const proxy = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const url = new URL(request.url)
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
    // POSTs (MCP JSON-RPC calls) differ by body: two calls to one endpoint are not a repeat.
    const key = [
      request.method,
      url.pathname + url.search,
      request.headers.get('accept'),
      request.headers.get('user-agent'),
      request.headers.get('origin'),
      body ? Bun.hash(body) : '',
    ].join(' | ')
    seen.set(key, (seen.get(key) ?? 0) + 1)
    const upstream = new URL(url.pathname + url.search, site.origin)
    return fetch(upstream, { method: request.method, headers: request.headers, body, redirect: 'manual' })
  },
})

const engine = createEngine(
  loadConfig({
    SCANNER_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'silent',
    SCANNER_RESOLVE: `${site.host}:443:127.0.0.1:${proxy.port}`,
  }),
  { browser: null },
)
const once = () => scanUrl(site.host, engine, { phase: 'static' })

for (let i = 0; i < 5; i++) await once()

const durations: number[] = []
let requests = 0
let duplicates = 0
for (let i = 0; i < SCANS; i++) {
  seen.clear()
  const started = performance.now()
  const report = await once()
  durations.push(performance.now() - started)
  requests = report.requestCount
  duplicates = [...seen.values()].filter((count) => count > 1).length
  if (i === 0) for (const [key, count] of seen) if (count > 1) console.log(`  sent ${count}x: ${key}`)
}
durations.sort((a, b) => a - b)

let peakRss = process.memoryUsage.rss()
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss())
}, 10)
const started = performance.now()
let next = 0
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < SCANS) await once()
  }),
)
const elapsed = (performance.now() - started) / 1000
clearInterval(sampler)

console.log(`static-phase scan of ${site.host} (${engine.registry.size} checks), ${SCANS} scans`)
console.log(
  `  median ${percentile(durations, 50).toFixed(1)} ms   p95 ${percentile(durations, 95).toFixed(1)} ms   min ${durations[0]!.toFixed(1)} ms   (target: median <= 150 ms)`,
)
console.log(`  requests per scan: ${requests}; identical requests sent more than once: ${duplicates}`)
console.log(
  `  throughput at ${CONCURRENCY} concurrent scans: ${(SCANS / elapsed).toFixed(1)} scans/s; peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB`,
)

proxy.stop(true)
await site.stop()
