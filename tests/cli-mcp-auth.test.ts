import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CliReport } from '../app/cli/report.ts'
import {
  PROTECTED_TOKEN,
  type ProtectedElsewhere,
  startProtectedElsewhere,
} from './fixtures/mcp/protected-elsewhere.ts'
import { type CliRun, runCliSource } from './support/cli.ts'

/**
 * Issue 22 item 3, as a CI user runs it: `agent-readiness scan --mcp <protected server> --header-env AUTH_LINE` scans
 * the owner's protected MCP server as a token holder, says so in the report, and never lets the token reach another
 * host (the fixture's other host records every request: its metadata, home page and redirects all point there), nor
 * the output. Without the header the same scan is the spec's MCP_AUTH_REQUIRED.
 */
let fixture: ProtectedElsewhere
let env: Record<string, string>
const AUTH_LINE = `Authorization: Bearer ${PROTECTED_TOKEN}`

beforeAll(async () => {
  fixture = await startProtectedElsewhere()
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: fixture.resolveRules,
  }
})
afterAll(() => fixture.stop())

const run = (args: string[], extraEnv: Record<string, string> = {}): Promise<CliRun> =>
  runCliSource(args, { ...env, ...extraEnv })
const noToken = (result: CliRun) => expect(`${result.stdout}\n${result.stderr}`).not.toContain(PROTECTED_TOKEN)

describe('scanning your own protected MCP server', () => {
  test('without a header it needs authentication: exit 2, nothing scored', async () => {
    const result = await run(['scan', '--mcp', fixture.url, fixture.url, '--static', '--quiet'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('requires authentication')
  })

  test('--header-env: the server is scanned as a token holder, and the token never leaves its origin', async () => {
    const before = fixture.elsewhere.length
    const authorizedBefore = fixture.authorizedMcpRequests
    const result = await run(
      [
        'scan',
        '--mcp',
        fixture.url,
        fixture.url,
        '--header-env',
        'AUTH_LINE',
        '--static',
        '--format',
        'json',
        '--min-score',
        '50',
      ],
      { AUTH_LINE },
    )
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout) as CliReport
    expect(report).toMatchObject({ urlKind: 'mcp', authenticated: { headers: ['Authorization'] } })
    expect(report.score).toBeGreaterThanOrEqual(50)
    const status = (id: string) =>
      report.layers.flatMap((layer) => layer.checks).find((check) => check.id === id)?.status
    expect(status('mcp-initialize')).toBe('pass')
    expect(status('mcp-tools-list')).toBe('pass')
    // The MCP endpoint got the token; the other host was reached (metadata, links, redirects) but never with it.
    expect(fixture.authorizedMcpRequests).toBeGreaterThan(authorizedBefore)
    const elsewhere = fixture.elsewhere.slice(before)
    expect(elsewhere.length).toBeGreaterThan(0)
    expect(elsewhere.some((request) => request.path === '/.well-known/oauth-authorization-server')).toBe(true)
    expect(elsewhere.filter((request) => JSON.stringify(request.headers).includes(PROTECTED_TOKEN))).toEqual([])
    noToken(result)
  })

  test('--header works the same, and the text report says it ran authenticated', async () => {
    const result = await run(['scan', fixture.url, '--header', AUTH_LINE, '--static'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('authenticated: yes (headers: Authorization)')
    noToken(result)
  })
})

describe('header usage errors name the option, never the value', () => {
  test.each([
    [['--header-env', 'NOT_SET_ANYWHERE'], /^--header-env NOT_SET_ANYWHERE: the environment variable is not set$/],
    [
      ['--header', `Authorization Bearer ${PROTECTED_TOKEN}`],
      /^--header takes one "Name: value" header line \(the value is not shown\)$/,
    ],
    [
      ['--header-env', 'AUTH_LINE', '--header', AUTH_LINE],
      /^--header-env AUTH_LINE: the header Authorization is given twice$/,
    ],
    [['--header', 'Host: evil.test'], /^--header: Host is set by the HTTP client and cannot be given$/],
    [['--header', AUTH_LINE, '--server', 'http://127.0.0.1:1'], /^--header and --header-env apply to in-process scans/],
  ])('%p', async (args, message) => {
    const result = await run(['scan', fixture.url, ...args], { AUTH_LINE })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(message),
      'see agent-readiness scan --help',
    ])
    noToken(result)
  })
})
