/**
 * The deterministic journey agent's cost apart from the network, on loopback fixture sites with every curated
 * intent: (a) its own time per tool step (a run's wall time minus the time its steps spent fetching, over its
 * tool steps: judging, parsing, choosing the next link, recording), over many runs; (b) the process's peak RSS
 * while 20 runs are kept in flight (every site and intent, three times over, so the sampler sees the plateau);
 * (c) start latency on an idle service: from the 201 of POST /api/journey/runs to the first `trajectory` event of
 * its stream, one run at a time (the previous one finished), over 20 runs.
 * Prints figures and pass/fail against the targets; asserts nothing. Step timings are whole milliseconds: the
 * rounding evens out over thousands of steps.
 *
 *   bun bench/journey.ts [--rounds 10] [--concurrency 20] [--latency-only]
 */
import { parseArgs } from 'node:util'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { createApp } from '../app/app.ts'
import { loadConfig } from '../core/config.ts'
import { createEngine } from '../app/engine.ts'
import deterministic from '../journeys/agents/deterministic.ts'
import { intentPrompt, type IntentDefinition } from '../journeys/types.ts'
import { INTENTS } from '../journeys/intents/index.ts'
import { runJourney } from '../journeys/runner.ts'
import { resolveRules, SITE_NAMES, startFixtureSites, type FixtureSite } from '../tests/fixtures/sites/server.ts'
import { median, percentile } from './stats.ts'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '20' },
    'latency-only': { type: 'boolean', default: false },
  },
})
const ROUNDS = Number(values.rounds)
const CONCURRENCY = Number(values.concurrency)
const OVERHEAD_TARGET_MS = 5
const RSS_TARGET_MB = 300
const START_RUNS = 20
const START_TARGET_MS = 200

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0)
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL')

const sites = await startFixtureSites(SITE_NAMES)

/** Milliseconds from each 201 to the first step its stream delivers, the service idle between runs. */
async function startLatencies(): Promise<number[]> {
  const config = loadConfig({
    DATABASE_URL: 'memory://',
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: resolveRules(sites),
    TRUST_PROXY: 'true',
    PUBLIC_BASE_URL: 'http://localhost:3000',
  })
  const handle = await createApp(config, { browser: null })
  await handle.start()
  const call = (path: string, init: RequestInit = {}, ip = '198.51.100.7') =>
    handle.app.handle(
      new Request(`http://localhost:3000${path}`, {
        ...init,
        headers: { 'x-forwarded-for': ip, 'content-type': 'application/json', ...init.headers },
      }),
    )
  const latencies: number[] = []
  try {
    for (let run = 0; run < START_RUNS; run++) {
      // A distinct IP and domain per run keeps the bench inside the anonymous limits.
      const body = JSON.stringify({ intent: { id: 'find-pricing' }, domain: sites[run % sites.length]!.host })
      const created = await call('/api/journey/runs', { method: 'POST', body }, `198.51.100.${run + 1}`)
      const answered = performance.now()
      if (created.status !== 201) throw new Error(`POST /api/journey/runs answered ${created.status}`)
      const { id } = (await created.json()) as { id: string }
      const stream = await call(`/api/journey/runs/${id}/stream`)
      const reader = stream
        .body!.pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream())
        .getReader()
      let first: number | null = null
      // Read to the end: the next run starts on an idle service.
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        if (first === null && next.value.event === 'trajectory') first = performance.now() - answered
      }
      if (first === null) throw new Error(`run ${id} streamed no step`)
      latencies.push(first)
    }
  } finally {
    await handle.close()
  }
  return latencies
}

/** The start-latency figure, printed last: the service it starts would weigh on the RSS figure were it measured first. */
async function startLine(): Promise<string> {
  const latencies = await startLatencies()
  const sorted = latencies.toSorted((a, b) => a - b)
  return `  first trajectory event after the 201, idle service, ${START_RUNS} runs: median ${median(latencies).toFixed(1)} ms (p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms)   target < ${START_TARGET_MS} ms: ${verdict(median(latencies) < START_TARGET_MS)}`
}

if (values['latency-only']) {
  console.log(await startLine())
  await Promise.all(sites.map((site) => site.stop()))
  process.exit(0)
}

const deps = createEngine(
  loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent', SCANNER_RESOLVE: resolveRules(sites) }),
  { browser: null },
)
const pairs = sites.flatMap((site) => INTENTS.map((intent) => ({ site, intent })))

const journey = (site: FixtureSite, intent: IntentDefinition) =>
  runJourney({ agent: deterministic, intent, prompt: intentPrompt(intent.meta, site.host), domain: site.host, deps })

for (const { site, intent } of pairs) await journey(site, intent)

let runs = 0
let toolSteps = 0
let overheadMs = 0
const perRun: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  for (const { site, intent } of pairs) {
    const started = performance.now()
    const outcome = await journey(site, intent)
    const wall = performance.now() - started
    const tools = outcome.steps.filter((step) => step.type === 'tool')
    const fetching = tools.reduce((sum, step) => sum + step.duration_ms, 0)
    runs++
    toolSteps += tools.length
    overheadMs += wall - fetching
    perRun.push((wall - fetching) / Math.max(1, tools.length))
  }
}
perRun.sort((a, b) => a - b)
const perStep = overheadMs / toolSteps
const p95 = percentile(perRun, 95)

Bun.gc(true)
const baseline = process.memoryUsage().rss
let peak = baseline
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss)
}, 20)
const concurrentStarted = performance.now()
const queue = [...pairs, ...pairs, ...pairs]
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await journey(next.site, next.intent)
  }),
)
const concurrentMs = performance.now() - concurrentStarted
peak = Math.max(peak, process.memoryUsage().rss)
clearInterval(sampler)

console.log(
  `deterministic agent, ${sites.length} fixture sites x ${INTENTS.length} intents, ${runs} runs, ${toolSteps} tool steps`,
)
console.log(
  `  own overhead per tool step: ${perStep.toFixed(2)} ms (p95 of runs ${p95.toFixed(2)} ms)   target < ${OVERHEAD_TARGET_MS} ms: ${verdict(perStep < OVERHEAD_TARGET_MS)}`,
)
console.log(
  `  ${pairs.length * 3} runs, ${CONCURRENCY} in flight, in ${concurrentMs.toFixed(0)} ms: peak RSS ${mb(peak)} MB (${mb(baseline)} MB before, +${mb(peak - baseline)} MB)   target < ${RSS_TARGET_MB} MB: ${verdict(peak / 2 ** 20 < RSS_TARGET_MB)}`,
)

console.log(await startLine())

await Promise.all(sites.map((site) => site.stop()))
