/**
 * How far the score predicts what agents get done. Scans every site of the fixture world (static phase, no browser),
 * runs every journey intent on each with the built-in agent and with each AI-assistant identity, and prints, as
 * Markdown ready for the README and bench/RESULTS.md:
 *   - per site: score, grade, intents completed per identity, tool steps and KB fetched per completed run;
 *   - Spearman's ρ between score and success rate per identity, with a seeded percentile-bootstrap 95% interval;
 *   - per check: the success rate of sites that pass it minus that of sites that do not;
 *   - per intent: whether the checks the service ties to the intent (its relatedChecks) predict its outcome;
 *   - variants of one site that differ in a single property: the change in score beside the change in success,
 *     steps and bytes.
 * Journeys run without a browser too: the built-in agent then reads pages as a fetch-based assistant does (most of
 * them do), the same pages the static scan reads. Runs are sequential so each run's bytes are counted alone.
 * Prints figures; asserts nothing.
 *
 *   bun bench/validity.ts [--seed 27] [--resamples 2000]
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../core/config.ts'
import { createEngine } from '../app/engine.ts'
import { ScanError } from '../core/engine/scan-error.ts'
import { scanUrl } from '../tests/support/scan.ts'
import type { CheckResult } from '../core/engine/scoring.ts'
import { availableAgents, BROWSER_AGENT } from '../journeys/agents/index.ts'
import { ASSISTANT_IDENTITIES } from '../journeys/identities.ts'
import { INTENTS } from '../journeys/intents/index.ts'
import { runJourney } from '../journeys/runner.ts'
import { type AgentDefinition, intentPrompt } from '../journeys/types.ts'
import { startLabelledSites } from '../tests/fixtures/sites/labelled/server.ts'
import {
  type FixtureSite,
  resolveRules,
  SITE_NAMES,
  type SiteHandler,
  startFixtureSite,
} from '../tests/fixtures/sites/server.ts'
import {
  startVariantSite,
  VARIANT_BASE,
  variantHost,
  VARIANT_NAMES,
  VARIANTS,
  type VariantName,
} from '../tests/fixtures/sites/variants.ts'
import { bootstrapInterval, mean, spearman } from './stats.ts'

const { values } = parseArgs({
  options: { seed: { type: 'string', default: '27' }, resamples: { type: 'string', default: '2000' } },
})
const SEED = Number(values.seed)
const RESAMPLES = Number(values.resamples)

/** Statuses that judged the site; na, error and pending say nothing about it. */
const JUDGED = new Set(['pass', 'warn', 'fail'])

interface Run {
  intent: string
  success: boolean
  steps: number
  bytes: number
}

interface Measured {
  site: string
  score: number
  grade: string
  checks: Map<string, CheckResult>
  /** Runs by agent id. */
  runs: Map<string, Run[]>
}

/** Counts the body bytes a site serves, so a run's cost is read off between its start and its end. */
class ByteCounter {
  bytes = 0
  readonly wrap =
    (handler: SiteHandler): SiteHandler =>
    async (request) => {
      const response = await handler(request)
      if (response.body === null) return response
      const body = await response.arrayBuffer()
      this.bytes += body.byteLength
      const headers = new Headers(response.headers)
      headers.delete('content-length')
      return new Response(body, { status: response.status, statusText: response.statusText, headers })
    }
}

/** A site of the world as the bench reaches it. */
interface WorldSite {
  name: string
  host: string
}

const counters = new Map<string, ByteCounter>()
const countedAt = (host: string) => {
  const counter = new ByteCounter()
  counters.set(host, counter)
  return counter.wrap
}

const fixtures: FixtureSite[] = []
for (const name of SITE_NAMES) fixtures.push(await startFixtureSite(name, { wrap: countedAt(`${name}.test`) }))
const labelled = startLabelledSites({ wrap: (host, handler) => countedAt(host)(handler) })
const variantSites = new Map<VariantName, FixtureSite>()
for (const variant of VARIANT_NAMES)
  variantSites.set(variant, await startVariantSite(variant, { wrap: countedAt(variantHost(variant)) }))
const worldSites: WorldSite[] = [...fixtures, ...Object.values(labelled.sites)]

const resolve = [resolveRules([...fixtures, ...variantSites.values()]), ...labelled.resolveRules].join(',')
const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent', SCANNER_RESOLVE: resolve })
const deps = createEngine(config, { browser: null })
const assistantIds = ASSISTANT_IDENTITIES.map((identity) => identity.id.toLowerCase())
/** The identities under study: our own agent and each AI assistant. */
const agents: AgentDefinition[] = availableAgents(config).filter(
  (agent) => agent.meta.id === 'deterministic' || assistantIds.includes(agent.meta.id),
)
const agentLabel = (id: string) =>
  id === 'deterministic'
    ? 'built-in'
    : id === BROWSER_AGENT.meta.id
      ? 'browser'
      : ASSISTANT_IDENTITIES.find((identity) => identity.id.toLowerCase() === id)!.id
/** Plus a browser's walk: what the site offers anyone, the baseline the assistants' share is read against. */
const walkers = [...agents, BROWSER_AGENT]

async function measure(site: WorldSite, label: string): Promise<Measured> {
  const report = await scanUrl(site.host, deps, { phase: 'static' })
  const checks = new Map(report.layers.flatMap((layer) => layer.checks).map((check) => [check.id, check]))
  const counter = counters.get(site.host)!
  const runs = new Map<string, Run[]>()
  for (const agent of walkers) {
    const list: Run[] = []
    for (const intent of INTENTS) {
      const before = counter.bytes
      const outcome = await runJourney({
        agent,
        intent,
        prompt: intentPrompt(intent.meta, site.host),
        domain: site.host,
        deps,
      })
      list.push({
        intent: intent.meta.id,
        success: outcome.verdict.outcome === 'success',
        steps: outcome.steps.filter((step) => step.type === 'tool').length,
        bytes: counter.bytes - before,
      })
    }
    runs.set(agent.meta.id, list)
  }
  return { site: label, score: report.score, grade: report.grade, checks, runs }
}

const began = performance.now()
const world: Measured[] = []
/** Sites that could not be scanned (a fixture that answers nothing a scan can start from): named, left out. */
const unscanned: string[] = []
for (const site of worldSites) {
  try {
    world.push(await measure(site, site.name))
  } catch (error) {
    if (!(error instanceof ScanError)) throw error
    unscanned.push(`${site.name} (${error.message})`)
  }
}
const variants = new Map<VariantName, Measured>()
for (const [variant, site] of variantSites) variants.set(variant, await measure(site, variant))
const elapsed = (performance.now() - began) / 1000

const rate = (site: Measured, agentId: string) => mean(site.runs.get(agentId)!.map((run) => (run.success ? 1 : 0)))
/** The AI assistants' mean success rate: what a person asking any of them gets. */
const assistantRate = (site: Measured) => mean(assistantIds.map((id) => rate(site, id)))
const successes = (site: Measured) =>
  agents.flatMap((agent) => site.runs.get(agent.meta.id)!).filter((run) => run.success)
/** Of the intents a browser completes on the site, the share the AI assistants complete (null when a browser completes none). */
const offeredShare = (site: Measured): number | null => {
  const offered = new Set(
    site.runs
      .get(BROWSER_AGENT.meta.id)!
      .filter((run) => run.success)
      .map((run) => run.intent),
  )
  if (offered.size === 0) return null
  return mean(
    assistantIds.map(
      (id) => site.runs.get(id)!.filter((run) => run.success && offered.has(run.intent)).length / offered.size,
    ),
  )
}
const fixed = (value: number, digits = 2) => (Number.isNaN(value) ? 'n/a' : value.toFixed(digits))
const signed = (value: number, digits = 0) =>
  Number.isNaN(value) ? 'n/a' : `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(digits)}`
const kb = (bytes: number) => bytes / 1024
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`
const header = (cells: string[]) => `${row(cells)}\n${row(cells.map(() => '---'))}`

const lines: string[] = []
const print = (text = '') => lines.push(text)

print(
  `### The world: ${world.length} sites (${fixtures.length} fixture sites, ${world.length - fixtures.length} hand-labelled journey sites) × ${INTENTS.length} intents × ${walkers.length} identities`,
)
print()
print(
  header([
    'site',
    'score',
    'grade',
    ...walkers.map((agent) => agentLabel(agent.meta.id)),
    'steps to success',
    'KB to success',
  ]),
)
for (const site of world.toSorted((a, b) => b.score - a.score)) {
  const won = successes(site)
  print(
    row([
      site.site,
      site.score,
      site.grade,
      ...walkers.map(
        (agent) => `${site.runs.get(agent.meta.id)!.filter((run) => run.success).length}/${INTENTS.length}`,
      ),
      fixed(mean(won.map((run) => run.steps)), 1),
      fixed(kb(mean(won.map((run) => run.bytes))), 1),
    ]),
  )
}
print()
if (unscanned.length) print(`Not scannable, left out: ${unscanned.join('; ')}.\n`)

const correlation = (label: string, sites: readonly Measured[], rates: number[]) => {
  const scores = sites.map((site) => site.score)
  const interval = bootstrapInterval(scores, rates, spearman, { resamples: RESAMPLES, seed: SEED })
  return row([
    label,
    sites.length,
    fixed(spearman(scores, rates)),
    `${fixed(interval.low)} to ${fixed(interval.high)}`,
    `${interval.used}/${RESAMPLES}`,
  ])
}
print(
  `### Spearman's ρ between score and success rate (percentile bootstrap over sites, ${RESAMPLES} resamples, seed ${SEED})`,
)
print()
print(header(['identity', 'sites', 'ρ', '95% interval', 'defined resamples']))
for (const agent of agents)
  print(
    correlation(
      agentLabel(agent.meta.id),
      world,
      world.map((site) => rate(site, agent.meta.id)),
    ),
  )
print(correlation('AI assistants (mean)', world, world.map(assistantRate)))
const offering = world.filter((site) => offeredShare(site) !== null)
print(
  correlation(
    'AI assistants, share of what a browser completes',
    offering,
    offering.map((site) => offeredShare(site)!),
  ),
)
print()
print(
  'The last row divides out what a site offers at all (a documentation site sells nothing, so no agent finds its prices): it asks whether the score tracks what stops assistants, not how many tasks a site supports. Sites where a browser completes nothing drop out of it.',
)
print()

print('### Per check: AI-assistant success rate of sites that pass it minus that of sites that do not')
print()
print('Only checks that at least two sites pass and two do not (warn or fail); na and errors are left out.')
print()
print(header(['check', 'pass', 'not pass', 'success if pass', 'success if not', 'difference']))
const checkIds = [...new Set(world.flatMap((site) => [...site.checks.keys()]))]
const perCheck = checkIds.flatMap((id) => {
  const judged = world.filter((site) => JUDGED.has(site.checks.get(id)?.status ?? 'na'))
  const passing = judged.filter((site) => site.checks.get(id)!.status === 'pass')
  const failing = judged.filter((site) => site.checks.get(id)!.status !== 'pass')
  if (passing.length < 2 || failing.length < 2) return []
  const pass = mean(passing.map(assistantRate))
  const fail = mean(failing.map(assistantRate))
  return [{ id, passing: passing.length, failing: failing.length, pass, fail, difference: pass - fail }]
})
for (const check of perCheck.toSorted((a, b) => b.difference - a.difference || a.id.localeCompare(b.id))) {
  print(
    row([check.id, check.passing, check.failing, fixed(check.pass), fixed(check.fail), signed(check.difference * 100)]),
  )
}
print()

print('### Per intent: do the checks the service ties to it predict its outcome?')
print()
print(
  'Per site, the share of the intent\'s related checks that pass (of those judged) beside the share of identities that complete it. "Predicts" when ρ is positive and its interval excludes 0.',
)
print()
print(
  header([
    'intent',
    'related checks',
    'sites completing',
    'ρ (share passing, success)',
    '95% interval',
    'success if all pass',
    'success otherwise',
    'predicts',
  ]),
)
for (const intent of INTENTS) {
  const related = intent.meta.relatedChecks
  const shares = world.map((site) => {
    const judged = related.filter((id) => JUDGED.has(site.checks.get(id)?.status ?? 'na'))
    return judged.length === 0
      ? 0
      : judged.filter((id) => site.checks.get(id)!.status === 'pass').length / judged.length
  })
  const completion = world.map((site) =>
    mean(
      agents.map((agent) =>
        site.runs.get(agent.meta.id)!.find((run) => run.intent === intent.meta.id)!.success ? 1 : 0,
      ),
    ),
  )
  const rho = spearman(shares, completion)
  const interval = bootstrapInterval(shares, completion, spearman, { resamples: RESAMPLES, seed: SEED })
  const allPass = completion.filter((_, index) => shares[index] === 1)
  const others = completion.filter((_, index) => shares[index] !== 1)
  const predicts = Number.isNaN(rho) ? 'n/a' : rho > 0 && interval.low > 0 ? 'yes' : rho > 0 ? 'weakly' : 'no'
  print(
    row([
      intent.meta.id,
      related.join(', '),
      `${completion.filter((value) => value > 0).length}/${world.length}`,
      fixed(rho),
      `${fixed(interval.low)} to ${fixed(interval.high)}`,
      fixed(mean(allPass)),
      fixed(mean(others)),
      predicts,
    ]),
  )
}
print()

const base = world.find((site) => site.site === VARIANT_BASE)!
print(`### Variants of ${VARIANT_BASE} that differ in one property`)
print()
print(
  `The base scores ${base.score} (${base.grade}); built-in agent ${rate(base, 'deterministic') * INTENTS.length}/${INTENTS.length}, AI assistants ${fixed(assistantRate(base) * INTENTS.length, 1)}/${INTENTS.length} on average. Steps and KB compare the runs that succeed on both the base and the variant (same identity and intent).`,
)
print()
print(
  header([
    'property',
    'score',
    'Δ score',
    'grade',
    'Δ built-in success',
    'Δ assistants success',
    'Δ steps per success',
    'Δ KB per success',
  ]),
)
for (const [variant, measured] of variants) {
  const paired = agents.flatMap((agent) =>
    measured.runs.get(agent.meta.id)!.flatMap((run, index) => {
      const before = base.runs.get(agent.meta.id)![index]!
      return run.success && before.success ? [{ steps: run.steps - before.steps, bytes: run.bytes - before.bytes }] : []
    }),
  )
  print(
    row([
      VARIANTS[variant].property,
      measured.score,
      signed(measured.score - base.score),
      measured.grade,
      `${signed((rate(measured, 'deterministic') - rate(base, 'deterministic')) * INTENTS.length)}/${INTENTS.length}`,
      `${signed((assistantRate(measured) - assistantRate(base)) * INTENTS.length, 1)}/${INTENTS.length}`,
      signed(mean(paired.map((pair) => pair.steps)), 1),
      signed(kb(mean(paired.map((pair) => pair.bytes))), 1),
    ]),
  )
}
print()
const total = (world.length + variants.size) * walkers.length * INTENTS.length
print(
  `_${world.length + variants.size} static scans and ${total} journeys in ${elapsed.toFixed(0)} s (\`bun bench/validity.ts --seed ${SEED} --resamples ${RESAMPLES}\`)._`,
)

console.log(lines.join('\n'))
await Promise.all([...fixtures, ...variantSites.values()].map((site) => site.stop()))
await labelled.stop()
