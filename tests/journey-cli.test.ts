// The real `agent-readiness journey` process (issue 23): a journey as a CI gate, in-process and on a running
// service, against the hand-labelled sites on loopback. Exit 0 on success, 1 on failure or blocked, 2 on usage.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { JourneyReport } from '../app/cli/journey.ts'
import { type LabelledWorld, startLabelledSites } from './fixtures/sites/labelled/server.ts'
import { servedTestApp } from './helpers.ts'
import { CLI_SOURCE, type CliRun, runCliSource, runInTerminal } from './support/cli.ts'

let sites: LabelledWorld
let env: Record<string, string>
beforeAll(() => {
  sites = startLabelledSites()
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: sites.resolveRules.join(','),
  }
})
afterAll(() => sites.stop())

const journey = (args: string[], extra: Record<string, string> = {}): Promise<CliRun> =>
  runCliSource(['journey', ...args, '--static'], { ...env, ...extra })

describe('agent-readiness journey (in-process)', () => {
  test('success: exit 0, the verdict, the answer with its source and the trajectory', async () => {
    const run = await journey(['seat-saas.test', '--intent', 'find-pricing'])
    expect(run.code).toBe(0)
    expect(run.stdout).toStartWith('find-pricing on seat-saas.test as deterministic (self): SUCCESS\n')
    expect(run.stdout).toContain('  Source: https://seat-saas.test/pricing\n')
    expect(run.stdout).toContain('Team: 8 USD per seat per month')
    // stderr is not a terminal here: no live trajectory, the report alone.
    expect(run.stderr).toBe('')
  })

  test('at a terminal the trajectory is printed once: live as it goes, then counted by the report', async () => {
    const run = await runInTerminal(
      [process.execPath, CLI_SOURCE, 'journey', 'seat-saas.test', '--intent', 'find-pricing', '--static'],
      env,
    )
    expect(run.code).toBe(0)
    const screen = run.stdout.replaceAll('\r\n', '\n')
    const firstStep = screen.split('\n').find((line) => /^  s1 /.test(line))
    expect(firstStep).toBeDefined()
    expect(screen.split('\n').filter((line) => line === firstStep)).toHaveLength(1)
    expect(screen).toMatch(/\n\d+ steps \(\d+ tool calls\), above\n/)
    expect(screen.indexOf(firstStep!)).toBeLessThan(
      screen.indexOf('find-pricing on seat-saas.test as deterministic (self): SUCCESS'),
    )
  })

  test('blocked as an AI assistant: exit 1, json names the blocked step and the checks that would help', async () => {
    const run = await journey([
      'assistant-gated.test',
      '--intent',
      'find-pricing',
      '--agent',
      'claude-user',
      '--format',
      'json',
    ])
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout) as JourneyReport
    expect(report).toMatchObject({
      domain: 'assistant-gated.test',
      identity: 'Claude-User',
      agent: { id: 'claude-user' },
      verdict: { outcome: 'blocked' },
    })
    const blocked = report.steps.find((step) => step.id === report.verdict.evidence_step_ids[0])!
    expect(blocked).toMatchObject({ url: 'https://assistant-gated.test/', status: 'blocked' })
    expect(report.insight.related_checks).toContain('bot-challenge-free')
  })

  test('a local target keeps its port: the agent works on http://127.0.0.1:PORT, not on https://127.0.0.1', async () => {
    const local = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: (request) =>
        new URL(request.url).pathname === '/'
          ? new Response(
              `<!doctype html><html><head><title>Kiln Works</title><meta name="description" content="Kiln Works fires stoneware for potters. We run three gas kilns and fire weekly."></head><body><h1>Kiln Works</h1><p>${'Kiln Works fires stoneware for potters who have no kiln of their own. We run three gas kilns and fire every week. '.repeat(4)}</p></body></html>`,
              { headers: { 'content-type': 'text/html' } },
            )
          : new Response('Not found', { status: 404 }),
    })
    try {
      const run = await journey([
        `127.0.0.1:${local.port}`,
        '--intent',
        'evaluate-product',
        '--allow-private',
        '--format',
        'json',
      ])
      const report = JSON.parse(run.stdout) as JourneyReport
      expect(report.steps.find((step) => step.url)?.url).toStartWith(`http://127.0.0.1:${local.port}/`)
      expect({ code: run.code, outcome: report.verdict.outcome }).toEqual({ code: 0, outcome: 'success' })
    } finally {
      local.stop(true)
    }
  })

  test('junit: one test case, failed with the verdict when the task is not done', async () => {
    const run = await journey(['seat-saas.test', '--intent', 'find-terms', '--format', 'junit'])
    expect(run.code).toBe(1)
    expect(XMLValidator.validate(run.stdout)).toBe(true)
    const suite = new XMLParser({ ignoreAttributes: false }).parse(run.stdout).testsuites
    expect(suite['@_failures']).toBe('1')
    expect(suite.testsuite.testcase['@_name']).toBe('find-terms on seat-saas.test as deterministic')
    expect(suite.testsuite.testcase.failure['@_message']).toStartWith('failure: No terms of service')
  })

  test.each([
    [['seat-saas.test'], /--intent ID is required/],
    [['seat-saas.test', '--intent', 'find-nothing'], /"find-nothing" is not a curated intent/],
    [
      ['seat-saas.test', '--intent', 'find-pricing', '--agent', 'browser'],
      /--agent is one of deterministic, chatgpt-user, claude-user, perplexity-user, mistralai-user/,
    ],
    [['seat-saas.test', '--intent', 'find-pricing', '--format', 'xml'], /--format is one of text, json, junit/],
  ])('usage errors exit 2: %p', async (args, message) => {
    const run = await journey(args)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(run.stderr).toContain('see agent-readiness journey --help')
  })
})

describe('agent-readiness journey --server', () => {
  let app: Awaited<ReturnType<typeof servedTestApp>>
  let server: string
  beforeAll(async () => {
    app = await servedTestApp({ SCANNER_RESOLVE: env.SCANNER_RESOLVE })
    server = app.url
  })
  afterAll(() => app.close())

  test('runs on the service and prints what the in-process run prints', async () => {
    const [remote, local] = await Promise.all([
      runCliSource(
        ['journey', 'geo-api.test', '--intent', 'find-api-reference', '--format', 'json', '--server', server],
        env,
      ),
      journey(['geo-api.test', '--intent', 'find-api-reference', '--format', 'json']),
    ])
    expect(remote.code).toBe(0)
    const [a, b] = [JSON.parse(remote.stdout) as JourneyReport, JSON.parse(local.stdout) as JourneyReport]
    expect(a.verdict).toEqual(b.verdict)
    expect(a.agent_response).toBe(b.agent_response)
    expect(a.trajectory_digest).toBe(b.trajectory_digest)
  })
})
