import type { IntentMeta, JourneyEvidence, JourneyLayer, TrajectoryStep, Verdict } from './types.ts'

export type ObservationKind =
  | 'challenge'
  | 'robots_disallowed'
  | 'dead_end'
  | 'http_4xx'
  | 'off_site'
  | 'js_only'
  | 'no_machine_readable'

export interface Observation {
  kind: ObservationKind
  message: string
  step_ids: string[]
}

export interface LayerInsight {
  layer: JourneyLayer
  /** `reached`: the intent's evidence is in this layer; `blocked`: a challenge or robots.txt stopped the agent. */
  outcome: 'reached' | 'not_reached' | 'blocked'
  step_ids: string[]
}

export interface Insight {
  summary: string
  observations: Observation[]
  journey_layers: LayerInsight[]
  /**
   * Failed and blocked runs: catalog check ids (GET /api/checks) whose fixes would have helped, what stopped the
   * agent first (a challenge, robots.txt), then what the task needs. Empty on success.
   */
  related_checks: string[]
}

/** The checks that cover what an observation shows. */
const OBSERVATION_CHECKS: Partial<Record<ObservationKind, readonly string[]>> = {
  challenge: ['bot-challenge-free', 'web-bot-auth-accepted'],
  robots_disallowed: ['robots-ai-agents-allowed'],
  js_only: ['content-without-js'],
  no_machine_readable: ['llms-txt', 'markdown-negotiation'],
}

/** Every check id either list names, observations first, without repeats. */
export function relatedChecks(meta: Pick<IntentMeta, 'relatedChecks'>, observations: readonly Observation[]): string[] {
  return [
    ...new Set([
      ...observations.flatMap((observation) => OBSERVATION_CHECKS[observation.kind] ?? []),
      ...meta.relatedChecks,
    ]),
  ]
}

export interface RunSignals {
  steps: number
  tool_steps: number
  /** Share of fetches on the run's own host (www. and subdomains count as on-site). */
  on_site_ratio: number
  http_4xx: number
  /** How hard the site made it: `none`, `low` (a detour or two), `high` (many dead ends), `blocked`. */
  friction: 'none' | 'low' | 'high' | 'blocked'
}

const ids = (steps: readonly TrajectoryStep[]) => steps.map((step) => step.id)

/** Whether a host belongs to the run's domain: itself, www., or a subdomain. */
export function onSite(host: string, domain: string): boolean {
  const bare = domain.replace(/^www\./, '')
  const name = host.replace(/:\d+$/, '')
  return name === bare || name.endsWith(`.${bare}`)
}

/** What a person reading the run should notice, derived from the trajectory and evidence only (pure). */
export function buildInsight(
  meta: IntentMeta,
  verdict: Verdict,
  steps: readonly TrajectoryStep[],
  evidence: JourneyEvidence,
): Insight {
  const tools = steps.filter((step) => step.type === 'tool')
  const observations: Observation[] = []
  const add = (kind: ObservationKind, message: string, found: readonly TrajectoryStep[]) => {
    if (found.length > 0) observations.push({ kind, message, step_ids: ids(found) })
  }
  const challenged = new Set(evidence.pages.filter((page) => page.challenged).map((page) => page.stepId))
  add(
    'challenge',
    'A bot challenge or an edge refusal answered instead of the content',
    tools.filter((step) => challenged.has(step.id)),
  )
  add(
    'robots_disallowed',
    'robots.txt forbids these URLs to agents',
    tools.filter((step) => step.status === 'blocked' && !challenged.has(step.id)),
  )
  add(
    'dead_end',
    'Fetches that led nowhere (failed or 5xx)',
    tools.filter((step) => step.status === 'error' || ((step.http_status ?? 0) >= 500 && !challenged.has(step.id))),
  )
  add(
    'http_4xx',
    'Client errors on the way (links or well-known locations that do not exist)',
    tools.filter(
      (step) =>
        step.http_status !== undefined && step.http_status >= 400 && step.http_status < 500 && !challenged.has(step.id),
    ),
  )
  add(
    'off_site',
    'Hops off the site',
    tools.filter((step) => step.url_host !== undefined && !onSite(step.url_host, evidence.domain)),
  )
  const jsOnly = new Set(
    evidence.pages.filter((page) => page.jsOnly && page.fetchMethod === 'http').map((page) => page.stepId),
  )
  add(
    'js_only',
    'Pages whose content needs JavaScript (an agent without a browser sees an empty shell)',
    tools.filter((step) => jsOnly.has(step.id)),
  )
  const machineReadable = evidence.pages.some(
    (page) =>
      page.status < 300 &&
      !page.challenged &&
      (page.json !== null || /markdown/.test(page.contentType) || /\.md$|llms\.txt$/.test(page.url)),
  )
  if (!machineReadable && tools.length > 0) {
    observations.push({
      kind: 'no_machine_readable',
      message: 'No machine-readable alternative (Markdown, llms.txt, JSON) was found',
      step_ids: [],
    })
  }
  const journey_layers = meta.layers.map(
    (layer): LayerInsight => ({
      layer,
      outcome: verdict.outcome === 'success' ? 'reached' : verdict.outcome === 'blocked' ? 'blocked' : 'not_reached',
      step_ids:
        verdict.outcome === 'success'
          ? verdict.evidence_step_ids
          : verdict.outcome === 'blocked'
            ? ids(tools.filter((step) => step.status === 'blocked'))
            : [],
    }),
  )
  const summary =
    verdict.outcome === 'success'
      ? `${meta.title}: done in ${tools.length} tool call${tools.length === 1 ? '' : 's'}. ${verdict.reason}`
      : verdict.outcome === 'blocked'
        ? `${meta.title}: blocked. ${verdict.reason}`
        : `${meta.title}: not done after ${tools.length} tool call${tools.length === 1 ? '' : 's'}. ${verdict.reason}`
  return {
    summary,
    observations,
    journey_layers,
    related_checks: verdict.outcome === 'success' ? [] : relatedChecks(meta, observations),
  }
}

export function runSignals(verdict: Verdict, steps: readonly TrajectoryStep[], evidence: JourneyEvidence): RunSignals {
  const tools = steps.filter((step) => step.type === 'tool')
  const fetches = tools.filter((step) => step.url_host !== undefined)
  const onSiteCount = fetches.filter((step) => onSite(step.url_host!, evidence.domain)).length
  const challenged = new Set(evidence.pages.filter((page) => page.challenged).map((page) => page.stepId))
  const http4xx = tools.filter(
    (step) =>
      step.http_status !== undefined && step.http_status >= 400 && step.http_status < 500 && !challenged.has(step.id),
  ).length
  const failures = tools.filter((step) => step.status !== 'ok' || (step.http_status ?? 200) >= 400).length
  return {
    steps: steps.length,
    tool_steps: tools.length,
    on_site_ratio: fetches.length === 0 ? 1 : Math.round((onSiteCount / fetches.length) * 1000) / 1000,
    http_4xx: http4xx,
    friction: verdict.outcome === 'blocked' ? 'blocked' : failures === 0 ? 'none' : failures <= 2 ? 'low' : 'high',
  }
}
