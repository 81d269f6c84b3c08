/**
 * Multi-page scan cost on the 43-page multipage fixture (tests/fixtures/sites/multipage; 38 pages robots.txt allows):
 * the wall time and peak RSS of a static scan with `pages` 1, 25 and 100 (each in a process of its own, so the peak
 * is that scan's; runs alternate, medians are printed), then a full rendered 1-page CLI scan beside Lighthouse 12's
 * accessibility + SEO run of the same page in the same Chromium (ours as installed: dist/cli.js, rebuilt first).
 * Lighthouse is fetched by npx, never a dependency; when it cannot be fetched the bench says so and skips it. Prints
 * figures; asserts nothing.
 *
 *   bun bench/site-scan.ts [--runs 5]
 *
 * Targets (issue 29): a 25-page static scan at most 3 × the 1-page wall time, peak RSS under 300 MB, and the rendered
 * CLI scan at most 0.20 of Lighthouse's time.
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildCli } from '../app/cli/build.ts'
import { loadConfig } from '../core/config.ts'
import { createEngine } from '../app/engine.ts'
import { scanUrl } from '../tests/support/scan.ts'
import { startMultipageSite } from '../tests/fixtures/sites/multipage/site.ts'
import { median } from './stats.ts'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    child: { type: 'string' },
    resolve: { type: 'string' },
    host: { type: 'string' },
  },
})
const root = join(import.meta.dir, '..')

// A child: one static scan with `--child <pages>`, its figures as one JSON line.
if (values.child !== undefined) {
  const engine = createEngine(
    loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent', SCANNER_RESOLVE: values.resolve! }),
    { browser: null },
  )
  let peak = process.memoryUsage.rss()
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5)
  const started = performance.now()
  const report = await scanUrl(values.host!, engine, { phase: 'static', pages: Number(values.child) })
  const wallMs = performance.now() - started
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage.rss(), process.resourceUsage().maxRSS * 1024)
  console.log(
    JSON.stringify({ wallMs, peakRss: peak, pages: report.pages?.length ?? 1, requests: report.requestCount }),
  )
  process.exit(0)
}

const runs = Number(values.runs)
const site = startMultipageSite()
const env = { ...process.env, SCANNER_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent', SCANNER_RESOLVE: site.resolveRule }

async function run(
  command: string[],
  extraEnv: Record<string, string | undefined> = {},
): Promise<{ stdout: string; ms: number; code: number }> {
  const started = performance.now()
  const child = Bun.spawn(command, { cwd: root, env: { ...env, ...extraEnv }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  if (code !== 0 && !stdout) console.error(stderr.slice(0, 400))
  return { stdout, ms: performance.now() - started, code }
}

try {
  const sizes = [1, 25, 100]
  const figures = new Map(
    sizes.map((size) => [size, [] as { wallMs: number; peakRss: number; pages: number; requests: number }[]]),
  )
  const child = (size: number) =>
    run([
      process.execPath,
      'bench/site-scan.ts',
      '--child',
      String(size),
      '--resolve',
      site.resolveRule,
      '--host',
      site.host,
    ])
  // One unmeasured run: compiled validators and the file cache are warm after it.
  await child(1)
  for (let index = 0; index < runs; index++) {
    for (const size of sizes) figures.get(size)!.push(JSON.parse((await child(size)).stdout))
  }
  const oneMs = median(figures.get(1)!.map((figure) => figure.wallMs))
  console.log(
    `Static scans of ${site.host} (43 pages, 38 allowed by robots.txt); medians of ${runs} alternating runs, each scan in its own process`,
  )
  console.log('| pages asked | pages judged | requests | wall time (ms) | × 1-page | peak RSS (MB) |')
  console.log('|---:|---:|---:|---:|---:|---:|')
  for (const size of sizes) {
    const rows = figures.get(size)!
    const wall = median(rows.map((row) => row.wallMs))
    const rss = Math.max(...rows.map((row) => row.peakRss)) / 1024 / 1024
    console.log(
      `| ${size} | ${rows[0]!.pages} | ${rows[0]!.requests} | ${Math.round(wall)} | ${(wall / oneMs).toFixed(2)} | ${rss.toFixed(0)} |`,
    )
  }

  // The rendered comparison: our whole CLI process (static phase, then the browser) against Lighthouse's.
  const chromium = Bun.which('chromium') ?? Bun.which('chromium-browser') ?? Bun.which('google-chrome')
  const lighthouseVersion = await run(['npx', '--yes', 'lighthouse@12', '--version'])
  if (!chromium) console.log('\nNo Chromium on PATH: the rendered comparison is skipped.')
  else if (lighthouseVersion.code !== 0)
    console.log('\nLighthouse 12 could not be fetched with npx: the rendered comparison is skipped.')
  else {
    // The CLI as installed (dist/cli.js, rebuilt from the current source), as bench/cli.ts runs it.
    const ours = [process.execPath, await buildCli(), 'scan', site.host, '--quiet', '--format', 'json']
    // Lighthouse reaches the same server directly: it has no SCANNER_RESOLVE, and the page is the same bytes.
    const lighthouse = [
      'npx',
      '--yes',
      'lighthouse@12',
      `http://${site.resolveRule.split(':').slice(2).join(':')}/`,
      '--only-categories=accessibility,seo',
      '--output=json',
      '--output-path=/dev/null',
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ]
    const browserEnv = { CHROME_PATH: chromium, PUPPETEER_EXECUTABLE_PATH: chromium }
    await run(ours, browserEnv)
    await run(lighthouse, browserEnv)
    const times = { ours: [] as number[], lighthouse: [] as number[] }
    for (let index = 0; index < runs; index++) {
      times.ours.push((await run(ours, browserEnv)).ms)
      times.lighthouse.push((await run(lighthouse, browserEnv)).ms)
    }
    const [oursMs, theirsMs] = [median(times.ours), median(times.lighthouse)]
    console.log(
      `\nRendered 1-page scan of the homepage, whole process, same Chromium (${chromium}); Lighthouse ${lighthouseVersion.stdout.trim()}, medians of ${runs} alternating runs`,
    )
    console.log('| ours, full CLI scan (ms) | Lighthouse accessibility + SEO (ms) | ours / Lighthouse |')
    console.log('|---:|---:|---:|')
    console.log(`| ${Math.round(oursMs)} | ${Math.round(theirsMs)} | ${(oursMs / theirsMs).toFixed(2)} |`)
  }
} finally {
  await site.stop()
}
