/**
 * A whole-process static CLI scan (no browser) of a loopback fixture site against the MDN HTTP Observatory CLI
 * (`mdn-http-observatory-scan`) on the same site: runs alternate, medians are compared. The Observatory is not a
 * dependency (its install step downloads certificate bundles, which an offline CI cannot); install it for the bench:
 *
 *   npm install --no-save --ignore-scripts @mdn/mdn-http-observatory@^1.4.8
 *
 *   bun bench/cli.ts [--runs 9] [--sites poor,excellent]
 *
 * Ours runs twice: as installed (dist/cli.js with its bytecode, rebuilt first so that it is the current source) and
 * from source (`bun app/cli/main.ts`, what bytecode saves). It scans the site as the fixture world serves it (its
 * public host through SCANNER_RESOLVE, every check doing its real work); the Observatory is given
 * `127.0.0.1:<port>`, the same server. The Observatory's postinstall downloads the HSTS preload list; without
 * network the bench writes an empty one, which only makes its scan faster.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildCli } from '../app/cli/build.ts'
import { type SiteName, startFixtureSite } from '../tests/fixtures/sites/server.ts'
import { median } from './stats.ts'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '9' }, sites: { type: 'string', default: 'poor,excellent' } },
})
const runs = Number(values.runs)
const root = join(import.meta.dir, '..')
const observatory = join(root, 'node_modules', '.bin', 'mdn-http-observatory-scan')
if (!existsSync(observatory))
  throw new Error(
    'install the Observatory first: npm install --no-save --ignore-scripts @mdn/mdn-http-observatory@^1.4.8',
  )
const hsts = join(root, 'node_modules', '@mdn', 'mdn-http-observatory', 'conf', 'hsts-preload.json')
if (!existsSync(hsts)) writeFileSync(hsts, '{}')
const cli = await buildCli()

async function timed(command: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now()
  const child = Bun.spawn(command, { cwd: root, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  const elapsed = performance.now() - started
  if (code !== 0 || stdout.length === 0) throw new Error(`${command.join(' ')} exited ${code}: ${stderr.slice(0, 500)}`)
  return elapsed
}

console.log(`${runs} alternating runs per site; medians of whole-process wall time`)
console.log(
  '| site | ours, installed CLI (ms) | ours, from source (ms) | Observatory CLI (ms) | installed / Observatory |',
)
console.log('|---|---|---|---|---|')
for (const name of values.sites.split(',') as SiteName[]) {
  const site = await startFixtureSite(name)
  try {
    const scanArgs = ['scan', site.host, '--static', '--quiet', '--format', 'json']
    const oursEnv = { SCANNER_RESOLVE: site.resolveRule, SCANNER_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' }
    const commands = {
      installed: { command: [process.execPath, cli, ...scanArgs], env: oursEnv },
      source: { command: [process.execPath, 'app/cli/main.ts', ...scanArgs], env: oursEnv },
      observatory: { command: ['node', observatory, `127.0.0.1:${site.port}`], env: {} },
    }
    const times = { installed: [] as number[], source: [] as number[], observatory: [] as number[] }
    // One unmeasured run each: first-run caches (ours: compiled validators; all: the OS file cache) are warm after.
    for (const { command, env } of Object.values(commands)) await timed(command, env)
    for (let run = 0; run < runs; run++) {
      for (const [key, { command, env }] of Object.entries(commands))
        times[key as keyof typeof times].push(await timed(command, env))
    }
    const [installed, source, theirs] = [median(times.installed), median(times.source), median(times.observatory)]
    console.log(
      `| ${name} | ${Math.round(installed)} | ${Math.round(source)} | ${Math.round(theirs)} | ${(installed / theirs).toFixed(2)} |`,
    )
  } finally {
    await site.stop()
  }
}
