import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { CliCheck, CliReport } from '../app/cli/report.ts'
import { CONTRACT_VERSION } from '../core/version.ts'
import { type FixtureSite, siteHandler, startFixtureSite } from './fixtures/sites/server.ts'
import { type CliRun, runCliSource } from './support/cli.ts'

/**
 * The CLI as a pipeline uses it, run as a real process against fixture sites on loopback: the regression gate
 * (--save-baseline, then --baseline after the site changed), JUnit that goes red exactly when the gate fails, the
 * compact Markdown comment and the text report's width, order, colour and final gate line.
 */

// The docs site, whose llms.txt a test can take away (then it answers 404, as a site that deleted the file).
let llmsTxtRemoved = false
const docsHandler = siteHandler('docs', 'docs.test')
const docs = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (request) =>
    llmsTxtRemoved && new URL(request.url).pathname === '/llms.txt'
      ? new Response('Not found', { status: 404 })
      : docsHandler(request),
})

const GRADE_B_CANDIDATES = ['store', 'api-company', 'blog'] as const
let others: FixtureSite[]
let env: Record<string, string>
const dir = mkdtempSync(join(tmpdir(), 'ar-cli-pipeline-'))

beforeAll(async () => {
  others = await Promise.all([startFixtureSite('poor'), ...GRADE_B_CANDIDATES.map((name) => startFixtureSite(name))])
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: [`docs.test:443:127.0.0.1:${docs.port}`, ...others.map((site) => site.resolveRule)].join(','),
  }
})

afterAll(async () => {
  await Promise.all([docs.stop(true), ...others.map((site) => site.stop())])
  rmSync(dir, { recursive: true, force: true })
})

const runCli = (args: string[], extraEnv: Record<string, string | undefined> = {}): Promise<CliRun> =>
  runCliSource(args, { ...env, ...extraEnv })
const scanJson = async (host: string) =>
  JSON.parse((await runCli(['scan', host, '--static', '--format', 'json', '--quiet'])).stdout) as CliReport
/** The text report's final gate line, joined back if it was wrapped to fit the width. */
const gateVerdict = (text: string) =>
  text
    .slice(text.lastIndexOf('\nGate ') + 1)
    .trimEnd()
    .replace(/\n {2}/g, ' ')

interface JunitCase {
  classname: string
  name: string
  failure?: { message: string; '#text'?: string }
  skipped?: { message: string }
}

function junit(xml: string): { failures: number; cases: JunitCase[]; properties: Record<string, string> } {
  expect(XMLValidator.validate(xml)).toBe(true)
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
  }).parse(xml)
  const suites = parsed.testsuites.testsuite as {
    testcase: JunitCase[]
    properties?: { property: { name: string; value: string }[] }
  }[]
  const properties = Object.fromEntries(suites.at(-1)!.properties!.property.map((entry) => [entry.name, entry.value]))
  return { failures: Number(parsed.testsuites.failures), cases: suites.flatMap((suite) => suite.testcase), properties }
}

const failing = (cases: JunitCase[]) => cases.filter((entry) => entry.failure !== undefined)
const rows = (report: CliReport) =>
  report.layers.flatMap((layer) => layer.checks.map((check) => ({ layer: layer.id, ...check })))
const lowersScore = (check: CliCheck) => !check.bonus && check.maturity === 'verified' && !check.beta

describe('regression gate', () => {
  const baseline = join(dir, 'baseline.json')

  test('--save-baseline writes the JSON report; an unchanged site then passes with a "no regression" line', async () => {
    const saved = await runCli(['scan', 'docs.test', '--static', '--quiet', '--save-baseline', baseline])
    expect(saved.code).toBe(0)
    const written = JSON.parse(await Bun.file(baseline).text()) as CliReport
    expect(written).toMatchObject({ domain: 'docs.test', contractVersion: CONTRACT_VERSION, partial: false })
    expect(rows(written).find((check) => check.id === 'llms-txt')!.status).toBe('pass')

    const again = await runCli(['scan', 'docs.test', '--static', '--baseline', baseline])
    expect(again.code).toBe(0)
    expect(gateVerdict(again.stdout)).toMatch(/^Gate passed: .*no regression/)
    expect(again.stdout).not.toContain('Regressions since the baseline')
  })

  test('with llms.txt removed: exit 1, naming llms-txt with its status before and after and its fix', async () => {
    llmsTxtRemoved = true
    try {
      const [text, xml, md] = await Promise.all([
        runCli(['scan', 'docs.test', '--static', '--baseline', baseline]),
        runCli(['scan', 'docs.test', '--static', '--baseline', baseline, '--format', 'junit']),
        runCli(['scan', 'docs.test', '--static', '--baseline', baseline, '--format', 'markdown', '--quiet']),
      ])
      expect(text.code).toBe(1)
      expect(text.stdout).toContain('Regressions since the baseline')
      expect(text.stdout).toMatch(/^ {2}FAIL llms-txt {2}pass → fail: .+$/m)
      expect(text.stdout).toMatch(/^ {7}Fix: .+$/m)
      expect(gateVerdict(text.stdout)).toMatch(/^Gate failed: .*llms-txt no longer passes\.$/)

      // JUnit: red exactly on the gate's failed assertions, llms-txt's regression among them; no check case fails.
      expect(xml.code).toBe(1)
      const report = junit(xml.stdout)
      const red = failing(report.cases)
      expect(red.map((entry) => entry.name)).toContain('regression llms-txt')
      for (const entry of red) expect(entry.classname).toBe('gate')
      expect(report.failures).toBe(red.length)
      expect(red.find((entry) => entry.name === 'regression llms-txt')!.failure!['#text']).toContain('Fix: ')
      // The gate is told on stderr when stdout is a document.
      expect(xml.stderr).toMatch(/^Gate failed: .*llms-txt/m)

      expect(md.code).toBe(1)
      expect(md.stdout).toContain('### Regressions since the baseline')
      expect(md.stdout).toMatch(/^\| `llms-txt` \| pass \| .*fail \| .+ \|$/m)
      expect(md.stdout.split('\n')[0]).toMatch(/(▼ \d+|unchanged) since the baseline/)
    } finally {
      llmsTxtRemoved = false
    }
  })

  test('--tolerance forgives a score drop, never a check that stopped passing', async () => {
    const before = JSON.parse(await Bun.file(baseline).text()) as CliReport
    llmsTxtRemoved = true
    try {
      const after = await scanJson('docs.test')
      const drop = before.score! - after.score!
      expect(drop).toBeGreaterThan(0)
      const xml = await runCli([
        'scan',
        'docs.test',
        '--static',
        '--quiet',
        '--baseline',
        baseline,
        '--tolerance',
        String(drop),
        '--format',
        'junit',
      ])
      expect(xml.code).toBe(1)
      const red = failing(junit(xml.stdout).cases).map((entry) => entry.name)
      expect(red).toContain('regression llms-txt')
      expect(red).not.toContain('baseline score')
    } finally {
      llmsTxtRemoved = false
    }
  })

  test('a baseline from another contract version: checks added or removed are listed, never counted', async () => {
    const old = JSON.parse(await Bun.file(baseline).text()) as CliReport
    const [first] = old.layers
    const dropped = first!.checks.find((check) => check.status !== 'pass')!
    const retired: CliCheck = {
      id: 'retired-check',
      name: 'A check the catalog no longer has',
      status: 'pass',
      score: 5,
      maxScore: 5,
    }
    first!.checks = [...first!.checks.filter((check) => check.id !== dropped.id), retired]
    const file = join(dir, 'old-contract.json')
    await Bun.write(file, JSON.stringify({ ...old, contractVersion: '0.9.0' }))

    const run = await runCli(['scan', 'docs.test', '--static', '--baseline', file])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`The baseline came from contract 0.9.0; this run uses contract ${CONTRACT_VERSION}.`)
    expect(run.stdout).toMatch(new RegExp(`^ {2}Added since: .*${dropped.id}`, 'm'))
    expect(run.stdout).toMatch(/^ {2}Removed since: retired-check$/m)
    expect(gateVerdict(run.stdout)).toMatch(/^Gate passed: .*no regression/)
  })
})

describe('JUnit goes red exactly when the gate fails', () => {
  let site: string
  let report: CliReport

  beforeAll(async () => {
    // Weights move with calibration: take whichever candidate grades B now.
    for (const name of GRADE_B_CANDIDATES) {
      report = await scanJson(`${name}.test`)
      site = `${name}.test`
      if (report.grade === 'B') break
    }
    expect(report.grade).toBe('B')
  })

  test('under a passing --min-score gate no case fails, and failing checks are skipped with their status and fix', async () => {
    const run = await runCli([
      'scan',
      site,
      '--static',
      '--quiet',
      '--format',
      'junit',
      '--min-score',
      String(report.score! - 1),
    ])
    expect(run.code).toBe(0)
    const { failures, cases, properties } = junit(run.stdout)
    expect(failures).toBe(0)
    expect(failing(cases)).toEqual([])
    expect(cases.find((entry) => entry.classname === 'gate')).toMatchObject({ name: `min-score ${report.score! - 1}` })
    const notMet = rows(report).filter((check) => check.status === 'fail')
    expect(notMet.length).toBeGreaterThan(0)
    for (const check of notMet) {
      const skipped = cases.find((entry) => entry.name === check.id)!.skipped!
      expect(skipped.message).toContain('fail')
      if (check.recommendation) expect(skipped.message).toContain(`Fix: ${check.recommendation}`)
    }
    expect(properties).toMatchObject({
      score: String(report.score),
      grade: 'B',
      contractVersion: CONTRACT_VERSION,
      url: report.url,
    })
  })

  test('under a failing gate exactly the failed assertions fail', async () => {
    const fail = rows(report).find((check) => check.status === 'fail' && lowersScore(check))!
    const pass = rows(report).find((check) => check.status === 'pass')!
    const run = await runCli([
      'scan',
      site,
      '--static',
      '--quiet',
      '--format',
      'junit',
      '--min-score',
      String(report.score! + 1),
      '--checks',
      `${pass.id},${fail.id}`,
    ])
    expect(run.code).toBe(1)
    const { failures, cases } = junit(run.stdout)
    expect(failing(cases).map((entry) => [entry.classname, entry.name])).toEqual([
      ['gate', `min-score ${report.score! + 1}`],
      ['gate', `check ${fail.id}`],
    ])
    expect(failures).toBe(2)
    expect(cases.find((entry) => entry.name === `check ${pass.id}`)!.failure).toBeUndefined()
    // The asserted check's own case points at the gate's case rather than failing a second time.
    expect(cases.find((entry) => entry.name === fail.id)!.skipped!.message).toStartWith(
      `asserted by the gate's case "check ${fail.id}"; fail`,
    )
  })

  test('without a gate, checks that lower the score fail and no bonus or emerging check not met does', async () => {
    const run = await runCli(['scan', site, '--static', '--quiet', '--format', 'junit'])
    expect(run.code).toBe(0)
    const { cases } = junit(run.stdout)
    const checks = rows(report)
    const extras = checks.filter((check) => check.status === 'fail' && !lowersScore(check))
    expect(extras.length).toBeGreaterThan(0)
    for (const check of extras) {
      const entry = cases.find((candidate) => candidate.name === check.id)!
      expect(entry.failure).toBeUndefined()
      expect(entry.skipped!.message).toMatch(/^(bonus|emerging|beta) check, never lowers the score; fail/)
    }
    const red = failing(cases)
      .map((entry) => entry.name)
      .sort()
    expect(red).toEqual(
      checks
        .filter((check) => check.status === 'fail' && lowersScore(check))
        .map((check) => check.id)
        .sort(),
    )
  })
})

describe('text and markdown for people', () => {
  const ESCAPE = /\x1b\[/

  test('text: within 100 columns, fixes before failures before layers, no +0, a final gate line', async () => {
    for (const host of ['poor.test', 'docs.test']) {
      const [run, report] = await Promise.all([runCli(['scan', host, '--static', '--quiet']), scanJson(host)])
      const lines = run.stdout.trimEnd().split('\n')
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(100)
      expect(run.stdout).not.toMatch(ESCAPE)
      expect(run.stdout).not.toMatch(/\+0(\.0)?\s/)
      const order = ['Top fixes', 'Also lowering the score', 'Layers']
        .map((heading) => lines.indexOf(heading))
        .filter((index) => index >= 0)
      expect(order).toEqual([...order].sort((a, b) => a - b))
      expect(lines.at(-1)).toStartWith('No gate: ')
      // A layer with every point earned shows nothing to fix, whatever extras under it are not met.
      for (const layer of report.layers.filter(
        (entry) => (entry.maxScore ?? 0) > 0 && entry.score === entry.maxScore,
      )) {
        const line = lines.find((entry) => entry.startsWith(`  ${layer.name} `))!
        expect(line).not.toContain('to fix')
      }
    }
  })

  test('text: colour on request (FORCE_COLOR), none under NO_COLOR', async () => {
    const [forced, refused] = await Promise.all([
      runCli(['scan', 'poor.test', '--static', '--quiet'], { FORCE_COLOR: '1' }),
      runCli(['scan', 'poor.test', '--static', '--quiet'], { FORCE_COLOR: '1', NO_COLOR: '1' }),
    ])
    expect(forced.stdout).toMatch(ESCAPE)
    expect(forced.stdout).toContain('\x1b[31mFAIL\x1b[0m')
    expect(refused.stdout).not.toMatch(ESCAPE)
  })

  test('markdown for a poor site: under 60 lines, the top fixes first, the other failing checks folded', async () => {
    const [run, report] = await Promise.all([
      runCli(['scan', 'poor.test', '--static', '--quiet', '--format', 'markdown']),
      scanJson('poor.test'),
    ])
    const lines = run.stdout.split('\n')
    expect(lines.length).toBeLessThan(60)
    const headings = lines.filter((line) => line.startsWith('###') || line.startsWith('<details>'))
    expect(headings[0]).toBe('### Top fixes')
    expect(headings[1]).toStartWith('<details><summary>')
    const gains = lines
      .filter((line) => /^\| \+[\d.]+ \|/.test(line))
      .map((line) => Number(line.split('|')[1]!.trim().slice(1)))
    expect(gains).toEqual(report.topFixes.filter((fix) => fix.estScoreGain > 0).map((fix) => fix.estScoreGain))
  })
})
