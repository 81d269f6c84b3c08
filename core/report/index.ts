import { remedyFor, type Remedy } from './remedies.ts'

/**
 * The fix-first report model: one reading of a scan result that every surface renders (the /site/{domain} page,
 * its Markdown alternate, the CLI's text and markdown formats), so that they lead with the same verdict, the same
 * fixes in the same order and the same numbers.
 *
 *   const model = buildReportModel(report)          // a ScanReport, an audit shape or a CliReport
 *   model.verdict                                    // one line
 *   model.fixes                                      // top fixes: gain, the check, a copy-ready remedy (or null)
 *   model.issues                                     // the other fail / warning / error checks, by impact
 *   model.passed, model.notApplicable, model.pending // folded by the renderers; n/a grouped by its reason
 *   model.layers                                     // "12.5 / 30 points" or "Nothing applicable", never "0 / 0"
 *
 * Pure: no I/O, no clock, no HTTP. Renderers decide the markup; the order and the numbers are decided here.
 */

export type { Recipe, Remedy, RemedySite, Snippet, SnippetLanguage } from './remedies.ts'
export { remedyFor, REMEDIES } from './remedies.ts'

/** The check fields the model reads; the engine's CheckResult and the CLI's CliCheck both have them. */
export interface ReportCheckInput {
  id: string
  name: string
  status: string
  score: number
  maxScore: number
  details?: string
  recommendation?: string
  naReason?: string
  specUrl?: string
  mcpUrl?: string
  estScoreGain?: number
  /** required | recommended | emerging; absent on sources that do not carry it (nothing is then marked). */
  tier?: string
  bonus?: boolean
  /** verified | emerging: an emerging check is shown but never counted. */
  maturity?: string
  /** A beta check runs but cannot affect any score (catalog metadata; the CLI's rows carry it). */
  beta?: boolean
}

export interface ReportLayerInput {
  id: string
  name: string
  /** Null on a partial CLI run (`--only`). */
  score: number | null
  maxScore: number | null
  /** The engine's reading (contract 1.28.0); absent on older stored results, where maxScore > 0 decides. */
  applicable?: boolean
  /** The layer on the overall 0-100 scale: what it earned and what it can carry (absent on older results). */
  points?: number
  maxPoints?: number
  /** The catalog weight out of 100, before layers that do not apply hand theirs to the others. */
  weight?: number
  checks: ReportCheckInput[]
}

export interface ReportFixInput {
  id: string
  name?: string
  estScoreGain: number
  mcpUrl?: string
}

export interface ReportInput {
  domain: string
  /** The URL scanned (or fetched after redirects); remedies are written for its origin. */
  url?: string
  finalUrl?: string
  score: number | null
  grade: string | null
  analysisStatus?: string
  /** Ids of failing checks that stop agents outright (contract 1.28.0); they hold the whole score down. */
  blockedBy?: string[]
  layers: ReportLayerInput[]
  topFixes: ReportFixInput[]
}

export type CheckGroup = 'fix' | 'issue' | 'passed' | 'na' | 'pending'

export interface ReportCheck {
  id: string
  name: string
  status: string
  score: number
  maxScore: number
  layerId: string
  layerName: string
  /** A required-tier check: its failure is marked as such. */
  required: boolean
  /** A failing check that stops agents outright (the engine's blockedBy). */
  blocksAgents: boolean
  bonus: boolean
  /** The outcome's details; absent when they only repeat the n/a reason. */
  details?: string
  recommendation?: string
  /** Set on n/a checks only. */
  naReason?: string
  specUrl?: string
  mcpUrl?: string
  /** Estimated score gain of fixing this check (0 when none). */
  gain: number
  /** Unique within the report: `check-<id>`, `check-<id>-2` for the second MCP server of a fan-out, … */
  anchor: string
  group: CheckGroup
}

export interface ReportFix {
  rank: number
  gain: number
  check: ReportCheck
  remedy: Remedy | null
}

export interface NotApplicableGroup {
  /** Printed once for every check it covers. */
  reason: string
  checks: ReportCheck[]
}

export interface ReportLayer {
  id: string
  name: string
  score: number | null
  maxScore: number | null
  /** On the overall 0-100 scale (null on results stored before the engine reported it): the numbers that add up to the score. */
  points: number | null
  maxPoints: number | null
  /** The catalog weight out of 100 (null on older results). */
  weight: number | null
  /** Earned share 0..100, null when nothing in the layer was measured. */
  percent: number | null
  /** False when no check of the layer counted (all n/a, pending or errors): the layer says so instead of 0 / 0. */
  applicable: boolean
  /** "12.5 / 30 points" (or "36 / 44" on older results), "Nothing applicable" or "Not scored" (partial run). */
  label: string
  counts: { failing: number; passed: number; notApplicable: number }
}

export interface ReportModel {
  domain: string
  score: number | null
  grade: string | null
  /** One line: what the result means and what to do first. */
  verdict: string
  /** The failing checks that stop agents outright, first to fix. */
  blocking: ReportCheck[]
  partial: boolean
  fixes: ReportFix[]
  issues: ReportCheck[]
  passed: ReportCheck[]
  notApplicable: NotApplicableGroup[]
  pending: ReportCheck[]
  layers: ReportLayer[]
  /**
   * Why the layers' maximum points differ from their catalog weights, when they do: "Payments does not apply here,
   * so its 15 points are shared among the other layers." Null when every layer applies or weights are unknown.
   */
  layerNote: string | null
  /** Every check of the report, in catalog order, with its anchor and group (for re-check and lookups). */
  checks: ReportCheck[]
  counts: {
    fixes: number
    issues: number
    passed: number
    notApplicable: number
    pending: number
    requiredFailing: number
  }
}

const FAILING = new Set(['fail', 'warning', 'error'])
const STATUS_WEIGHT: Record<string, number> = { fail: 0, warning: 1, error: 2 }

/** Renders a gain as points: whole numbers stay whole, fractions keep one decimal. */
export const formatGain = (gain: number): string => (Number.isInteger(gain) ? String(gain) : gain.toFixed(1))

/** The site's origin for remedies: the URL scanned, else https://<domain>. */
function originOf(input: ReportInput): string {
  for (const candidate of [input.finalUrl, input.url]) {
    if (!candidate) continue
    try {
      return new URL(candidate).origin
    } catch {
      // not a URL (a CLI target as typed): fall through to the domain
    }
  }
  return `https://${input.domain}`
}

/**
 * A required-tier check that fails: the only case the report words as "required" (a warning on a required-tier check
 * is an improvement, and a "Required" mark beside it reads as a failure the verdict then denies).
 */
export const requiredCheckFails = (check: Pick<ReportCheck, 'required' | 'status'>): boolean =>
  check.required && check.status === 'fail'

/** Highest impact first: what stops agents, then the larger gain, then a required check, then fail before warning before error. */
function byImpact(a: ReportCheck, b: ReportCheck): number {
  return (
    Number(b.blocksAgents) - Number(a.blocksAgents) ||
    b.gain - a.gain ||
    Number(b.required) - Number(a.required) ||
    (STATUS_WEIGHT[a.status] ?? 3) - (STATUS_WEIGHT[b.status] ?? 3) ||
    a.id.localeCompare(b.id)
  )
}

function layerSummary(layer: ReportLayerInput, checks: ReportCheck[]): ReportLayer {
  const counted = checks.filter(
    (check) => check.status === 'pass' || check.status === 'warning' || check.status === 'fail',
  )
  const applicable = layer.applicable ?? (layer.maxScore !== null ? layer.maxScore > 0 : counted.length > 0)
  const onScale = layer.points !== undefined && layer.maxPoints !== undefined && layer.maxPoints > 0
  const percent = !applicable
    ? null
    : onScale
      ? Math.round((layer.points! / layer.maxPoints!) * 100)
      : layer.score !== null && layer.maxScore
        ? Math.round((layer.score / layer.maxScore) * 100)
        : null
  const label =
    layer.score === null || layer.maxScore === null
      ? 'Not scored'
      : !applicable
        ? 'Nothing applicable'
        : onScale
          ? `${formatGain(layer.points!)} / ${formatGain(layer.maxPoints!)} points`
          : `${layer.score} / ${layer.maxScore}`
  return {
    id: layer.id,
    name: layer.name,
    score: layer.score,
    maxScore: layer.maxScore,
    points: onScale ? layer.points! : null,
    maxPoints: onScale ? layer.maxPoints! : null,
    weight: layer.weight ?? null,
    percent,
    applicable,
    label,
    counts: {
      failing: checks.filter((check) => FAILING.has(check.status)).length,
      passed: checks.filter((check) => check.status === 'pass').length,
      notApplicable: checks.filter((check) => check.status === 'na').length,
    },
  }
}

function verdictFor(
  input: ReportInput,
  fixes: ReportFix[],
  blocking: ReportCheck[],
  requiredFailing: ReportCheck[],
  failingCount: number,
  extrasNotMet: number,
  pendingCount: number,
): string {
  const pending =
    pendingCount > 0 ? ` ${pendingCount} background check${pendingCount === 1 ? ' is' : 's are'} still running.` : ''
  if (input.score === null)
    return `Partial run: ${failingCount === 0 ? 'every check that ran passes' : `${failingCount} of the checks that ran need work`}.${pending}`
  const first = fixes[0]
  const lead = first ? `start with "${first.check.name}" (+${formatGain(first.gain)} points)` : ''
  if (failingCount === 0) {
    // Extras (bonus, emerging, beta) not met never lower the score: they are not "improvements that remain".
    const extras =
      extrasNotMet > 0
        ? ` (${extrasNotMet} extra${extrasNotMet === 1 ? '' : 's'} not met, which never lower${extrasNotMet === 1 ? 's' : ''} it)`
        : ''
    return `${input.score}/100 (${input.grade}): every applicable check passes${extras}.${pending}`
  }
  if (blocking.length > 0) {
    const named = blocking.map((check) => `"${check.name}"`).join(' and ')
    return `${input.score}/100 (${input.grade}): AI agents are stopped outright (${named} fails), which holds the whole score down; ${lead || 'fix that first'}.${pending}`
  }
  if (requiredFailing.length > 0) {
    const named =
      requiredFailing.length === 1
        ? `required check "${requiredFailing[0]!.name}" fails`
        : `${requiredFailing.length} required checks fail`
    return `${input.score}/100 (${input.grade}): ${named}, so agents are held back; ${lead || 'fix the required checks first'}.${pending}`
  }
  return `${input.score}/100 (${input.grade}): no required check fails; ${failingCount} improvement${failingCount === 1 ? '' : 's'} remain${failingCount === 1 ? 's' : ''}${lead ? `, ${lead}` : ''}.${pending}`
}

function layerNoteFor(layers: ReportLayer[]): string | null {
  const dropped = layers.filter((layer) => !layer.applicable && layer.weight !== null && layer.weight > 0)
  if (
    dropped.length === 0 ||
    dropped.length === layers.length ||
    layers.some((layer) => layer.maxPoints === null && layer.applicable)
  )
    return null
  const names = dropped.map((layer) => layer.name).join(' and ')
  const points = dropped.reduce((sum, layer) => sum + layer.weight!, 0)
  return `${names} ${dropped.length === 1 ? 'does' : 'do'} not apply here, so ${dropped.length === 1 ? 'its' : 'their'} ${points} points are shared among the other layers.`
}

/** Builds the fix-first model of a scan result. The input is not modified. */
export function buildReportModel(input: ReportInput): ReportModel {
  const site = { domain: input.domain, origin: originOf(input) }
  const blockedBy = new Set(input.blockedBy ?? [])
  const seen = new Map<string, number>()
  const layerChecks = input.layers.map((layer) =>
    layer.checks.map((check): ReportCheck => {
      // MCP fan-out repeats an id once per server; only the first row takes the plain anchor.
      const count = (seen.get(check.id) ?? 0) + 1
      seen.set(check.id, count)
      const naReason =
        check.status === 'na' ? (check.naReason ?? check.details ?? 'Does not apply to this target') : undefined
      const details = check.details && check.details !== naReason ? check.details : undefined
      return {
        id: check.id,
        name: check.name,
        status: check.status,
        score: check.score,
        maxScore: check.maxScore,
        layerId: layer.id,
        layerName: layer.name,
        required: check.tier === 'required',
        blocksAgents: blockedBy.has(check.id) && FAILING.has(check.status),
        bonus: check.bonus ?? false,
        ...(details ? { details } : {}),
        ...(check.recommendation && check.status !== 'pass' ? { recommendation: check.recommendation } : {}),
        ...(naReason ? { naReason } : {}),
        ...(check.specUrl ? { specUrl: check.specUrl } : {}),
        ...(check.mcpUrl ? { mcpUrl: check.mcpUrl } : {}),
        gain: check.estScoreGain ?? 0,
        anchor: count === 1 ? `check-${check.id}` : `check-${check.id}-${count}`,
        group:
          check.status === 'pass'
            ? 'passed'
            : check.status === 'na'
              ? 'na'
              : check.status === 'pending'
                ? 'pending'
                : 'issue',
      }
    }),
  )
  const checks = layerChecks.flat()
  const extras = new Set(
    input.layers
      .flatMap((layer) => layer.checks)
      .filter((check) => check.bonus || check.maturity === 'emerging' || check.beta)
      .map((check) => check.id),
  )

  // Top fixes keep the engine's ranking; a fix worth nothing (an old stored report) is no fix.
  const fixes: ReportFix[] = []
  for (const fix of input.topFixes) {
    if (fix.estScoreGain <= 0) continue
    const check = checks.find(
      (candidate) => candidate.id === fix.id && candidate.group === 'issue' && candidate.mcpUrl === fix.mcpUrl,
    )
    if (!check) continue
    check.group = 'fix'
    fixes.push({ rank: fixes.length + 1, gain: fix.estScoreGain, check, remedy: remedyFor(check.id, site) })
  }

  const issues = checks.filter((check) => check.group === 'issue').sort(byImpact)
  const notApplicable = new Map<string, ReportCheck[]>()
  for (const check of checks.filter((candidate) => candidate.group === 'na')) {
    const reason = check.naReason!
    notApplicable.set(reason, [...(notApplicable.get(reason) ?? []), check])
  }
  const isExtra = (id: string) => extras.has(id)
  const failing = checks.filter((check) => FAILING.has(check.status))
  const counted = failing.filter((check) => !isExtra(check.id) || check.status === 'error')
  // Only a fail holds agents back; a required check's warning is an improvement like any other.
  const requiredFailing = failing.filter(requiredCheckFails)
  const pending = checks.filter((check) => check.group === 'pending')
  const blocking = checks.filter((check) => check.blocksAgents)
  const passed = checks.filter((check) => check.group === 'passed')
  const layers = input.layers.map((layer, index) => layerSummary(layer, layerChecks[index]!))
  const naGroups = [...notApplicable]
    .map(([reason, grouped]) => ({ reason, checks: grouped }))
    .sort((a, b) => b.checks.length - a.checks.length)

  return {
    domain: input.domain,
    score: input.score,
    grade: input.grade,
    verdict: verdictFor(
      input,
      fixes,
      blocking,
      requiredFailing,
      input.score === null ? failing.length : counted.length,
      failing.length - counted.length,
      pending.length,
    ),
    blocking,
    partial: input.score === null,
    fixes,
    issues,
    passed,
    notApplicable: naGroups,
    pending,
    layers,
    layerNote: layerNoteFor(layers),
    checks,
    counts: {
      fixes: fixes.length,
      issues: issues.length,
      passed: passed.length,
      notApplicable: naGroups.reduce((sum, group) => sum + group.checks.length, 0),
      pending: pending.length,
      requiredFailing: requiredFailing.length,
    },
  }
}
