/**
 * Cached score reads against the same machine's bare Elysia route serving the same bytes, in one run: each server
 * runs in its own process, wrk drives it with 64 connections, and every request comes from a different client
 * address (through TRUST_PROXY), as real anonymous readers do, so the per-IP rate limiter is paid on every read. Prints figures;
 * asserts nothing. Target: score reads >= 70% of the bare route's throughput, p99 < 10 ms.
 *
 * Single runs on a small shared machine vary by a fifth or more, so the two routes are measured in alternating
 * rounds and compared by their medians.
 *
 *   bun bench/score-read.ts [--seconds 8] [--rounds 3] [--connections 64]
 * Needs `wrk` (Debian: apt-get install wrk).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { median } from './stats.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
  },
})
if (!Bun.which('wrk')) {
  console.error('bench/score-read.ts needs wrk on PATH (Debian: apt-get install wrk)')
  process.exit(1)
}

// A fresh client address per request: the score route limits each address to 10 reads a minute. Every wrk
// thread of every run gets its own first octet (the run's number comes in as a script argument), so that no
// address repeats across rounds either.
const script = join(mkdtempSync(join(tmpdir(), 'score-read-')), 'rotate-ip.lua')
writeFileSync(
  script,
  `local threads = 0
function setup(thread)
  thread:set("thread", threads)
  threads = threads + 1
end
function init(args)
  octet = 1 + (tonumber(args[1]) * 2 + thread) % 223
  n = 0
end
function request()
  n = n + 1
  local ip = string.format("%d.%d.%d.%d", octet, math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  return wrk.format("GET", nil, { ["X-Forwarded-For"] = ip })
end
`,
)
let runs = 0

interface Figures {
  rps: number
  p50Ms: number
  p99Ms: number
  non2xx: number
}

async function start(args: string[]): Promise<{ url: (path: string) => string; stop: () => void }> {
  const server = Bun.spawn([process.execPath, join(import.meta.dir, 'score-read-server.ts'), ...args], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = server.stdout.getReader()
  let port = ''
  let text = ''
  while (!port) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`${args[0]} server exited before listening`)
    text += new TextDecoder().decode(value)
    port = /READY (\d+)/.exec(text)?.[1] ?? ''
  }
  return { url: (path) => `http://127.0.0.1:${port}${path}`, stop: () => server.kill() }
}

/** wrk prints latencies as 812.00us, 1.42ms or 1.02s. */
function milliseconds(value: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(value ?? '')
  if (!match) return Number.NaN
  return Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2] as 'us' | 'ms' | 's']
}

function measure(url: string): Figures {
  const run = (seconds: string) =>
    Bun.spawnSync([
      'wrk',
      '-t2',
      `-c${values.connections}`,
      `-d${seconds}s`,
      '--latency',
      '-s',
      script,
      url,
      '--',
      String(runs++),
    ]).stdout.toString()
  run('1') // warm up
  const output = run(values.seconds!)
  const latency = (label: string) => milliseconds(new RegExp(`^\\s*${label}%\\s+(\\S+)`, 'm').exec(output)?.[1])
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
  }
}

const row = (name: string, f: Figures) =>
  console.log(
    `  ${name.padEnd(30)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${f.p50Ms.toFixed(2).padStart(6)} ms   p99 ${f.p99Ms.toFixed(2).padStart(6)} ms   non-2xx ${f.non2xx}`,
  )

const scoreServer = await start(['score'])
const scoreUrl = scoreServer.url('/api/score/excellent.test')
const body = await (await fetch(scoreUrl, { headers: { 'x-forwarded-for': '192.0.2.1' } })).text()
const bodyFile = join(mkdtempSync(join(tmpdir(), 'score-read-')), 'body.json')
writeFileSync(bodyFile, body)
const bareServer = await start(['bare', bodyFile])
const bareUrl = bareServer.url('/bare')
console.log(
  `wrk, ${values.connections} connections, ${values.rounds} alternating rounds of ${values.seconds} s per route, a different client address per request, ${body.length} bytes per response`,
)
const bare: Figures[] = []
const score: Figures[] = []
for (let round = 1; round <= Number(values.rounds); round++) {
  bare.push(measure(bareUrl))
  score.push(measure(scoreUrl))
  row(`round ${round}: bare Elysia route`, bare.at(-1)!)
  row(`round ${round}: GET /api/score/{d}`, score.at(-1)!)
}
scoreServer.stop()
bareServer.stop()
const summary = (figures: Figures[]): Figures => ({
  rps: median(figures.map((f) => f.rps)),
  p50Ms: median(figures.map((f) => f.p50Ms)),
  p99Ms: median(figures.map((f) => f.p99Ms)),
  non2xx: figures.reduce((sum, f) => sum + f.non2xx, 0),
})
console.log('medians:')
row('bare Elysia route', summary(bare))
row('GET /api/score/{domain}', summary(score))
const ratio = summary(score).rps / summary(bare).rps
console.log(
  `  score reads at ${(ratio * 100).toFixed(0)}% of the bare route, p99 ${summary(score).p99Ms.toFixed(2)} ms (target >= 70%, p99 < 10 ms)`,
)
