// Every curated intent against the fixture world, with the real deterministic agent over loopback: each must be
// done where the site offers what it asks for (citing the page that shows it) and not done where it does not, so a
// judge that is too lax or an intent the agent cannot reach shows up here.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { basename, join } from 'node:path'
import { loadConfig } from '../../core/config.ts'
import { createEngine } from '../../app/engine.ts'
import { type FixtureSite, resolveRules, type SiteName, startFixtureSites } from '../../tests/fixtures/sites/server.ts'
import deterministic from '../agents/deterministic.ts'
import { intentPrompt, JOURNEY_LAYERS } from '../types.ts'
import { runJourney } from '../runner.ts'
import { INTENTS, intentById } from './index.ts'

interface Row {
  /** Sites where the agent gets it done, with the paths of the pages the verdict must cite. */
  success: Partial<Record<SiteName, string[]>>
  /** Sites that do not offer it: the verdict must be `failure`, citing nothing. */
  failure: SiteName[]
}

const TABLE: Record<string, Row> = {
  // spa and poor are app shells; these runs have no browser to render them (with one, spa would be described).
  'evaluate-product': { success: { excellent: ['/'], blog: ['/'] }, failure: ['spa', 'poor'] },
  'find-pricing': { success: { excellent: ['/pricing'], store: ['/pages/pricing'] }, failure: ['blog', 'docs'] },
  'find-support': { success: { blog: ['/about'], excellent: ['/'] }, failure: ['docs', 'poor'] },
  'find-terms': { success: { excellent: ['/legal'] }, failure: ['blog', 'poor'] },
  // The docs site's "Command reference" documents a CLI, not an HTTP API.
  // Both sites point at their OpenAPI description (Link header, service-desc), which the agent reads before the HTML docs.
  'find-api-reference': {
    success: { excellent: ['/openapi.json'], 'api-company': ['/openapi.yaml'] },
    failure: ['docs', 'blog'],
  },
  'find-openapi': {
    success: { excellent: ['/openapi.json'], 'api-company': ['/openapi.yaml'] },
    failure: ['docs', 'poor'],
  },
  'read-docs-markdown': {
    success: { docs: ['/getting-started.md'], excellent: ['/docs.md'] },
    failure: ['api-company', 'blog'],
  },
  // blog's robots.txt has a `*` group only, and it publishes nothing else for agents. robots.txt rules for AI agents
  // say what agents may do, not where to start: the agent goes on to excellent's MCP server card, which leads.
  'find-agent-access': {
    success: { excellent: ['/.well-known/mcp/server-card.json', '/robots.txt'], docs: ['/llms.txt'] },
    failure: ['blog', 'store'],
  },
  // Protected resource metadata names the authorization server; the agent goes on to its metadata for the token endpoint.
  authenticate: {
    success: {
      excellent: ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource'],
      'api-company': ['/.well-known/openid-configuration', '/.well-known/oauth-protected-resource'],
    },
    failure: ['blog', 'docs'],
  },
  transact: {
    success: { excellent: ['/.well-known/acp.json'], store: ['/.well-known/acp.json'] },
    failure: ['blog', 'api-company'],
  },
}

const INTENTS_DIR = import.meta.dir
let sites: FixtureSite[] = []
let deps: ReturnType<typeof createEngine>

beforeAll(async () => {
  sites = await startFixtureSites()
  deps = createEngine(
    loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', SCANNER_RESOLVE: resolveRules(sites), LOG_LEVEL: 'silent' }),
    { browser: null },
  )
})
afterAll(() => Promise.all(sites.map((site) => site.stop())))

function journey(intentId: string, name: SiteName) {
  const intent = intentById(intentId)!
  const host = sites.find((site) => site.name === name)!.host
  return runJourney({ agent: deterministic, intent, prompt: intentPrompt(intent.meta, host), domain: host, deps })
}

describe('curated intents against the fixture sites (deterministic agent)', () => {
  test('every intent has a row with a site where it gets done and one where it does not', () => {
    expect(Object.keys(TABLE).sort()).toEqual(INTENTS.map((intent) => intent.meta.id).sort())
    for (const row of Object.values(TABLE)) {
      expect(Object.keys(row.success).length).toBeGreaterThan(0)
      expect(row.failure.length).toBeGreaterThan(0)
    }
  })

  const successes = Object.entries(TABLE).flatMap(([id, row]) =>
    Object.entries(row.success).map(([site, paths]) => [id, site as SiteName, paths!] as const),
  )
  test.each(successes)('%s: done on %s, citing %p', async (id, name, paths) => {
    const outcome = await journey(id, name)
    expect(outcome.verdict.outcome).toBe('success')
    const cited = outcome.verdict.evidence_step_ids.map((stepId) => outcome.steps.find((step) => step.id === stepId))
    expect(cited.map((step) => step?.url)).toEqual(paths.map((path) => `https://${name}.test${path}`))
    // The cited steps are fetches the agent made, each of which found the page.
    for (const step of cited) expect(step).toMatchObject({ type: 'tool', status: 'ok', completed: true })
    expect(outcome.insight.journey_layers.every((layer) => layer.outcome === 'reached')).toBe(true)
  })

  const failures = Object.entries(TABLE).flatMap(([id, row]) => row.failure.map((site) => [id, site] as const))
  test.each(failures)('%s: not done on %s', async (id, name) => {
    const outcome = await journey(id, name)
    expect(outcome.verdict).toMatchObject({ outcome: 'failure', evidence_step_ids: [] })
    expect(outcome.steps.filter((step) => step.type === 'tool').length).toBeGreaterThan(1)
  })

  test.each(INTENTS.map((intent) => intent.meta.id))(
    '%s: blocked by the bot challenge, and the insight says so',
    async (id) => {
      const outcome = await journey(id, 'bot-challenged')
      expect(outcome.verdict.outcome).toBe('blocked')
      const challenge = outcome.insight.observations.find((observation) => observation.kind === 'challenge')
      expect(challenge?.step_ids.length).toBeGreaterThan(0)
      expect(challenge!.step_ids).toContain(
        outcome.steps.find((step) => step.url === 'https://bot-challenged.test/')!.id,
      )
    },
  )
})

describe('intent registration', () => {
  /** Intent files on disk: everything but the registry and the tests. */
  const files = [...new Bun.Glob('*.ts').scanSync({ cwd: INTENTS_DIR })]
    .filter((file) => file !== 'index.ts' && !file.endsWith('.test.ts'))
    .sort()

  test('every file under journeys/intents/ is registered in INTENTS, once, as the id of its file name', () => {
    const ids = INTENTS.map((intent) => intent.meta.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(files.map((file) => basename(file, '.ts')))
  })

  test('each registered intent is the default export of its file', async () => {
    for (const intent of INTENTS) {
      const module = (await import(join(INTENTS_DIR, `${intent.meta.id}.ts`))) as { default: unknown }
      expect({ id: intent.meta.id, same: module.default === intent }).toEqual({ id: intent.meta.id, same: true })
    }
  })

  test.each(INTENTS.map((intent) => [intent.meta.id, intent.meta] as const))('%s: meta is well-formed', (_id, meta) => {
    expect(meta.title.length).toBeGreaterThan(0)
    expect(meta.prompt).toContain('{domain}')
    expect(meta.layers.length).toBeGreaterThan(0)
    for (const layer of meta.layers) expect(JOURNEY_LAYERS).toContain(layer)
    // The agent lower-cases what it matches keywords against.
    for (const keyword of meta.keywords) expect(keyword).toBe(keyword.toLowerCase())
    for (const path of meta.paths) expect(path).toMatch(/^\/\S*$/)
  })
})
