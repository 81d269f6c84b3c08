import { appendFile } from 'node:fs/promises'
import { MAX_PAGES } from '../../core/engine/sample-size.ts'
import { type BaselineReport, readBaseline } from './baseline.ts'
import type { RenderOptions } from './formats/style.ts'
import { evaluateGate, type Gate } from './gate.ts'
import { createProgress } from './progress.ts'
import type { CliReport } from './report.ts'
import { EXIT_GATE_FAILED, EXIT_PASS, EXIT_USAGE, parseCommandLine, UsageError } from './usage.ts'

export const SCAN_USAGE = `agent-readiness scan <target> [options]

  <target>               a domain, a URL, an MCP server URL or an MCP App URL; with private targets
                         allowed also localhost, loopback or private addresses with any port
                         (http://localhost:3000, 127.0.0.1:8080)

Output
  --format F             text (default; coloured on a terminal unless NO_COLOR is set), json (the
                         report a baseline is made of), markdown (a pull-request comment) or junit
                         (JUnit XML: the gate's assertions and one test case per check)
  --summary FILE         also append the Markdown report to FILE (e.g. $GITHUB_STEP_SUMMARY)
  --quiet                print nothing but the report (no progress, no gate lines on stderr)

Gates (exit 1 when one fails)
  --min-score N          the score must be at least N (0-100)
  --checks a,b           each listed check must pass; the full scan runs, the score is the real one
  --only a,b             run only these checks, each must pass: a PARTIAL result without an overall
                         score (so no --min-score, --checks or --baseline)
  --baseline FILE        compare with a report saved earlier (--save-baseline, --format json):
                         fail when the score drops by more than --tolerance or a check that passed
                         there no longer passes; checks the catalog added or removed are only listed
  --tolerance N          points the score may drop below the baseline's (default 0)
  --save-baseline FILE   write this run's report to FILE, to compare later runs with

Scanning
  --pages N              judge the page-level checks (structured data, Markdown alternates, …) on a
                         sample of N pages of the site (1-100, the homepage included; a service
                         allows 25 without a scan key): each reports "18 of 25 pages" and the pages
                         it fails on; the sample comes from the sitemap, llms.txt and the homepage's
                         links, spread over the site's sections, never a page robots.txt disallows
  --mcp URL              pin the MCP server to scan (the sole MCP target)
  --header "N: v"        send this header to the MCP endpoint's origin only (never to another host,
                         nor after a redirect away from it), e.g. "Authorization: Bearer …", to scan
                         your own protected server as a token holder; repeatable; in-process only
  --header-env NAME      the same, the whole "Name: value" line read from the environment variable
                         NAME, so the secret stays out of process lists and logs; repeatable
  --server URL           scan on a running agent-readiness service instead of in-process; the scan
                         key, if any, comes from AGENT_READINESS_KEY (sent as a bearer token).
                         Always a live scan (forced scans: 6 a day per address without a key); waits
                         for the background analysis, so the report matches an in-process one
  --allow-private        accept local and private targets (as SCANNER_ALLOW_PRIVATE=true)
  --static               no browser: rendered checks are skipped (they never count toward the score
                         without one) and puppeteer is not loaded; the fastest scan
  -h, --help             this help

Exit codes: 0 the gate passed (or none was set), 1 a gate failed, 2 a usage error or a target that
could not be scanned. Progress goes to stderr; the report to stdout.`

const FORMATS = ['text', 'json', 'markdown', 'junit'] as const
type Format = (typeof FORMATS)[number]

interface ScanArgs {
  target: string
  format: Format
  minScore?: number
  checks?: string[]
  only?: string[]
  baseline?: string
  tolerance: number
  saveBaseline?: string
  summary?: string
  mcpUrl?: string
  pages?: number
  /** `--header` and `--header-env` lines, parsed: sent to the MCP endpoint's origin only. */
  mcpHeaders?: Record<string, string>
  server?: string
  allowPrivate: boolean
  static: boolean
  quiet: boolean
}

function idList(value: string | undefined, option: string): string[] | undefined {
  if (value === undefined) return undefined
  const ids = [
    ...new Set(
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ]
  if (ids.length === 0) throw new UsageError(`${option} takes a comma-separated list of check ids`, SCAN_USAGE)
  return ids
}

/** A whole number of points, 0 to 100. */
function points(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) > 100)
    throw new UsageError(`${option} is a whole number from 0 to 100`, SCAN_USAGE)
  return Number(value)
}

/** A sample size: a whole number from 1 to MAX_PAGES. */
function pageCount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_PAGES)
    throw new UsageError(`--pages is a whole number from 1 to ${MAX_PAGES}`, SCAN_USAGE)
  return Number(value)
}

/** An RFC 9110 field name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** Set by the HTTP client from the URL and the body, never by a caller. */
const MANAGED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection'])

/**
 * `--header` values and the lines `--header-env` names, as headers. A message names the option or the variable and the
 * header's name, never the value: it is a secret.
 */
function mcpHeaders(
  lines: string[],
  variables: string[],
  env: Record<string, string | undefined>,
): Record<string, string> | undefined {
  const sources = [
    ...lines.map((line) => ({ line, from: '--header' })),
    ...variables.map((name) => {
      const line = env[name]
      if (line === undefined || line.trim() === '')
        throw new UsageError(`--header-env ${name}: the environment variable is not set`, SCAN_USAGE)
      return { line, from: `--header-env ${name}` }
    }),
  ]
  if (sources.length === 0) return undefined
  const headers: Record<string, string> = {}
  for (const { line, from } of sources) {
    const colon = line.indexOf(':')
    const name = line.slice(0, Math.max(0, colon)).trim()
    const value = line.slice(colon + 1).trim()
    if (colon === -1 || !HEADER_NAME.test(name) || value === '' || /[\r\n\0]/.test(value)) {
      throw new UsageError(`${from} takes one "Name: value" header line (the value is not shown)`, SCAN_USAGE)
    }
    if (MANAGED_HEADERS.has(name.toLowerCase()))
      throw new UsageError(`${from}: ${name} is set by the HTTP client and cannot be given`, SCAN_USAGE)
    if (Object.keys(headers).some((known) => known.toLowerCase() === name.toLowerCase()))
      throw new UsageError(`${from}: the header ${name} is given twice`, SCAN_USAGE)
    headers[name] = value
  }
  return headers
}

/** Parses and validates the scan options; null when help was asked for. */
export function parseScanArgs(args: string[], env: Record<string, string | undefined> = process.env): ScanArgs | null {
  const { values, positionals } = parseCommandLine(
    args,
    {
      format: { type: 'string', default: 'text' },
      'min-score': { type: 'string' },
      checks: { type: 'string' },
      only: { type: 'string' },
      baseline: { type: 'string' },
      tolerance: { type: 'string' },
      'save-baseline': { type: 'string' },
      summary: { type: 'string' },
      mcp: { type: 'string' },
      pages: { type: 'string' },
      header: { type: 'string', multiple: true },
      'header-env': { type: 'string', multiple: true },
      server: { type: 'string' },
      'allow-private': { type: 'boolean', default: false },
      static: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    SCAN_USAGE,
  )
  if (values.help) return null
  if (positionals.length === 0) throw new UsageError('scan needs a target (a domain or URL)', SCAN_USAGE)
  if (positionals.length > 1)
    throw new UsageError(
      `scan takes exactly one target, not ${positionals.length} (${positionals.join(', ')})`,
      SCAN_USAGE,
    )
  if (!FORMATS.includes(values.format as Format))
    throw new UsageError(`--format is one of ${FORMATS.join(', ')}`, SCAN_USAGE)
  const minScore = points(values['min-score'], '--min-score')
  const tolerance = points(values.tolerance, '--tolerance')
  if (tolerance !== undefined && values.baseline === undefined)
    throw new UsageError('--tolerance applies to --baseline: give the baseline to compare with', SCAN_USAGE)
  const only = idList(values.only, '--only')
  if (only) {
    const whole = ['--min-score', '--checks', '--baseline', '--save-baseline'].filter(
      (option) => values[option.slice(2) as 'checks'] !== undefined,
    )
    if (whole.length > 0)
      throw new UsageError(
        `--only gives a partial result without an overall score: use it without ${whole.join(' and ')}`,
        SCAN_USAGE,
      )
  }
  if (values.server !== undefined) {
    if (!/^https?:\/\/[^/]/.test(values.server) || !URL.canParse(values.server))
      throw new UsageError('--server takes the http(s) URL of a service', SCAN_USAGE)
    if (values.static)
      throw new UsageError('--static applies to in-process scans; the server decides about its browser', SCAN_USAGE)
    if (values['allow-private'])
      throw new UsageError(
        "--allow-private applies to in-process scans; the server's SCANNER_ALLOW_PRIVATE decides",
        SCAN_USAGE,
      )
    if (values.header || values['header-env'])
      throw new UsageError(
        '--header and --header-env apply to in-process scans: a service never takes credentials for a target',
        SCAN_USAGE,
      )
  }
  const headers = mcpHeaders(values.header ?? [], values['header-env'] ?? [], env)
  const pages = pageCount(values.pages)
  if (pages !== undefined && only)
    throw new UsageError('--pages applies to a whole scan: use it without --only', SCAN_USAGE)
  return {
    target: positionals[0]!,
    format: values.format as Format,
    minScore,
    checks: idList(values.checks, '--checks'),
    only,
    baseline: values.baseline,
    tolerance: tolerance ?? 0,
    saveBaseline: values['save-baseline'],
    summary: values.summary,
    mcpUrl: values.mcp,
    ...(pages !== undefined ? { pages } : {}),
    ...(headers ? { mcpHeaders: headers } : {}),
    server: values.server,
    allowPrivate: values['allow-private'],
    static: values.static,
    quiet: values.quiet,
  }
}

/** Whether a stream is a terminal that wants colour: NO_COLOR (any value) turns it off, FORCE_COLOR on. */
export function wantsColor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined> = process.env,
): boolean {
  if (env.NO_COLOR) return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  return stream.isTTY === true && env.TERM !== 'dumb'
}

async function render(report: CliReport, format: Format, options: RenderOptions): Promise<string> {
  // Each format is loaded only when asked for.
  if (format === 'json') return (await import('./formats/json.ts')).renderJson(report)
  if (format === 'markdown') return (await import('./formats/markdown.ts')).renderMarkdown(report, options)
  if (format === 'junit') return (await import('./formats/junit.ts')).renderJunit(report, options)
  return (await import('./formats/text.ts')).renderText(report, options)
}

/** Writes a file the user named; failing to is a usage error (exit 2), never a stack trace. */
async function writeOutput(path: string, text: string, option: string, append = false): Promise<void> {
  try {
    if (append) await appendFile(path, text)
    else await Bun.write(path, text)
  } catch (error) {
    throw new UsageError(
      `${option} ${path}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      SCAN_USAGE,
    )
  }
}

/** `agent-readiness scan`: the report on stdout, progress and gate lines on stderr, the exit code returned. */
export async function scanCommand(argv: string[]): Promise<number> {
  if (argv.length === 0) {
    console.error(SCAN_USAGE)
    return EXIT_USAGE
  }
  const args = parseScanArgs(argv)
  if (!args) {
    console.log(SCAN_USAGE)
    return EXIT_PASS
  }
  // A baseline that cannot be read fails before anything is fetched.
  const baseline: BaselineReport | undefined = args.baseline ? await readBaseline(args.baseline, SCAN_USAGE) : undefined
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
        pages: args.pages,
        only: args.only,
        onEvent: args.quiet ? undefined : (event) => progress.event(event),
      })
    } else {
      const { scanLocally } = await import('./local.ts')
      report = await scanLocally(args.target, {
        mcpUrl: args.mcpUrl,
        mcpHeaders: args.mcpHeaders,
        pages: args.pages,
        only: args.only,
        gateChecks: args.checks,
        static: args.static,
        allowPrivate: args.allowPrivate,
        onEvent: (event) => progress.event(event),
        usage: SCAN_USAGE,
      })
    }
  } finally {
    progress.done()
  }
  const gate: Gate = evaluateGate(
    report,
    {
      minScore: args.minScore,
      checks: args.checks,
      only: args.only,
      ...(baseline && args.baseline
        ? { baseline: { report: baseline, file: args.baseline, tolerance: args.tolerance } }
        : {}),
    },
    SCAN_USAGE,
  )
  if (args.saveBaseline)
    await writeOutput(args.saveBaseline, `${await render(report, 'json', { gate, color: false })}\n`, '--save-baseline')
  if (args.summary)
    await writeOutput(
      args.summary,
      `${await render(report, 'markdown', { gate, color: false })}\n\n`,
      '--summary',
      true,
    )
  console.log(await render(report, args.format, { gate, color: args.format === 'text' && wantsColor(process.stdout) }))
  // The text report ends with the gate; the other formats are documents, so the gate is told on stderr.
  if (!args.quiet && args.format !== 'text' && gate.active) {
    const { renderGate } = await import('./formats/text.ts')
    console.error(renderGate(gate, { gate, color: wantsColor(process.stderr) }).join('\n'))
  }
  return gate.passed ? EXIT_PASS : EXIT_GATE_FAILED
}
