// The README's "What a newcomer touches" (issue 31): each path it gives for a check, a route and an intent names
// files that exist, and following it for real needs no edit anywhere else. A throwaway check and intent are written
// as files the way a contributor writes them, registered beside the repository's own, and taken through the catalog,
// a scan of the excellent fixture site with its expectations, and the CLI's help; a throwaway feature joins the
// feature list and answers its route.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Elysia } from 'elysia'
import { journeyUsage, registeredJourneyUsage } from '../app/cli/journey.ts'
import { SCAN_USAGE } from '../app/cli/scan.ts'
import { FEATURES } from '../app/feature-list.ts'
import { REGISTERED_CHECKS } from '../checks/index.ts'
import type { Config } from '../core/config.ts'
import { buildCatalog } from '../core/engine/catalog.ts'
import type { CheckDefinition } from '../core/engine/check.ts'
import { buildEngine, type Engine } from '../core/engine/engine.ts'
import type { RegisteredCheck } from '../core/engine/registry.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { checkFeatures, composeFeatures, defineFeature } from '../core/feature.ts'
import { KERNEL_PIECES } from '../core/kernel.ts'
import deterministic from '../journeys/agents/deterministic.ts'
import { ASSISTANT_AGENTS } from '../journeys/agents/assistants.ts'
import { INTENTS } from '../journeys/intents/index.ts'
import { runJourney } from '../journeys/runner.ts'
import { type IntentDefinition, intentPrompt } from '../journeys/types.ts'
import { erroredChecks, expectationsFor, verdictMismatches } from './fixtures/sites/expected.ts'
import { type FixtureSite, startFixtureSite } from './fixtures/sites/server.ts'
import { testConfig } from './helpers.ts'

const ROOT = join(import.meta.dir, '..')
const README = await Bun.file(join(ROOT, 'README.md')).text()

/** The README's section, from its heading to the next one. */
function newcomerSection(): string {
  const start = README.indexOf('### What a newcomer touches\n')
  expect(start).toBeGreaterThan(0)
  const end = README.indexOf('\n#', start + 1)
  return README.slice(start, end)
}

/** One recipe of the section: from its bold label to the next label (or the section's end). */
function recipe(label: string): string {
  const section = newcomerSection()
  const start = section.indexOf(`**${label}**`)
  expect(start).toBeGreaterThan(0)
  const next = section.indexOf('\n**', start + 1)
  return section.slice(start, next < 0 ? undefined : next)
}

/** The repository files a text names in backticks (`checks/index.ts`, `CHANGELOG.md`), placeholders filled in. */
function filesNamed(text: string, placeholders: Record<string, string>): string[] {
  const named = [...text.matchAll(/`([\w.<>/-]+\.(?:ts|md|json))`/g)].map((match) => match[1]!)
  return named.map((path) =>
    Object.entries(placeholders).reduce((filled, [name, value]) => filled.replaceAll(`<${name}>`, value), path),
  )
}

const missing = (paths: string[]) => paths.filter((path) => !existsSync(join(ROOT, path)))

describe("the README's paths name files that exist", () => {
  test('a check', () => {
    const files = filesNamed(recipe('A check'), { kind: 'domain', id: 'llms-txt' })
    expect(files).toEqual(
      expect.arrayContaining(['checks/domain/llms-txt.ts', 'checks/domain/llms-txt.test.ts', 'checks/index.ts']),
    )
    expect(missing(files)).toEqual([])
  })

  test('a route, and a feature', () => {
    const files = filesNamed(recipe('A route'), { name: 'journey' })
    expect(files).toEqual(expect.arrayContaining(['plugins/journey/index.ts', 'app/feature-list.ts']))
    expect(missing(files)).toEqual([])
  })

  test('an intent', () => {
    const files = filesNamed(recipe('An intent'), { id: 'find-pricing' })
    expect(files).toEqual(expect.arrayContaining(['journeys/intents/find-pricing.ts', 'journeys/intents/index.ts']))
    expect(missing(files)).toEqual([])
  })

  test('the README names no path of the layout before the kernel redesign', () => {
    const stale = ['core/cli.ts', 'core/features.ts', 'core/engine-deps.ts', 'core/scan-errors.ts', 'plugins/checks/']
    expect(stale.filter((path) => README.includes(path))).toEqual([])
  })
})

/** A module written to a scratch folder the way a contributor writes one under checks/ or journeys/intents/. */
let scratch: string
async function writeModule(path: string, source: string): Promise<unknown> {
  const file = join(scratch, path)
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, source)
  return ((await import(file)) as { default: unknown }).default
}

const PROBE_ID = 'newcomer-probe'
const PROBE_INTENT_ID = 'find-sitemap'

let site: FixtureSite
let config: Readonly<Config>
let probe: RegisteredCheck
let intent: IntentDefinition

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ar-newcomer-'))
  site = await startFixtureSite('excellent')
  config = testConfig({ SCANNER_RESOLVE: site.resolveRule })
  // A check excellent.test was not built for and fails: it asks for a response header nobody sends.
  const definition = await writeModule(
    `checks/domain/${PROBE_ID}.ts`,
    `import { defineCheck, fail, pass } from '${ROOT}/core/engine/check.ts'

export default defineCheck({
  meta: {
    id: '${PROBE_ID}',
    name: 'Newcomer probe header',
    description: 'The homepage sends an X-Newcomer-Probe header (a check written by tests/newcomer-paths.test.ts).',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    maxScore: 1,
    needs: ['homepage'],
  },
  run({ homepage }) {
    return homepage.headers['x-newcomer-probe'] ? pass('The header is sent') : fail('No X-Newcomer-Probe header')
  },
})
`,
  )
  probe = { file: `domain/${PROBE_ID}`, definition: definition as CheckDefinition }
  intent = (await writeModule(
    `journeys/intents/${PROBE_INTENT_ID}.ts`,
    `import { defineIntent } from '${ROOT}/journeys/types.ts'
import { answerFrom, completedPages, judgement, pathOf } from '${ROOT}/journeys/judging.ts'

export default defineIntent({
  meta: {
    id: '${PROBE_INTENT_ID}',
    title: 'Find the sitemap',
    prompt: 'Find the sitemap of {domain}.',
    layers: ['discovery'],
    keywords: ['sitemap'],
    paths: ['/sitemap.xml'],
    relatedChecks: ['sitemap-xml'],
  },
  judge(_trajectory, evidence) {
    return judgement(
      completedPages(evidence).filter((page) => pathOf(page) === '/sitemap.xml'),
      (page) => \`\${page.finalUrl} is the sitemap.\`,
      'No sitemap the agent could read.',
      (found) => answerFrom(found[0]!, 'The sitemap.'),
    )
  },
})
`,
  )) as IntentDefinition
})
afterAll(async () => {
  await site.stop()
  rmSync(scratch, { recursive: true, force: true })
})

describe('a check: one file, one line in the registry, nothing else', () => {
  let engine: Engine
  let report: ScanReport
  beforeAll(async () => {
    engine = buildEngine(config, [...REGISTERED_CHECKS, probe], { browser: null })
    report = await scanUrl(site.host, engine, { phase: 'static' })
  }, 60_000)

  test('the catalog publishes it from its metadata, after the checks that were there', () => {
    const catalog = buildCatalog(engine.registry, { essentials: false })
    expect(catalog.checks.map((check) => check.id)).toEqual([
      ...REGISTERED_CHECKS.map((check) => check.definition.meta.id),
      PROBE_ID,
    ])
    expect(catalog.checks.at(-1)).toMatchObject({ id: PROBE_ID, layer: 'discovery', appliesTo: ['domain'] })
  })

  test('a scan runs it, and the excellent site meets its expectations with it registered', () => {
    const row = report.layers.flatMap((layer) => layer.checks).find((check) => check.id === PROBE_ID)
    expect(row).toMatchObject({ status: 'fail', details: 'No X-Newcomer-Probe header' })
    // The expectations as they stand for the registry with the probe: nothing there requires it to pass.
    const expectations = expectationsFor([...REGISTERED_CHECKS, probe])
    expect(expectations.excellent.checks[PROBE_ID]).toBeUndefined()
    expect(verdictMismatches(report, expectations.excellent, false)).toEqual([])
    expect(erroredChecks(report, false)).toEqual([])
  })

  test('the CLI help names no check, so it has nothing to list', () => {
    const ids = REGISTERED_CHECKS.map((check) => check.definition.meta.id)
    expect(ids.filter((id) => new RegExp(`\\b${id}\\b`).test(SCAN_USAGE))).toEqual([])
  })
})

describe('a route: a feature, and one line in the feature list', () => {
  const newcomerFeature = defineFeature<Pick<{ config: Readonly<Config> }, 'config'>>()({
    name: 'newcomer',
    needs: ['config'],
    provides: [],
    routes: ({ config }) => new Elysia().get('/api/newcomer', () => ({ contract: config.publicBaseUrl })),
  })

  test('the boot check accepts the list with it appended', () => {
    expect(() => checkFeatures(KERNEL_PIECES, [...FEATURES, newcomerFeature])).not.toThrow()
  })

  test('composed, it answers its route', async () => {
    const { routes } = composeFeatures({ config }, [newcomerFeature])
    const app = new Elysia().use(routes[0]!)
    const response = await app.handle(new Request('http://localhost/api/newcomer'))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ contract: config.publicBaseUrl })
  })
})

describe('an intent: one file, one line in the registry, and the journey help follows', () => {
  test('the help lists every intent of the registry, in its order, and a new one with no edit', async () => {
    const help = await registeredJourneyUsage()
    const listed = (usage: string, ids: readonly string[]) => ids.map((id) => usage.indexOf(id))
    const ids = INTENTS.map((each) => each.meta.id)
    const positions = listed(help, ids)
    expect(positions.every((position) => position > 0)).toBe(true)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
    for (const agent of ASSISTANT_AGENTS) expect(help).toContain(agent.meta.id)

    const withProbe = journeyUsage(
      [...ids, PROBE_INTENT_ID],
      ASSISTANT_AGENTS.map((agent) => agent.meta.id),
    )
    expect(withProbe).toContain(PROBE_INTENT_ID)
    for (const line of withProbe.split('\n')) expect(line.length).toBeLessThanOrEqual(100)
  })

  test('the deterministic agent runs it on the excellent site', async () => {
    const outcome = await runJourney({
      agent: deterministic,
      intent,
      prompt: intentPrompt(intent.meta, site.host),
      domain: site.host,
      deps: buildEngine(config, REGISTERED_CHECKS, { browser: null }),
    })
    expect(outcome.verdict.outcome).toBe('success')
    expect(outcome.agent_response).toContain(`https://${site.host}/sitemap.xml`)
  }, 60_000)
})
