/**
 * Peak memory of whole scans of hostile sites (tests/fixtures/hostile/server.ts): deep JSON, YAML and XML bombs,
 * a gzip bomb, an endless body, deeply nested and very wide HTML, huge text files, a hostile MCP server. Each
 * profile is scanned through the real engine (static phase, no browser, unless `--phase all`) in a child process of its own, once alone
 * and six times at once, and the child's peak RSS (VmHWM, and sampled every 5 ms elsewhere) is reported against
 * the targets: under 300 MB for one scan, under 1 GB for six. Prints a table; asserts nothing. `--phase all` resolves
 * the deep checks inline too, rendering the homepage in the configured Chromium (the browser's own memory is its
 * process's, not counted here; what it hands back is).
 *
 *   bun bench/hostile.ts [--profiles deep-json,endless] [--concurrency 1,6] [--phase static|all]
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { HOSTILE_PROFILES, type HostileProfile, startHostileServer } from '../tests/fixtures/hostile/server.ts'

const ONE_SCAN_LIMIT_MB = 300
const SIX_SCANS_LIMIT_MB = 1000

const { values } = parseArgs({
  options: {
    child: { type: 'boolean', default: false },
    profiles: { type: 'string', default: HOSTILE_PROFILES.join(',') },
    concurrency: { type: 'string', default: '1,6' },
    phase: { type: 'string', default: 'static' },
    resolve: { type: 'string', default: '' },
    'kill-mb': { type: 'string', default: '4000' },
  },
})

interface ChildResult {
  peakMb: number
  baselineMb: number
  seconds: number
  scans: number
  crashed: string | null
  /** Check statuses over all scans: pass/fail/error/… counts. */
  statuses: Record<string, number>
}

function peakRssMb(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
    if (match) return Number(match[1]) / 1024
  } catch {
    // not Linux: fall back to sampling
  }
  return 0
}

async function child(
  profile: HostileProfile,
  concurrency: number,
  resolve: string,
  phase: 'static' | 'all',
): Promise<ChildResult> {
  const { loadConfig } = await import('../core/config.ts')
  const { createEngine } = await import('../app/engine.ts')
  const { scanUrl } = await import('../tests/support/scan.ts')
  const engine = createEngine(
    loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent', SCANNER_RESOLVE: resolve }),
    phase === 'all' ? {} : { browser: null },
  )
  Bun.gc(true)
  const baselineMb = process.memoryUsage().rss / 1024 / 1024
  let sampled = 0
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage().rss)
  }, 5)
  // The MCP profile is pinned as the MCP target, so that its endpoint goes through the MCP collector and the SDK.
  const mcpUrl = profile === 'mcp' ? `https://${profile}.hostile.test/mcp` : undefined
  const started = performance.now()
  const statuses: Record<string, number> = {}
  let crashed: string | null = null
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      try {
        const report = await scanUrl(mcpUrl ?? `${profile}.hostile.test`, engine, {
          phase,
          ...(mcpUrl ? { mcpUrl } : {}),
        })
        for (const check of report.layers.flatMap((layer) => layer.checks))
          statuses[check.status] = (statuses[check.status] ?? 0) + 1
      } catch (error) {
        crashed = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 120) : String(error)
      }
    }),
  )
  clearInterval(sampler)
  sampled = Math.max(sampled, process.memoryUsage().rss)
  await engine.browser?.close()
  const peakMb = Math.max(peakRssMb(), sampled / 1024 / 1024)
  return { peakMb, baselineMb, seconds: (performance.now() - started) / 1000, scans: concurrency, crashed, statuses }
}

if (values.phase !== 'static' && values.phase !== 'all') throw new Error('--phase is static or all')
const phase = values.phase

if (values.child) {
  const [profile, concurrency] = values.profiles.split(':') as [HostileProfile, string]
  const result = await child(profile, Number(concurrency), values.resolve, phase)
  console.log(JSON.stringify(result))
  process.exit(0)
}

const KILL_MB = Number(values['kill-mb'])

function childRssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) / 1024 : 0
  } catch {
    return 0
  }
}

const profiles = values.profiles.split(',') as HostileProfile[]
const levels = values.concurrency.split(',').map(Number)
const server = await startHostileServer()
const rows: string[][] = []
let failures = 0
const header = [
  'profile',
  'scans',
  'peak MB',
  'base MB',
  'limit MB',
  'seconds',
  'served MB',
  'check statuses',
  'verdict',
]
const WIDTHS = [15, 5, 7, 7, 8, 7, 9, 44, 7]
const format = (row: string[]) => row.map((cell, column) => cell.padEnd(WIDTHS[column]!)).join('  ')
console.log(
  `hostile scans (${phase} phase), peak RSS of the scanning process; targets: 1 scan < ${ONE_SCAN_LIMIT_MB} MB, 6 scans < ${SIX_SCANS_LIMIT_MB} MB`,
)
console.log(format(header))
console.log(WIDTHS.map((width) => '-'.repeat(width)).join('  '))
for (const profile of profiles) {
  for (const concurrency of levels) {
    const sentBefore = server.stats.bytesSent
    const proc = Bun.spawn(
      [
        process.execPath,
        import.meta.path,
        '--child',
        '--profiles',
        `${profile}:${concurrency}`,
        '--resolve',
        server.resolveRules,
        '--phase',
        phase,
      ],
      {
        stdout: 'pipe',
        stderr: 'pipe',
      },
    )
    // A child that never finishes is a failure too; 5 minutes is far beyond any scan's own budget. One that passes
    // --kill-mb is stopped before it takes the machine down (the parse that blows up never yields to its own timers).
    let killed = ''
    const killer = setTimeout(() => {
      killed = 'still running after 300 s'
      proc.kill()
    }, 300_000)
    const watchdog = setInterval(() => {
      const rssMb = childRssMb(proc.pid)
      if (rssMb > KILL_MB) {
        killed = `killed at ${rssMb.toFixed(0)} MB`
        proc.kill(9)
      }
    }, 20)
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ])
    clearTimeout(killer)
    clearInterval(watchdog)
    const line = out.trim().split('\n').at(-1) ?? ''
    let result: ChildResult | null = null
    try {
      result = JSON.parse(line) as ChildResult
    } catch {
      // the child died: reported below
    }
    const limit =
      concurrency === 1 ? ONE_SCAN_LIMIT_MB : concurrency >= 6 ? SIX_SCANS_LIMIT_MB : ONE_SCAN_LIMIT_MB * concurrency
    const ok = result !== null && result.crashed === null && result.peakMb < limit
    if (!ok) failures += 1
    const sentMb = (server.stats.bytesSent - sentBefore) / 1024 / 1024
    rows.push([
      profile,
      String(concurrency),
      result ? result.peakMb.toFixed(0) : '-',
      result ? result.baselineMb.toFixed(0) : '-',
      String(limit),
      result ? result.seconds.toFixed(1) : '-',
      sentMb.toFixed(1),
      result
        ? Object.entries(result.statuses)
            .map(([status, count]) => `${status} ${count}`)
            .join(', ')
        : killed || `exit ${code}: ${err.trim().split('\n').at(-1)?.slice(0, 60) ?? ''}`,
      result?.crashed ? `CRASH ${result.crashed}` : ok ? 'PASS' : 'FAIL',
    ])
    console.log(format(rows.at(-1)!))
  }
}
await server.stop()

console.log(
  failures === 0
    ? 'PASS: every hostile scan stayed within its memory target'
    : `FAIL: ${failures} run(s) over target or crashed`,
)
