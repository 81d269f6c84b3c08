import { parseArgs } from 'node:util'
import { createProgress } from './progress.ts'
import type { CliReport } from './report.ts'
import { EXIT_GATE_FAILED, EXIT_PASS, TargetError, UsageError } from './usage.ts'

export const SCAN_USAGE = `agent-readiness scan <target> [options]

  <target>                a domain, a URL, an MCP server URL or an MCP App URL; with private targets allowed also
                          localhost, loopback or private addresses with any port (http://localhost:3000, 127.0.0.1:8080)

  --format F              text (default), json, markdown (a table for pull-request comments) or junit (JUnit XML,
                          one test case per check: classname = layer, name = check id)
  --min-score N           exit 1 when the score is below N (0-100)
  --checks a,b            run the full scan and exit 1 unless each listed check passes; the score is the real score
  --only a,b              run only these checks: a PARTIAL result without an overall score (so no --min-score and
                          no --checks); exits 1 unless each of them passes
  --mcp URL               pin the MCP server to scan (the sole MCP target)
  --server URL            scan on a running agent-readiness service instead of in-process; the scan key, if any,
                          comes from AGENT_READINESS_KEY (sent as a bearer token). Always a live scan, never a
                          stored result (forced scans are limited to 6 a day per address without a key); waits for
                          the background analysis, so the report matches an in-process one
  --allow-private         accept local and private targets (as SCANNER_ALLOW_PRIVATE=true), e.g. a dev server in CI
  --static                no browser: rendered checks are skipped (they never count toward the score without one)
                          and puppeteer is not loaded; the fastest scan
  --quiet                 print nothing but the report (no progress, no gate messages)
  -h, --help              this help

Exit codes: 0 pass, 1 a gate failed, 2 usage error or the target could not be scanned.
Progress goes to stderr (redrawn in place on a terminal, one line per check otherwise); the report to stdout.`

const FORMATS = ['text', 'json', 'markdown', 'junit'] as const
type Format = (typeof FORMATS)[number]

interface ScanArgs {
  target: string
  format: Format
  minScore?: number
  checks?: string[]
  only?: string[]
  mcpUrl?: string
  server?: string
  allowPrivate: boolean
  static: boolean
  quiet: boolean
}

function idList(value: string | undefined, option: string): string[] | undefined {
  if (value === undefined) return undefined
  const ids = [...new Set(value.split(',').map((id) => id.trim()).filter(Boolean))]
  if (ids.length === 0) throw new UsageError(`${option} takes a comma-separated list of check ids`, SCAN_USAGE)
  return ids
}

/** Parses and validates the scan options; null when help was asked for. */
export function parseScanArgs(args: string[]): ScanArgs | null {
  let parsed
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string', default: 'text' },
        'min-score': { type: 'string' },
        checks: { type: 'string' },
        only: { type: 'string' },
        mcp: { type: 'string' },
        server: { type: 'string' },
        'allow-private': { type: 'boolean', default: false },
        static: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    // node:util reports unknown options and missing values as TypeErrors with a readable message.
    throw new UsageError((error as Error).message, SCAN_USAGE)
  }
  const { values, positionals } = parsed
  if (values.help) return null
  if (positionals.length !== 1) throw new UsageError('scan takes exactly one target (a domain or URL)', SCAN_USAGE)
  if (!FORMATS.includes(values.format as Format)) throw new UsageError(`--format is one of ${FORMATS.join(', ')}`, SCAN_USAGE)
  const minScore = values['min-score'] === undefined ? undefined : Number(values['min-score'])
  if (minScore !== undefined && !(/^\d+$/.test(values['min-score']!) && minScore <= 100)) {
    throw new UsageError('--min-score is a whole number from 0 to 100', SCAN_USAGE)
  }
  const only = idList(values.only, '--only')
  if (only && (minScore !== undefined || values.checks !== undefined)) {
    throw new UsageError('--only gives a partial result without an overall score: use it without --min-score and --checks', SCAN_USAGE)
  }
  if (values.server !== undefined) {
    if (!/^https?:\/\/[^/]/.test(values.server) || !URL.canParse(values.server)) throw new UsageError('--server takes the http(s) URL of a service', SCAN_USAGE)
    if (values.static) throw new UsageError('--static applies to in-process scans; the server decides about its browser', SCAN_USAGE)
    if (values['allow-private']) throw new UsageError("--allow-private applies to in-process scans; the server's SCANNER_ALLOW_PRIVATE decides", SCAN_USAGE)
  }
  return {
    target: positionals[0]!,
    format: values.format as Format,
    minScore,
    checks: idList(values.checks, '--checks'),
    only,
    mcpUrl: values.mcp,
    server: values.server,
    allowPrivate: values['allow-private'],
    static: values.static,
    quiet: values.quiet,
  }
}

/** Why the gate failed, one line each; empty when it passed. */
export function gateFailures(report: CliReport, args: Pick<ScanArgs, 'minScore' | 'checks' | 'only'>): string[] {
  const failures: string[] = []
  if (args.minScore !== undefined && report.score !== null && report.score < args.minScore) {
    failures.push(`score ${report.score} is below --min-score ${args.minScore}`)
  }
  const rows = report.layers.flatMap((layer) => layer.checks)
  const gated = args.only ?? args.checks ?? []
  const known = new Set(rows.map((row) => row.id))
  const missing = gated.filter((id) => !known.has(id))
  if (missing.length > 0) throw new UsageError(`unknown check ids: ${missing.join(', ')} (see GET /api/checks)`, SCAN_USAGE)
  // A check run against several MCP servers passes only when it passed on each of them.
  const failing = gated.filter((id) => rows.some((row) => row.id === id && row.status !== 'pass'))
  if (failing.length > 0) {
    const statuses = failing.map((id) => `${id} (${rows.filter((row) => row.id === id).map((row) => row.status).join(', ')})`)
    failures.push(`${statuses.join(', ')} did not pass`)
  }
  return failures
}

async function render(report: CliReport, format: Format): Promise<string> {
  // Each format is loaded only when asked for.
  if (format === 'json') return (await import('./formats/json.ts')).renderJson(report)
  if (format === 'markdown') return (await import('./formats/markdown.ts')).renderMarkdown(report)
  if (format === 'junit') return (await import('./formats/junit.ts')).renderJunit(report)
  return (await import('./formats/text.ts')).renderText(report)
}

/** `agent-readiness scan`: the report on stdout, progress and gate messages on stderr, the exit code returned. */
export async function scanCommand(argv: string[]): Promise<number> {
  const args = parseScanArgs(argv)
  if (!args) {
    console.log(SCAN_USAGE)
    return EXIT_PASS
  }
  const progress = createProgress(args.quiet ? 'quiet' : 'auto')
  let report: CliReport
  try {
    if (args.server) {
      const { scanRemotely } = await import('./remote.ts')
      progress.note(`scanning ${args.target} on ${args.server}`)
      report = await scanRemotely(args.target, {
        server: args.server,
        key: process.env.AGENT_READINESS_KEY || undefined,
        mcpUrl: args.mcpUrl,
        only: args.only,
        onEvent: args.quiet ? undefined : (event) => progress.event(event),
      })
    } else {
      const { scanLocally } = await import('./local.ts')
      report = await scanLocally(args.target, {
        mcpUrl: args.mcpUrl,
        only: args.only,
        gateChecks: args.checks,
        static: args.static,
        allowPrivate: args.allowPrivate,
        onEvent: (event) => progress.event(event),
        onNote: (line) => progress.note(line),
        usage: SCAN_USAGE,
      })
    }
  } finally {
    progress.done()
  }
  const failures = gateFailures(report, args)
  console.log(await render(report, args.format))
  if (!args.quiet) for (const failure of failures) console.error(`gate: ${failure}`)
  return failures.length > 0 ? EXIT_GATE_FAILED : EXIT_PASS
}
