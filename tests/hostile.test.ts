import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEngine } from '../app/engine.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import {
  HOSTILE_PROFILES,
  type HostileProfile,
  type HostileServer,
  startHostileServer,
} from './fixtures/hostile/server.ts'
import { testConfig } from './helpers.ts'
import { rssGrowth } from './support/rss.ts'

/**
 * Whole scans of the hostile fixture world (tests/fixtures/hostile): every profile's scan completes, the checks
 * that meet the attack fail or error with a reason (never "the check failed" from an exception), and the
 * process's memory stays bounded. bench/hostile.ts measures the same scans one per process.
 */
let server: HostileServer
let engine: ReturnType<typeof createEngine>
const reports = new Map<HostileProfile, ScanReport>()
const seconds = new Map<HostileProfile, number>()
/** Per scan: peak RSS while it ran, above the RSS just before it (after a full collection). */
const growthMb = new Map<HostileProfile, number>()

beforeAll(async () => {
  server = await startHostileServer()
  engine = createEngine(testConfig({ SCANNER_RESOLVE: server.resolveRules }), { browser: null })
  for (const profile of HOSTILE_PROFILES) {
    const started = performance.now()
    // The MCP profile is pinned as the MCP target, so that its endpoint goes through the MCP collector and the SDK.
    const mcpUrl = profile === 'mcp' ? `https://${server.host(profile)}/mcp` : undefined
    const { value: report, growthMb: growth } = await rssGrowth(
      () => scanUrl(mcpUrl ?? server.host(profile), engine, { phase: 'static', ...(mcpUrl ? { mcpUrl } : {}) }),
      5,
    )
    reports.set(profile, report)
    seconds.set(profile, (performance.now() - started) / 1000)
    growthMb.set(profile, growth)
  }
}, 180_000)
afterAll(() => server.stop())

function check(profile: HostileProfile, id: string) {
  const result = reports
    .get(profile)!
    .layers.flatMap((layer) => layer.checks)
    .find((entry) => entry.id === id)
  if (!result) throw new Error(`${id} is not in the ${profile} report`)
  return result
}

describe.each(HOSTILE_PROFILES)('hostile site %s', (profile) => {
  test('the scan completes in bounded time, and no check errs from an exception', () => {
    const report = reports.get(profile)!
    expect(report.layers.length).toBeGreaterThan(0)
    expect(seconds.get(profile)!).toBeLessThan(30)
    const crashed = report.layers
      .flatMap((layer) => layer.checks)
      .filter((entry) => entry.status === 'error' && !/No browser/.test(entry.details))
      .filter((entry) => /the check failed|RangeError|call stack|out of memory/i.test(entry.details))
    expect(crashed.map((entry) => `${entry.id}: ${entry.details}`)).toEqual([])
  })

  test('the scan grew the process by far less than one unbounded parse would (gigabytes)', () => {
    // bench/hostile.ts measures ~100-200 MB per scan in a process of its own; a test process carries more noise.
    expect(growthMb.get(profile)!).toBeLessThan(400)
  })
})

test('deep JSON: the OpenAPI guesses are no document, and a JSON-LD block nested 200,000 deep does not parse', () => {
  expect(check('deep-json', 'openapi-description')).toMatchObject({ status: 'na' })
  expect(check('deep-json', 'openapi-description').details).toContain('no OpenAPI document')
  const jsonLd = check('deep-json-valid', 'structured-data-jsonld')
  expect(jsonLd.status).toBe('fail')
  expect(jsonLd.details).toContain('none parses')
})

test('a YAML alias bomb in SKILL.md frontmatter is a skill without usable frontmatter', () => {
  const skills = check('yaml-bomb', 'agent-skills-index')
  expect(skills.status).toBe('warning')
  expect(skills.details).toContain('/skills/bomb/SKILL.md')
})

test('an XML bomb sitemap is not well-formed', () => {
  expect(check('xml-bomb', 'sitemap-xml')).toMatchObject({ status: 'fail' })
  expect(check('xml-bomb', 'sitemap-xml').details).toContain('not well-formed')
})

test.each(['gzip-bomb', 'endless'] as const)(
  '%s at every path: bodies are cut, the checks judge what was read',
  (profile) => {
    expect(check(profile, 'llms-txt').status).toBe('fail')
    expect(check(profile, 'sitemap-xml').details).toContain('not well-formed')
  },
)

test.each(['deep-html', 'wide-html'] as const)('%s: the homepage is parsed up to its bounds and judged', (profile) => {
  expect(check(profile, 'content-without-js').status).toBe('fail')
  expect(check(profile, 'semantic-html').status).not.toBe('error')
})

test('huge text files: robots.txt, llms.txt and the sitemap are judged over their limits', () => {
  expect(check('huge-text', 'robots-txt').details).toContain('over 500 KiB')
  expect(check('huge-text', 'llms-txt').details).toContain('over 1 MiB')
  expect(check('huge-text', 'sitemap-xml').details).toContain('50000+')
})

test('a hostile MCP endpoint: the handshake fails with the stream guard’s reason', () => {
  const initialize = check('mcp', 'mcp-initialize')
  expect(initialize.status).toBe('error')
  expect(initialize.details).toMatch(/event of the stream passed \d+ bytes/)
  expect(check('mcp', 'mcp-ping').status).toBe('fail')
})
