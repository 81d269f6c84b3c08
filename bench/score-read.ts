/**
 * Cached score reads against the same machine's bare Elysia route serving the same bytes, in one run: each server
 * runs in its own process, wrk drives it with 64 connections, and every request comes from a different client
 * address (through TRUST_PROXY), as real anonymous readers do, so the per-IP rate limiter is paid on every read. Prints figures;
 * asserts nothing. Target: score reads >= 70% of the bare route's throughput, p99 < 10 ms.
 *
 *   bun bench/score-read.ts [--seconds 10] [--connections 64]
 * Needs `wrk` (Debian: apt-get install wrk).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '64' } } })
if (!Bun.which('wrk')) {
  console.error('bench/score-read.ts needs wrk on PATH (Debian: apt-get install wrk)')
  process.exit(1)
}

// A fresh client address per request: the score route limits each address to 10 reads a minute.
const script = join(mkdtempSync(join(tmpdir(), 'score-read-')), 'rotate-ip.lua')
writeFileSync(
  script,
  `local n = 0
request = function()
  n = n + 1
  local ip = string.format("10.%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  return wrk.format("GET", nil, { ["X-Forwarded-For"] = ip })
end
`,
)

interface Figures {
  rps: number
  p50: string
  p99: string
  errors: string
}

async function start(args: string[]): Promise<{ url: (path: string) => string; stop: () => void }> {
  const server = Bun.spawn([process.execPath, join(import.meta.dir, 'score-read-server.ts'), ...args], { stdout: 'pipe', stderr: 'inherit' })
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

function measure(url: string): Figures {
  const run = (seconds: string) =>
    Bun.spawnSync(['wrk', '-t2', `-c${values.connections}`, `-d${seconds}s`, '--latency', '-s', script, url]).stdout.toString()
  run('2') // warm up
  const output = run(values.seconds!)
  const latency = (label: string) => new RegExp(`^\\s*${label}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '?'
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0),
    p50: latency('50'),
    p99: latency('99'),
    errors: /Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? '0',
  }
}

const scoreServer = await start(['score'])
const scoreUrl = scoreServer.url('/api/score/excellent.test')
const body = await (await fetch(scoreUrl, { headers: { 'x-forwarded-for': '192.0.2.1' } })).text()
const bodyFile = join(mkdtempSync(join(tmpdir(), 'score-read-')), 'body.json')
writeFileSync(bodyFile, body)
const score = measure(scoreUrl)
scoreServer.stop()
const bareServer = await start(['bare', bodyFile])
const bare = measure(bareServer.url('/bare'))
bareServer.stop()
const row = (name: string, f: Figures) =>
  console.log(`  ${name.padEnd(28)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${f.p50.padStart(8)}   p99 ${f.p99.padStart(8)}   non-2xx ${f.errors}`)
console.log(`wrk, ${values.connections} connections, ${values.seconds} s each, a different client address per request, ${body.length} bytes per response`)
row('bare Elysia route', bare)
row('GET /api/score/{domain}', score)
console.log(`  score reads at ${((score.rps / bare.rps) * 100).toFixed(0)}% of the bare route (target >= 70%, p99 < 10 ms)`)
