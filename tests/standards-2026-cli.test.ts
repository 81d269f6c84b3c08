import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CliReport } from '../app/cli/report.ts'
import { serveStandardsSite, STANDARDS_SITES, type StandardsSiteName } from './fixtures/sites/standards-2026/sites.ts'
import { runCliSource } from './support/cli.ts'

/**
 * Issue 30, AIPREF / Web Bot Auth -00 / A2A 1.0: each rule on a site built from the document's text, scanned by the
 * real CLI as a user scans a local build (`scan http://127.0.0.1:PORT --static --allow-private`).
 */

const CHECKS = ['content-signals', 'web-bot-auth-directory', 'a2a-agent-card'] as const
type CheckId = (typeof CHECKS)[number]

const servers: ReturnType<typeof Bun.serve>[] = []
const results = new Map<StandardsSiteName, Record<string, string>>()

async function scan(name: StandardsSiteName): Promise<void> {
  const server = serveStandardsSite(name)
  servers.push(server)
  const run = await runCliSource(
    [
      'scan',
      `http://127.0.0.1:${server.port}`,
      '--static',
      '--allow-private',
      '--only',
      CHECKS.join(','),
      '--format',
      'json',
      '--quiet',
    ],
    {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'silent',
    },
  )
  // --only is a gate: 1 says a listed check did not pass, which several of these sites are built to show.
  if (run.code !== 0 && run.code !== 1) throw new Error(`scan of ${name} exited ${run.code}: ${run.stderr}`)
  const report = JSON.parse(run.stdout) as CliReport
  results.set(
    name,
    Object.fromEntries(report.layers.flatMap((layer) => layer.checks).map((check) => [check.id, check.status])),
  )
}

beforeAll(async () => {
  const names = Object.keys(STANDARDS_SITES) as StandardsSiteName[]
  // Two at a time: each scan is its own process.
  for (let index = 0; index < names.length; index += 2) await Promise.all(names.slice(index, index + 2).map(scan))
}, 180_000)

afterAll(() => {
  for (const server of servers) server.stop(true)
})

const statusOf = (site: StandardsSiteName, check: CheckId) => results.get(site)?.[check]

describe('AIPREF (draft-ietf-aipref-attach-05, draft-ietf-aipref-vocab-07)', () => {
  test.each([
    [
      'draft-ietf-aipref-attach-05 §3: a robots.txt Content-Usage line states a preference (pass)',
      'conforming',
      'pass',
    ],
    ['draft-ietf-aipref-attach-05 §3.2: a path-scoped Content-Usage line is read (pass)', 'scoped-usage', 'pass'],
    ['draft-ietf-aipref-attach-05 §2: the Content-Usage header on the homepage is read (pass)', 'usage-header', 'pass'],
    [
      'draft-ietf-aipref-attach-05 §2: the header alone, without robots.txt, states a preference (pass)',
      'usage-header-only',
      'pass',
    ],
    ['draft-ietf-aipref-vocab-07 §6.5: train-ai=no states no preference (warning)', 'usage-no', 'warning'],
    [
      'draft-ietf-aipref-vocab-07 §6.5.1: Train-AI=n does not parse, keys are case-sensitive (warning)',
      'usage-upper-case',
      'warning',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.4: an unknown label is ignored, never an error (pass)',
      'usage-unknown-label',
      'pass',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.1: a line with only dropped labels (train-genai, bots, ai-use) warns',
      'usage-dropped-labels',
      'warning',
    ],
  ] as const)('%s', (_rule, site, expected) => {
    expect(statusOf(site, 'content-signals')).toBe(expected)
  })

  test('the content-signals check stays marked draft', async () => {
    const { default: check } = await import('../checks/domain/content-signals.ts')
    expect(check.meta.draft).toBe(true)
  })
})

describe('Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol-00, RFC 9421 Appendix B.1)', () => {
  test.each([
    [
      'draft-ietf-webbotauth-httpsig-protocol-00: a 200 with the directory media type and an own key passes',
      'conforming',
      'pass',
    ],
    [
      'draft-ietf-webbotauth-httpsig-protocol-00: a redirect fails (verifiers MUST NOT follow redirects)',
      'scoped-usage',
      'fail',
    ],
    [
      'draft-ietf-webbotauth-httpsig-protocol-00: application/json instead of the directory media type warns',
      'usage-header',
      'warning',
    ],
    [
      'RFC 9421 Appendix B.1.4: a directory publishing the Ed25519 test key fails (test keys MUST NOT be used in production)',
      'usage-no',
      'fail',
    ],
  ] as const)('%s', (_rule, site, expected) => {
    expect(statusOf(site, 'web-bot-auth-directory')).toBe(expected)
  })
})

describe('A2A 1.0 (specification §4.4.6, §8.2, §14.3)', () => {
  test.each([
    ['A2A 1.0 §8.2/§14.3: the card at /.well-known/agent-card.json passes', 'conforming', 'pass'],
    ['A2A 1.0 §8.2/§14.3: a card only at /.well-known/agent.json warns', 'scoped-usage', 'warning'],
    ['A2A 1.0 §4.4.6: an interface entry without protocolVersion warns', 'usage-header', 'warning'],
    ['A2A 1.0 §4.4.6: an interface entry without protocolBinding warns', 'usage-no', 'warning'],
  ] as const)('%s', (_rule, site, expected) => {
    expect(statusOf(site, 'a2a-agent-card')).toBe(expected)
  })
})
