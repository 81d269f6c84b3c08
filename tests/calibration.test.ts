import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEngine } from '../app/engine.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { rescore, score } from '../core/engine/scoring.ts'
import { scanUrl } from './support/scan.ts'
import { buildReportModel } from '../core/report/index.ts'
import { startServerEverything } from './fixtures/mcp/everything.ts'
import { type McpFixture, resolveRules as mcpResolveRules, startMcpFixtures } from './fixtures/mcp/server.ts'
import { type FixtureSite, resolveRules, type SiteName, startFixtureSites } from './fixtures/sites/server.ts'
import { testConfig } from './helpers.ts'

/**
 * The calibration table (issue 21, item 1): archetypes of what the scanner meets, each scanned for real (fixture
 * sites on 127.0.0.1, rendered checks through the system Chromium when present, a real MCP server), held to the
 * order and grade band a careful reviewer gives them. Tiers are ordered: every archetype of a tier must score
 * above every archetype of the next one; within a tier the reviewer would not insist on an order.
 *
 * Why this order, tier by tier:
 * 1. Built for agents. `excellent` passes every domain check it was built for. The well-made MCP server is an agent
 *    interface by construction: it answers the handshake, lists described, typed, annotated tools. The documentation
 *    site gives agents its content in every form they read (llms.txt, llms-full.txt, markdown by negotiation and
 *    alternates, server-rendered pages with structured data); what it lacks (a Link header, content signals, CORS on
 *    llms.txt) is polish. A reviewer grades all three A.
 * 2. Usable, with gaps. The API company's API is discoverable (OpenAPI by Link header, an API catalog, OAuth
 *    metadata) but half its answers are warnings and its pages offer no markdown; the store lists products and
 *    prices as JSON-LD and publishes checkout profiles, with nothing for agents' reading (no llms.txt, no
 *    markdown). Both are B: agents can work with them, a few fixes would remove the friction.
 * 3. Readable, nothing more. The plain blog has good hygiene (sitemap, semantic HTML, BlogPosting JSON-LD, real
 *    404s) and nothing agent-specific. Agents read it fine but find nothing made for them: B at best, C at worst,
 *    below a site that offers agents an API or a catalogue.
 * 4. Agents get little. The news site has real content, but its edge
 *    answers agents acting for a person with a 403 challenge, so they get nothing; while the block lasts no amount
 *    of polish makes it B (the block factor), and lifting it is the first fix: C or D. The food magazine is as
 *    well made, but its robots.txt admits only Googlebot and Bingbot: every agent acting for a person is
 *    disallowed, the same block by other means, and the same band.
 * 5. Nothing for agents. "Welcome to nginx!" lets every agent in, to a stock page that says nothing (as good as
 *    an empty page, so it stops agents as the empty shell does); the SPA is an empty
 *    shell without JavaScript, so fetch-based agents (the most common kind) read nothing at all, which stops them as
 *    a block does (its WebMCP tool only helps browser agents; it also answers 200 for any path and has no
 *    structured data), and server rendering is its fix #1; `poor` is broken throughout (HTML robots.txt, soft 404s,
 *    an empty app shell, unlabeled forms). D at best, far below real documentation.
 */
interface Archetype {
  /** A fixture site, or an MCP fixture server scanned by its URL. */
  site?: SiteName
  mcp?: 'well-made'
  grades: string[]
}

const TIERS: Record<string, Archetype>[] = [
  {
    excellent: { site: 'excellent', grades: ['A+', 'A'] },
    'mcp-server': { mcp: 'well-made', grades: ['A+', 'A'] },
    documentation: { site: 'docs', grades: ['A+', 'A'] },
  },
  {
    'api-company': { site: 'api-company', grades: ['B'] },
    store: { site: 'store', grades: ['B'] },
  },
  {
    blog: { site: 'blog', grades: ['B', 'C'] },
  },
  {
    'blocked-news': { site: 'bot-challenged', grades: ['C', 'D'] },
    'robots-blocked': { site: 'robots-blocked', grades: ['C', 'D'] },
  },
  {
    placeholder: { site: 'placeholder', grades: ['D', 'F'] },
    spa: { site: 'spa', grades: ['D', 'F'] },
    poor: { site: 'poor', grades: ['F'] },
  },
]

const ARCHETYPES: Record<string, Archetype> = Object.assign({}, ...TIERS)
/**
 * One workshop site under four robots.txt files (tests/fixtures/sites/robots-variants): what robots.txt alone does
 * to the score. Kept out of the tiers, which order different sites.
 */
const ROBOTS_VARIANTS = [
  'robots-allow-all',
  'robots-training-blocked',
  'robots-assistants-blocked',
  'robots-absent',
] as const satisfies SiteName[]
/** The MCP team's reference server: its gaps are warnings, which must not read as required failures. */
const REFERENCE_MCP = 'mcp-reference-server'
/** "Clearly below": the placeholder trails real documentation by at least this many points. */
const PLACEHOLDER_GAP = 40

let sites: FixtureSite[]
let mcp: McpFixture[]
let everything: Awaited<ReturnType<typeof startServerEverything>>
let engine: ReturnType<typeof createEngine>
const reports = new Map<string, ScanReport>()

beforeAll(async () => {
  const siteNames = [
    ...Object.values(ARCHETYPES).flatMap((archetype) => (archetype.site ? [archetype.site] : [])),
    ...ROBOTS_VARIANTS,
  ]
  sites = await startFixtureSites(siteNames)
  mcp = await startMcpFixtures(['well-made'])
  everything = await startServerEverything()
  engine = createEngine(
    testConfig({ SCANNER_RESOLVE: `${resolveRules(sites)},${mcpResolveRules([...mcp, everything])}` }),
  )
  const phase = engine.browser ? 'all' : 'static'
  for (const [name, archetype] of Object.entries(ARCHETYPES)) {
    const target = archetype.site ? sites.find((site) => site.name === archetype.site)!.host : mcp[0]!.url
    reports.set(name, await scanUrl(target, engine, { phase }))
  }
  for (const name of ROBOTS_VARIANTS)
    reports.set(name, await scanUrl(sites.find((site) => site.name === name)!.host, engine, { phase }))
  reports.set(REFERENCE_MCP, await scanUrl(everything.url, engine, { phase }))
}, 360_000)
afterAll(async () => {
  await engine.browser?.close()
  await Promise.all([...sites.map((site) => site.stop()), ...mcp.map((fixture) => fixture.stop()), everything.stop()])
})

const report = (name: string) => reports.get(name)!
const rows = (name: string) => report(name).layers.flatMap((layer) => layer.checks)
const table = () => [...reports].map(([name, scanned]) => `${name}: ${scanned.score} ${scanned.grade}`).join(', ')

describe('calibration table', () => {
  test.each(Object.keys(ARCHETYPES))('%s lands in its grade band', (name) => {
    expect(ARCHETYPES[name]!.grades).toContain(report(name).grade)
  })

  test('each tier scores above the next', () => {
    for (const [index, tier] of TIERS.slice(0, -1).entries()) {
      const lowest = Math.min(...Object.keys(tier).map((name) => report(name).score))
      const next = Math.max(...Object.keys(TIERS[index + 1]!).map((name) => report(name).score))
      expect(lowest, `tier ${index + 1} vs ${index + 2} (${table()})`).toBeGreaterThan(next)
    }
  })

  test('the placeholder page scores clearly below real documentation, and below the news site it cannot read', () => {
    expect(report('placeholder').score).toBeLessThanOrEqual(report('documentation').score - PLACEHOLDER_GAP)
    expect(report('placeholder').score).toBeLessThan(report('blocked-news').score)
  })
})

/** The archetypes that stop agents, and the check that says so. */
const BLOCKED: Record<string, string> = {
  'blocked-news': 'bot-challenge-free',
  'robots-blocked': 'robots-ai-agents-allowed',
  'robots-assistants-blocked': 'robots-ai-agents-allowed',
  placeholder: 'content-without-js',
  spa: 'content-without-js',
  poor: 'content-without-js',
}

describe('harm first', () => {
  test.each(Object.entries(BLOCKED))('%s has the block (%s) as top fix #1 and a grade below B', (name, id) => {
    const blocked = report(name)
    expect(blocked.blockedBy).toEqual([id])
    expect(blocked.topFixes[0]).toMatchObject({ id, status: 'fail', bonus: false })
    expect(['C', 'D', 'F']).toContain(blocked.grade)
    // Its fail recommendation says why the grade stops there.
    expect(rows(name).find((check) => check.id === id)!.recommendation).toMatch(/cannot reach grade B/)
  })

  test('refusing the main assistants in robots.txt scores below the same site with no robots.txt; refusing training crawlers costs nothing', () => {
    const score = (name: string) => report(name).score
    expect(score('robots-assistants-blocked'), table()).toBeLessThan(score('robots-absent'))
    expect(score('robots-assistants-blocked')).toBeLessThan(score('robots-allow-all'))
    // Naming the training crawlers can earn the explicit-rules check something; it never costs.
    expect(score('robots-training-blocked')).toBeGreaterThanOrEqual(score('robots-allow-all'))
    expect(rows('robots-training-blocked').find((check) => check.id === 'robots-ai-agents-allowed')).toMatchObject({
      status: 'pass',
      score: 10,
    })
    expect(report('robots-training-blocked').blockedBy).toEqual([])
  })

  test('no archetype that lets agents in is held down by the block factor', () => {
    for (const [name, scanned] of reports) {
      if (name in BLOCKED) continue
      expect({ name, blockedBy: scanned.blockedBy, blockFactor: scanned.blockFactor }).toEqual({
        name,
        blockedBy: [],
        blockFactor: 1,
      })
    }
  })

  test('no top fix of any archetype has an estimated gain of 0', () => {
    for (const [name, scanned] of reports) {
      for (const fix of scanned.topFixes)
        expect({ name, id: fix.id, positive: fix.estScoreGain > 0 }).toEqual({ name, id: fix.id, positive: true })
      const bonus = scanned.topFixes.findIndex((fix) => fix.bonus)
      if (bonus >= 0) expect(scanned.topFixes.slice(bonus).every((fix) => fix.bonus)).toBe(true)
    }
  })

  test('a site with no MCP server loses no points for not advertising one', () => {
    for (const name of ['documentation', 'blog', 'store', 'api-company', 'placeholder']) {
      const results = rows(name)
      expect(results.find((check) => check.id === 'mcp-endpoint-advertised')!.status).toBe('fail')
      const without = score(
        engine.registry,
        results.filter((check) => check.id !== 'mcp-endpoint-advertised'),
      )
      expect({ name, score: report(name).score }).toEqual({ name, score: without.score })
      expect(report(name).topFixes.find((fix) => fix.id === 'mcp-endpoint-advertised')?.bonus ?? true).toBe(true)
    }
  })
})

describe('one set of numbers', () => {
  test("every top fix's estimated gain is what re-checking that fix alone adds, within a point", () => {
    for (const [name, scanned] of reports) {
      const results = rows(name)
      for (const fix of scanned.topFixes) {
        const fixed = results
          .filter((check) => check.id === fix.id && check.mcpUrl === fix.mcpUrl)
          .map((check) => ({ ...check, status: 'pass' as const, score: check.maxScore, fraction: 1 }))
        const added = rescore(scanned, { kind: 'results', results: fixed }, engine.registry).score - scanned.score
        expect(
          { name, id: fix.id, off: Math.abs(added - fix.estScoreGain) <= 1 },
          `re-check adds ${added}, estimated ${fix.estScoreGain}`,
        ).toEqual({ name, id: fix.id, off: true })
      }
    }
  })

  test("the layers' 0-100 points add up to the score, and their maxPoints to 100", () => {
    for (const [name, scanned] of reports) {
      const applicable = scanned.layers.filter((layer) => layer.applicable)
      const maxPoints = applicable.reduce((sum, layer) => sum + layer.maxPoints!, 0)
      const points = scanned.layers.reduce((sum, layer) => sum + layer.points!, 0)
      expect({ name, maxPoints: Math.round(maxPoints) }).toEqual({ name, maxPoints: 100 })
      expect({ name, score: Math.round(points * scanned.blockFactor!) }).toEqual({ name, score: scanned.score })
      for (const layer of scanned.layers) {
        // Within-layer points and 0-100 points are two readings of the same fraction.
        if (layer.applicable) expect(layer.points! / layer.maxPoints!).toBeCloseTo(layer.score / layer.maxScore, 1)
      }
    }
  })

  test('a layer with nothing applicable says so: maxScore 0, no points, applicable false', () => {
    const payments = report('blog').layers.find((layer) => layer.id === 'payments')!
    expect(payments).toMatchObject({ applicable: false, maxScore: 0, maxPoints: 0, points: 0, weight: 15 })
    expect(payments.checks.every((check) => check.status === 'na' && check.naReason)).toBe(true)
  })

  test('"required check fails, so agents are held back" is said only over a required fail, never over warnings', () => {
    for (const [name, scanned] of reports) {
      const model = buildReportModel(scanned)
      const requiredFail = rows(name).some((check) => check.tier === 'required' && check.status === 'fail')
      expect({ name, heldBack: model.verdict.includes('held back') }).toEqual({
        name,
        heldBack: requiredFail && model.blocking.length === 0,
      })
    }
    // The reference MCP server's gaps are warnings of required checks (no additionalProperties: false on tools that take no arguments).
    const reference = rows(REFERENCE_MCP)
    expect(reference.some((check) => check.tier === 'required' && check.status === 'warning')).toBe(true)
    expect(
      reference.filter((check) => check.tier === 'required' && check.status === 'fail').map((check) => check.id),
    ).toEqual([])
    expect(buildReportModel(report(REFERENCE_MCP)).verdict).toContain('no required check fails')
  })

  test('no check shows its full points with a warning or a fail', () => {
    for (const [name, scanned] of reports) {
      const full = scanned.layers
        .flatMap((layer) => layer.checks)
        .filter((check) => check.status !== 'pass' && check.score > 0 && check.score >= check.maxScore)
      expect({ name, full: full.map((check) => check.id) }).toEqual({ name, full: [] })
    }
  })
})
