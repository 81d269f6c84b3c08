import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLValidator } from 'fast-xml-parser'
import { parse } from 'yaml'
import { buildCli } from '../app/cli/build.ts'
import { PACKAGE_ROOT } from '../core/package-root.ts'
import { type FixtureSite, startFixtureSite } from './fixtures/sites/server.ts'
import { runProcess } from './support/cli.ts'

/**
 * The GitHub Action (action.yml, a composite action over .github/action/run.sh) run as a runner would: its script
 * under bash, the inputs as the action maps them to the environment, the CLI built and installed on PATH, a job
 * summary file, and a fixture site to scan.
 */

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>
  outputs: Record<string, { description: string; value: string }>
  runs: { using: string; steps: { id: string; run: string; shell: string; env: Record<string, string> }[] }
}

const action = parse(await Bun.file(join(PACKAGE_ROOT, 'action.yml')).text()) as Action
const SCRIPT = join(PACKAGE_ROOT, '.github', 'action', 'run.sh')
const outdir = join(PACKAGE_ROOT, 'test-output', `cli-action-${process.pid}`)
const work = mkdtempSync(join(tmpdir(), 'ar-action-'))
const bin = join(work, 'bin')
let builtCli: string
let site: FixtureSite
let baseEnv: Record<string, string>

beforeAll(async () => {
  mkdirSync(bin)
  ;[builtCli, site] = await Promise.all([buildCli(outdir), startFixtureSite('poor')])
  // Installed as npm installs a package's bin (a link named after the command, on PATH), with Bun on PATH as
  // oven-sh/setup-bun puts it there (the npm package names its binary bun.exe).
  symlinkSync(builtCli, join(bin, 'agent-readiness'))
  symlinkSync(process.execPath, join(bin, 'bun'))
  baseEnv = {
    PATH: [bin, '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: site.resolveRule,
  }
}, 60_000)

afterAll(async () => {
  await site.stop()
  rmSync(outdir, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

/** The environment the composite step gets: each input under the variable action.yml maps it to. */
function inputsEnv(inputs: Record<string, string>): Record<string, string> {
  const step = action.runs.steps[0]!
  const env: Record<string, string> = {}
  for (const [variable, expression] of Object.entries(step.env)) {
    const name = expression.match(/^\$\{\{ inputs\.([\w-]+) \}\}$/)![1]!
    env[variable] = inputs[name] ?? action.inputs[name]!.default ?? ''
  }
  return env
}

const runAction = (inputs: Record<string, string>, extra: Record<string, string> = {}) =>
  runProcess(['bash', SCRIPT], { env: { ...baseEnv, ...inputsEnv(inputs), ...extra }, cwd: work })

describe('action.yml', () => {
  test('is a composite action whose step runs the script with every input in its environment', async () => {
    expect(action.runs.using).toBe('composite')
    const step = action.runs.steps[0]!
    expect(step.run).toBe('bash "$GITHUB_ACTION_PATH/.github/action/run.sh"')
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(['target', 'min-score', 'checks', 'baseline', 'format']),
    )
    expect(action.inputs.target!.required).toBe(true)
    const script = await Bun.file(SCRIPT).text()
    for (const [variable, expression] of Object.entries(step.env)) {
      expect(variable).toBe(
        `INPUT_${expression
          .match(/inputs\.([\w-]+)/)![1]!
          .toUpperCase()
          .replaceAll('-', '_')}`,
      )
      expect(script).toContain(variable)
    }
    expect(Object.keys(step.env)).toHaveLength(Object.keys(action.inputs).length)
    // Each output is the step's output of the same name, which the script writes.
    expect(Object.keys(action.outputs)).toEqual(['score', 'grade', 'passed', 'exit-code', 'report'])
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.value).toBe(`\${{ steps.${step.id}.outputs.${name} }}`)
      expect(script).toContain(`${name}=`)
    }
  })
  test("the README's Actions example is a whole workflow that uses it from the repository root with its own inputs and outputs, and the package ships it", async () => {
    const readme = await Bun.file(join(PACKAGE_ROOT, 'README.md')).text()
    const example = readme.match(/```yaml\n(name:[\s\S]*?)```/)![1]!
    const workflow = parse(example) as {
      on: unknown
      jobs: Record<string, { steps: { id?: string; uses?: string; run?: string; with?: Record<string, unknown> }[] }>
    }
    expect(workflow.on).toBeDefined()
    const steps = workflow.jobs['agent-readiness']!.steps
    const step = steps.find((entry) => entry.uses === '<owner>/<repo>@<ref>')!
    for (const input of Object.keys(step.with!)) expect(Object.keys(action.inputs)).toContain(input)
    for (const input of Object.entries(action.inputs)
      .filter(([, spec]) => spec.required)
      .map(([name]) => name))
      expect(Object.keys(step.with!)).toContain(input)
    for (const used of example.matchAll(new RegExp(`steps\\.${step.id}\\.outputs\\.([\\w-]+)`, 'g')))
      expect(Object.keys(action.outputs)).toContain(used[1]!)
    // Every input and output is named in the README.
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)])
      expect(readme).toContain(`\`${name}\``)
    const { files } = (await Bun.file(join(PACKAGE_ROOT, 'package.json')).json()) as { files: string[] }
    expect(files).toEqual(expect.arrayContaining(['action.yml', '.github/action']))
  })
})

describe('.github/action/run.sh', () => {
  test('scans with the inputs, writes the report where asked and appends the Markdown to the job summary', async () => {
    const summary = join(work, 'summary.md')
    await Bun.write(summary, '# Earlier step\n\n')
    const outputs = join(work, 'outputs.txt')
    const passing = await runAction(
      {
        target: site.host,
        'min-score': '0',
        format: 'junit',
        output: 'report.xml',
        args: '--static',
        'save-baseline': 'baseline.json',
      },
      { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: outputs },
    )
    expect(passing.stderr).toContain('Gate passed: score')
    expect(passing.code).toBe(0)
    const saved = (await Bun.file(join(work, 'baseline.json')).json()) as { score: number; grade: string }
    expect(await Bun.file(outputs).text()).toBe(
      `exit-code=0\npassed=true\nreport=baseline.json\nscore=${saved.score}\ngrade=${saved.grade}\n`,
    )
    expect(XMLValidator.validate(await Bun.file(join(work, 'report.xml')).text())).toBe(true)
    const written = await Bun.file(summary).text()
    expect(written).toStartWith('# Earlier step\n\n## Agent readiness: poor.test scores ')
    expect(written).toContain('### Top fixes')
    expect(written).toContain('✅ **Gate passed**')

    // The baseline it saved gates the next run; a gate that fails fails the step.
    const failingOutputs = join(work, 'failing-outputs.txt')
    const failing = await runAction(
      { target: site.host, 'min-score': '100', baseline: 'baseline.json', args: '--static' },
      { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: failingOutputs, RUNNER_TEMP: work },
    )
    expect(failing.code).toBe(1)
    // Without save-baseline the report the outputs are read from goes to the runner's temp directory.
    expect(await Bun.file(failingOutputs).text()).toBe(
      `exit-code=1\npassed=false\nreport=${join(work, 'agent-readiness-report.json')}\nscore=${saved.score}\ngrade=${saved.grade}\n`,
    )
    expect(failing.stdout).toMatch(/^  No regression: /m)
    expect(failing.stdout).toMatch(/^Gate failed: score \d+ is below --min-score 100/m)
    const appended = await Bun.file(summary).text()
    expect(appended.match(/^## Agent readiness: /gm)).toHaveLength(2)
    expect(appended).toContain('❌ **Gate failed**')
  }, 60_000)

  test('a first run without its baseline file scans anyway, with a warning', async () => {
    const run = await runAction({
      target: site.host,
      baseline: 'missing.json',
      checks: 'bot-challenge-free',
      args: '--static --quiet',
    })
    expect(run.stdout).toContain('::warning::agent-readiness: no baseline at missing.json')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Gate passed: bot-challenge-free passes\.$/m)
  })

  test('without a target or an installed CLI the step fails as a usage error (exit 2)', async () => {
    const noTarget = await runAction({})
    expect(noTarget.code).toBe(2)
    expect(noTarget.stderr).toContain('::error::agent-readiness: the target input is required')
    const notInstalled = await runProcess(['bash', SCRIPT], {
      env: { ...baseEnv, PATH: '/usr/bin:/bin', ...inputsEnv({ target: site.host }) },
      cwd: work,
    })
    expect(notInstalled.code).toBe(2)
    expect(notInstalled.stderr).toContain('::error::agent-readiness is not installed')
  })

  test('used as <owner>/<repo>@<ref>, it runs the CLI of its own checkout, with Node and no Bun on PATH', async () => {
    // The checkout GitHub puts at GITHUB_ACTION_PATH, already installed (npm ci there built dist/cli.js).
    const checkout = join(work, 'action-checkout')
    mkdirSync(join(checkout, 'dist'), { recursive: true })
    symlinkSync(join(PACKAGE_ROOT, 'package.json'), join(checkout, 'package.json'))
    symlinkSync(builtCli, join(checkout, 'dist', 'cli.js'))
    const nodeOnly = join(work, 'node-only')
    mkdirSync(nodeOnly)
    symlinkSync(Bun.which('node')!, join(nodeOnly, 'node'))
    const env = {
      ...baseEnv,
      PATH: `${nodeOnly}:/bin`,
      GITHUB_ACTION_PATH: checkout,
      ...inputsEnv({ target: site.host, 'min-score': '0', args: '--static --quiet' }),
    }
    expect(Bun.which('bun', { PATH: env.PATH })).toBeNull()
    const run = await runProcess(['bash', SCRIPT], { env, cwd: work })
    expect(run.stderr).toBe('')
    expect(run.stdout).toMatch(/^Gate passed: score \d+/m)
    expect(run.code).toBe(0)
  })
})
