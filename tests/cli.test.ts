import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { version as packageVersion } from '../package.json'
import type { CliReport } from '../app/cli/report.ts'
import { CONTRACT_VERSION } from '../core/version.ts'
import { type FixtureSite, startFixtureSite } from './fixtures/sites/server.ts'
import { servedTestApp } from './helpers.ts'
import { CLI_SOURCE, type CliRun, runCliSource, runInTerminal } from './support/cli.ts'
import { freeLoopbackPort } from './support/ports.ts'

/**
 * The real `agent-readiness scan` process against fixture sites on loopback: exit codes (0 pass, 1 gate failed,
 * 2 usage or target error), gates, formats, local targets, and a scan on a running service (--server).
 */

let excellent: FixtureSite
let poor: FixtureSite
let devServer: ReturnType<typeof Bun.serve>
let env: Record<string, string>

beforeAll(async () => {
  ;[excellent, poor] = await Promise.all([startFixtureSite('excellent'), startFixtureSite('poor')])
  // A dev server as CI would start one: plain http on loopback, reached as localhost.
  devServer = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () =>
      new Response('<!doctype html><html lang="en"><title>Dev</title><main><h1>Dev build</h1></main></html>', {
        headers: { 'content-type': 'text/html' },
      }),
  })
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: [excellent.resolveRule, poor.resolveRule].join(','),
  }
})

afterAll(async () => {
  await Promise.all([excellent.stop(), poor.stop(), devServer.stop(true)])
})

type Run = CliRun

const runCli = (args: string[], extraEnv: Record<string, string | undefined> = {}): Promise<Run> =>
  runCliSource(args, { ...env, ...extraEnv })

const json = (run: Run) => JSON.parse(run.stdout) as CliReport

/** A stack trace would show `at file:line` frames. */
const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at .+:\d+/m)

describe('at a terminal', () => {
  test.each([
    ['markdown', '## Agent readiness: poor.test scores '],
    ['junit', '<?xml version="1.0" encoding="UTF-8"?>'],
    ['json', '{'],
  ])('the live progress is erased row for row, and the %s report is all that is left', async (format, start) => {
    const run = await runInTerminal(
      [
        process.execPath,
        CLI_SOURCE,
        'scan',
        'poor.test',
        '--static',
        '--format',
        format,
        '--save-baseline',
        join(tmpdir(), `ar-terminal-${process.pid}.json`),
      ],
      env,
    )
    expect(run.code).toBe(0)
    const parts = run.stdout.split(/\x1b\[(\d+)F\x1b\[J/)
    // frame, rows, frame, rows, …, report: each erase moves up exactly the rows the frame before it took.
    expect(parts.length).toBeGreaterThanOrEqual(3)
    for (let index = 0; index + 1 < parts.length; index += 2)
      expect(parts[index]!.split('\r\n').length - 1).toBe(Number(parts[index + 1]))
    expect(parts.at(-1)!).toStartWith(start)
    expect(parts.at(-1)!).not.toContain('checks\r\n    Discovery')
  })
})

describe('usage errors: one line and a hint, exit 2', () => {
  test.each([
    [
      ['scan', 'poor.test', '--server-url', 'x'],
      /^--server-url is not an option of this command \(did you mean --server\?\)$/,
      'scan',
    ],
    [['scan', 'poor.test', '--bogus'], /^--bogus is not an option of this command$/, 'scan'],
    [['scan', 'a.test', 'b.test'], /exactly one target/, 'scan'],
    [['scan', 'poor.test', '--format', 'xml'], /--format is one of text, json, markdown, junit/, 'scan'],
    [['scan', 'poor.test', '--min-score', '101'], /--min-score is a whole number/, 'scan'],
    [['scan', 'poor.test', '--min-score', 'high'], /--min-score is a whole number/, 'scan'],
    [['scan', 'poor.test', '--min-score'], /^--min-score needs a value$/, 'scan'],
    [['scan', 'poor.test', '--min-score', '--quiet'], /^--min-score needs a value$/, 'scan'],
    [['scan', 'poor.test', '--quiet=yes'], /^--quiet takes no value$/, 'scan'],
    [['scan', 'poor.test', '--only', 'llms-txt', '--min-score', '50'], /--only gives a partial result/, 'scan'],
    [
      ['scan', 'poor.test', '--only', 'llms-txt', '--baseline', 'b.json'],
      /--only gives a partial result.*--baseline/,
      'scan',
    ],
    [['scan', 'poor.test', '--tolerance', '3'], /--tolerance applies to --baseline/, 'scan'],
    [
      ['scan', 'poor.test', '--baseline', '/nonexistent/baseline.json'],
      /^--baseline \/nonexistent\/baseline\.json: no such file$/,
      'scan',
    ],
    [['scan', 'poor.test', '--server', 'ftp://example.com'], /--server takes the http\(s\) URL/, 'scan'],
    [
      ['scan', 'poor.test', '--server', 'http://127.0.0.1:1', '--static'],
      /--static applies to in-process scans/,
      'scan',
    ],
    [['scan', 'poor.test', '--checks', 'llms-txt,no-such-check'], /unknown check ids: no-such-check/, 'scan'],
    [['frobnicate'], /Unknown command "frobnicate"/, ''],
    [['worker', '--bogus'], /^--bogus is not an option of this command$/, ''],
  ])('%p', async (args, message, command) => {
    const run = await runCli(args)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(message),
      `see agent-readiness ${command ? `${command} ` : ''}--help`,
    ])
    noStackTrace(run.stderr)
  })

  test('no arguments print the usage on stderr and exit 2', async () => {
    const [bare, scan] = await Promise.all([runCli([]), runCli(['scan'])])
    expect(bare.code).toBe(2)
    expect(bare.stdout).toBe('')
    expect(bare.stderr).toStartWith('agent-readiness <command>')
    expect(scan.code).toBe(2)
    expect(scan.stderr).toStartWith('agent-readiness scan <target> [options]')
  })

  test('a baseline that is not our report is named, before anything is scanned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ar-baseline-'))
    try {
      await Bun.write(join(dir, 'notes.json'), JSON.stringify({ hello: 'world' }))
      await Bun.write(
        join(dir, 'partial.json'),
        JSON.stringify({ domain: 'a.test', score: null, grade: null, partial: true, layers: [] }),
      )
      const [notReport, partial] = await Promise.all([
        runCli(['scan', `http://127.0.0.1:${freeLoopbackPort()}`, '--baseline', join(dir, 'notes.json')]),
        runCli(['scan', `http://127.0.0.1:${freeLoopbackPort()}`, '--baseline', join(dir, 'partial.json')]),
      ])
      expect(notReport.code).toBe(2)
      expect(notReport.stderr).toContain('not a report of `agent-readiness scan --format json`')
      expect(partial.code).toBe(2)
      expect(partial.stderr).toContain('is a partial result')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('--version names the package, the contract and Bun, and exits 0', async () => {
    const run = await runCli(['--version'])
    expect(run.code).toBe(0)
    expect(run.stdout.trim()).toBe(
      `agent-readiness ${packageVersion} (contract ${CONTRACT_VERSION}, Bun ${Bun.version})`,
    )
  })

  test('--help prints the scan usage and exits 0', async () => {
    const run = await runCli(['scan', '--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('--only a,b')
    expect(run.stdout).toContain('AGENT_READINESS_KEY')
    const [general, journey] = await Promise.all([runCli(['--help']), runCli(['journey', '--help'])])
    for (const line of [run, general, journey].flatMap((help) => help.stdout.split('\n')))
      expect(line.length).toBeLessThanOrEqual(100)
  })
})

describe('target errors: one line, exit 2', () => {
  test('an unreachable target', async () => {
    const run = await runCli(['scan', `http://127.0.0.1:${freeLoopbackPort()}`, '--static'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^cannot scan http:\/\/127\.0\.0\.1:\d+: .*unreachable/m)
    noStackTrace(run.stderr)
  })

  test('localhost without private targets allowed says how to allow them', async () => {
    const run = await runCli(['scan', `http://localhost:${devServer.port}`, '--static'], {
      SCANNER_ALLOW_PRIVATE: undefined,
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('a local target needs --allow-private')
  })
})

describe('gates', () => {
  let full: CliReport
  beforeAll(async () => {
    const run = await runCli(['scan', poor.host, '--static', '--format', 'json', '--quiet'])
    expect(run.code).toBe(0)
    full = json(run)
  })

  test('--min-score: 0 at or above, 1 below', async () => {
    expect(full.score).toBeGreaterThan(0)
    expect((await runCli(['scan', poor.host, '--static', '--quiet', '--min-score', String(full.score)])).code).toBe(0)
    const below = await runCli(['scan', poor.host, '--static', '--min-score', String(full.score! + 1)])
    expect(below.code).toBe(1)
    expect(below.stdout.trimEnd().split('\n').at(-1)).toBe(
      `Gate failed: score ${full.score} is below --min-score ${full.score! + 1}.`,
    )
    // A passing gate says so too, as the report's last line (text) or on stderr (the other formats).
    const at = await runCli(['scan', poor.host, '--static', '--min-score', String(full.score)])
    expect(at.stdout.trimEnd().split('\n').at(-1)).toBe(
      `Gate passed: score ${full.score} meets --min-score ${full.score}.`,
    )
    const asJson = await runCli(['scan', poor.host, '--static', '--format', 'json', '--min-score', String(full.score)])
    expect(asJson.stderr.trimEnd().split('\n').at(-1)).toBe(
      `Gate passed: score ${full.score} meets --min-score ${full.score}.`,
    )
  })

  test('--checks gates on those checks and leaves the score the real score', async () => {
    const statuses = new Map(full.layers.flatMap((layer) => layer.checks).map((check) => [check.id, check.status]))
    const failing = [...statuses].find(([, status]) => status === 'fail')![0]
    const passing = [...statuses].find(([, status]) => status === 'pass')![0]

    const gated = await runCli([
      'scan',
      poor.host,
      '--static',
      '--format',
      'json',
      '--checks',
      `${passing},${failing}`,
      '--min-score',
      '0',
    ])
    expect(gated.code).toBe(1)
    expect(gated.stderr).toContain(`Gate failed: ${failing} did not pass (fail).`)
    expect(json(gated).score).toBe(full.score)
    expect(json(gated).partial).toBe(false)
    expect(json(gated).layers.flatMap((layer) => layer.checks)).toHaveLength(
      full.layers.flatMap((layer) => layer.checks).length,
    )

    const passed = await runCli(['scan', poor.host, '--static', '--format', 'json', '--checks', passing])
    expect(passed.code).toBe(0)
    expect(json(passed).score).toBe(full.score)
  })

  test('--only runs just those checks and says the result is partial', async () => {
    const run = await runCli(['scan', excellent.host, '--static', '--only', 'llms-txt,robots-txt'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('PARTIAL RESULT')
    expect(run.stdout).not.toMatch(/\d+\/100/)
    const report = json(
      await runCli(['scan', excellent.host, '--static', '--only', 'llms-txt,robots-txt', '--format', 'json']),
    )
    expect(report).toMatchObject({ partial: true, score: null, grade: null })
    expect(report.layers.flatMap((layer) => layer.checks.map((check) => check.id)).sort()).toEqual([
      'llms-txt',
      'robots-txt',
    ])
    // A listed check that fails fails the gate.
    const failing = await runCli(['scan', poor.host, '--static', '--only', 'llms-txt', '--quiet'])
    expect(failing.code).toBe(1)
    expect(failing.stderr).toBe('')
  })
})

describe('formats', () => {
  test('junit without a gate: valid XML, one case per check; only checks that lower the score fail', async () => {
    const [xmlRun, jsonRun] = await Promise.all([
      runCli(['scan', poor.host, '--static', '--format', 'junit', '--quiet']),
      runCli(['scan', poor.host, '--static', '--format', 'json', '--quiet']),
    ])
    expect(xmlRun.code).toBe(0)
    expect(XMLValidator.validate(xmlRun.stdout)).toBe(true)
    const checks = json(jsonRun).layers.flatMap((layer) => layer.checks.map((check) => ({ layer: layer.id, ...check })))
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => name === 'testcase' || name === 'testsuite',
    }).parse(xmlRun.stdout)
    // No gate, no gate suite: the checks are the only suite.
    expect(parsed.testsuites.testsuite).toHaveLength(1)
    const cases = parsed.testsuites.testsuite[0].testcase as {
      classname: string
      name: string
      failure?: unknown
      skipped?: { message: string }
    }[]
    expect(cases).toHaveLength(checks.length)
    for (const check of checks) {
      const testCase = cases.find((entry) => entry.name === check.id)!
      expect(testCase.classname).toBe(check.layer)
      const lowers = check.status === 'fail' && !check.bonus && check.maturity === 'verified' && !check.beta
      expect(testCase.failure !== undefined).toBe(lowers)
      if (check.status === 'na' || check.status === 'pending' || check.status === 'error')
        expect(testCase.skipped).toBeDefined()
      if (check.status === 'fail' && check.bonus)
        expect(testCase.skipped!.message).toStartWith('bonus check, never lowers the score; fail')
    }
  })

  test('markdown: score and grade, the top fixes with their gains first, then the failing checks folded', async () => {
    const [md, data] = await Promise.all([
      runCli(['scan', poor.host, '--static', '--format', 'markdown', '--quiet']),
      runCli(['scan', poor.host, '--static', '--format', 'json', '--quiet']).then(json),
    ])
    const lines = md.stdout.split('\n')
    expect(lines[0]).toBe(`## Agent readiness: poor.test scores ${data.score}/100 (grade ${data.grade})`)
    expect(lines.length).toBeLessThan(60)
    const fixes = lines.indexOf('### Top fixes')
    const folded = lines.findIndex((line) => line.startsWith('<details><summary>'))
    expect(fixes).toBeGreaterThan(0)
    expect(folded).toBeGreaterThan(fixes)
    // The first fix is the engine's first, with its gain; no fix is worth nothing.
    expect(lines[fixes + 4]).toStartWith(`| +${data.topFixes[0]!.estScoreGain} | \`${data.topFixes[0]!.id}\` |`)
    expect(md.stdout).not.toContain('| +0 |')
    const failing = data.layers.flatMap((layer) => layer.checks).filter((check) => check.status === 'fail')
    for (const check of failing) expect(md.stdout).toContain(`\`${check.id}\``)
  })
})

describe('local targets', () => {
  test('scan http://localhost:PORT works with --allow-private', async () => {
    const run = await runCli(
      ['scan', `http://localhost:${devServer.port}`, '--allow-private', '--static', '--format', 'json', '--quiet'],
      {
        SCANNER_ALLOW_PRIVATE: undefined,
      },
    )
    expect(run.code).toBe(0)
    const report = json(run)
    expect(report.domain).toBe('localhost')
    expect(report.url).toBe(`http://localhost:${devServer.port}/`)
    expect(report.score).toBeNumber()
  })

  test('a bare loopback address with a port is scanned over http when private targets are allowed (env)', async () => {
    const run = await runCli(['scan', `127.0.0.1:${devServer.port}`, '--static', '--format', 'json', '--quiet'])
    expect(run.code).toBe(0)
    expect(json(run).url).toBe(`http://127.0.0.1:${devServer.port}/`)
  })
})

describe('progress', () => {
  test('plain lines on a pipe, nothing with --quiet', async () => {
    const [plain, quiet] = await Promise.all([
      runCli(['scan', poor.host, '--static', '--only', 'llms-txt']),
      runCli(['scan', poor.host, '--static', '--only', 'llms-txt', '--quiet']),
    ])
    expect(plain.stderr).toContain('scanning as domain')
    expect(plain.stderr).toMatch(/^ {2}fail +llms-txt$/m)
    expect(quiet.stderr).toBe('')
  })
})

describe('--server', () => {
  let app: Awaited<ReturnType<typeof servedTestApp>>
  let server: string
  beforeAll(async () => {
    app = await servedTestApp({ SCANNER_RESOLVE: env.SCANNER_RESOLVE })
    server = app.url
  })
  afterAll(() => app.close())

  const summary = (report: CliReport) => ({
    score: report.score,
    grade: report.grade,
    analysisStatus: report.analysisStatus,
    checks: report.layers
      .flatMap((layer) =>
        layer.checks.map((check) => `${layer.id}/${check.id}${check.mcpUrl ?? ''}: ${check.status} ${check.score}`),
      )
      .sort(),
  })

  test('gives the same report as an in-process scan, through POST /api/scan and through the stream', async () => {
    // Rendered checks included on both sides (the system Chromium, as CI installs it): the server finishes them in
    // its background worker, the CLI waits for that, as the in-process scan does inline.
    const [local, posted, streamed] = await Promise.all([
      runCli(['scan', poor.host, '--format', 'json', '--quiet']),
      runCli(['scan', poor.host, '--server', server, '--format', 'json', '--quiet'], {
        AGENT_READINESS_KEY: 'not-a-key',
      }),
      runCli(['scan', poor.host, '--server', server, '--format', 'json']),
    ])
    for (const run of [local, posted, streamed]) expect(run.code).toBe(0)
    expect(summary(json(posted))).toEqual(summary(json(local)))
    expect(summary(json(streamed))).toEqual(summary(json(local)))
    expect(json(posted).source).toBe(server)
    expect(json(posted).reportUrl).toBe('http://localhost:3000/site/poor.test')
    expect(streamed.stderr).toContain('scanning as domain')
  }, 120_000)

  test('gates the same way and reports a server error as a target error', async () => {
    const gated = await runCli(['scan', poor.host, '--server', server, '--checks', 'llms-txt', '--quiet'])
    expect(gated.stderr).toBe('')
    expect(gated.code).toBe(1)
    const only = await runCli([
      'scan',
      excellent.host,
      '--server',
      server,
      '--only',
      'llms-txt,robots-txt',
      '--format',
      'json',
      '--quiet',
    ])
    expect(only.code).toBe(0)
    expect(json(only)).toMatchObject({ partial: true, score: null })
    expect(
      json(only)
        .layers.flatMap((layer) => layer.checks.map((check) => check.id))
        .sort(),
    ).toEqual(['llms-txt', 'robots-txt'])
    const invalid = await runCli(['scan', 'not a domain', '--server', server])
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toMatch(/answered 400 to POST \/api\/scan|answered 400 to GET \/api\/scan\/stream/)
    noStackTrace(invalid.stderr)
  }, 120_000)
})
