import type { CheckDefinition, CheckMeta, CheckStatus, LayerId, Maturity, Outcome, ScanKind, Tier } from './check.ts'
import { LAYERS } from './check.ts'
import type { PageVerdict } from './page-verdict.ts'

/**
 * The one owner of the score. A fresh run is scored with `score`; every later change to a scored report (a
 * selective re-check, deep results that were pending, a relevance judgement, the siteType lens) goes through
 * `rescore`. Nothing else computes or recomputes a score, a grade or an estimated gain.
 */

/** The spec's CheckResult (default shape). */
export interface CheckResult {
  id: string
  name: string
  description: string
  status: CheckStatus
  score: number
  maxScore: number
  details: string
  recommendation?: string
  bonus: boolean
  maturity: Maturity
  tier: Tier
  naReason?: string
  estScoreGain?: number
  specUrl?: string
  /** Set only when the check ran against one MCP server of a multi-server bundle. */
  mcpKind?: string
  mcpUrl?: string
  /** A page-level check of a multi-page scan: how many sampled pages it judged and passed, and the failing ones. */
  pages?: PageVerdict
  /** Share of maxScore earned (0..1), kept for the essentials reading; not part of the wire shape. */
  fraction?: number
  occurrences?: number
  /** The check's typed evidence (core/engine/evidence.ts): stored for programs such as the ARD indexer, never on the wire. */
  evidence?: unknown
}

export interface LayerResult {
  id: LayerId
  name: string
  description: string
  checks: CheckResult[]
  /** Within-layer points earned over the counted checks (fan-out rows weighted, rounded). */
  score: number
  /** Within-layer denominator: counted checks' maxScore (earned bonuses count what they earned). */
  maxScore: number
  /*
   * The same layer in 0-100 points (contract 1.28.0): scoreScan always sets these; results stored before that
   * version lack them, which is why they are optional.
   */
  /** False when no check of the layer counted (all na, emerging, pending or unearned bonus): the layer drops out. */
  applicable?: boolean
  /** The layer's catalog weight out of 100 (the same number /api/checks publishes). */
  weight?: number
  /**
   * The 0-100 points this layer can carry in this scan: its weight re-normalised over the applicable layers
   * (0 when not applicable). The applicable layers' maxPoints sum to 100.
   */
  maxPoints?: number
  /**
   * The 0-100 points the layer earned (maxPoints × score / maxScore), one decimal. The layers' points sum to the
   * overall score before the block factor: score = round(Σ points × blockFactor).
   */
  points?: number
}

export interface TopFix {
  id: string
  name: string
  layer: LayerId
  status: 'fail' | 'warning'
  estScoreGain: number
  bonus: boolean
  tier: Tier
  recommendation?: string
  specUrl?: string
  mcpUrl?: string
}

export type Grade = 'A+' | 'A' | 'B' | 'C' | 'D' | 'F'
export type CtaTier = 'top' | 'high' | 'mid' | 'low'

export interface Scorecard {
  score: number
  maxScore: 100
  /**
   * Ids of the failing checks that stop agents outright (a challenge or block for AI agents, robots.txt
   * disallowing them, a homepage that is an empty shell without JavaScript). Set by scoreScan; absent on results
   * stored before contract 1.28.0.
   */
  blockedBy?: string[]
  /** What the layers' points are multiplied by: BLOCKED_FACTOR per id in blockedBy, 1 when nothing blocks agents. */
  blockFactor?: number
  grade: Grade
  ctaTier: CtaTier
  ctaMessage: string
  layers: LayerResult[]
  topFixes: TopFix[]
  analysisStatus: 'complete' | 'partial'
  pendingChecks: string[]
}

const GRADE_THRESHOLDS: [number, Grade][] = [
  [95, 'A+'],
  [86, 'A'],
  [70, 'B'],
  [48, 'C'],
  [28, 'D'],
  [0, 'F'],
]

export function gradeFor(score: number): Grade {
  return GRADE_THRESHOLDS.find(([minimum]) => score >= minimum)![1]
}

export const GRADE_COLORS: Record<Grade, string> = {
  'A+': '#15803d',
  A: '#16a34a',
  B: '#65a30d',
  C: '#ca8a04',
  D: '#ea580c',
  F: '#dc2626',
}

const CTA: Record<CtaTier, string> = {
  top: 'Agents can find, enter and use this site with little friction. Keep it that way as standards move.',
  high: 'Agents can work with this site; a few fixes would remove the friction that remains.',
  mid: 'Agents get partway; the top fixes below unblock the most value first.',
  low: 'Agents mostly cannot find or use this site yet; start with the top fixes below.',
}

export function ctaFor(score: number): { ctaTier: CtaTier; ctaMessage: string } {
  const ctaTier: CtaTier = score >= 86 ? 'top' : score >= 70 ? 'high' : score >= 48 ? 'mid' : 'low'
  return { ctaTier, ctaMessage: CTA[ctaTier] }
}

/**
 * Points a check earns: the outcome's fraction of maxScore (defaults: pass 1, warning 0.5, fail 0). A warning or a
 * fail leaves something to fix, so it never shows the full score (a 0.85 warning of a 3-point check would round to
 * 3/3 and promise nothing for the fix).
 */
export function pointsFor(status: CheckStatus, maxScore: number, fraction?: number): number {
  const share = fraction ?? (status === 'pass' ? 1 : status === 'warning' ? 0.5 : 0)
  if (status !== 'pass' && status !== 'warning' && status !== 'fail') return 0
  const points = Math.round(maxScore * Math.min(1, Math.max(0, share)))
  return status === 'pass' ? points : Math.min(points, maxScore - 1)
}

interface Counted {
  earned: number
  denominator: number
}

/**
 * A check counts toward its layer when it has a measured status (pass, warning, fail), verified maturity and is
 * not beta. A bonus counts what it earned on both sides, so it can only raise the score and an unearned bonus
 * leaves the denominator (spec: CheckResult.bonus).
 */
function contribution(
  check: Pick<CheckResult, 'status' | 'score' | 'maxScore' | 'bonus' | 'maturity'>,
  beta: boolean,
): Counted {
  if (beta || check.maturity !== 'verified') return { earned: 0, denominator: 0 }
  if (check.status !== 'pass' && check.status !== 'warning' && check.status !== 'fail')
    return { earned: 0, denominator: 0 }
  if (check.bonus) return { earned: check.score, denominator: check.score }
  return { earned: check.score, denominator: check.maxScore }
}

type LayerTotals = Map<LayerId, Counted>

/** Each layer's 0-100 points: its weight re-normalised over the layers that have a denominator, times its fraction. */
function layerPoints(totals: LayerTotals): Map<LayerId, { points: number; maxPoints: number }> {
  const active = LAYERS.filter((layer) => (totals.get(layer.id)?.denominator ?? 0) > 0)
  const activeWeight = active.reduce((sum, layer) => sum + layer.weight, 0)
  return new Map(
    active.map((layer) => {
      const counted = totals.get(layer.id)!
      const maxPoints = (layer.weight / activeWeight) * 100
      return [layer.id, { maxPoints, points: maxPoints * (counted.earned / counted.denominator) }]
    }),
  )
}

function overall(totals: LayerTotals): number {
  return [...layerPoints(totals).values()].reduce((sum, layer) => sum + layer.points, 0)
}

/**
 * While a check that stops agents outright fails, the score is multiplied by this, once per such check. Agents
 * that are turned away reach nothing the other checks measure, so the block outweighs everything that merely
 * helps: 100 × 0.65 = 65 keeps a blocked site below grade B whatever else it does, and lifting the block gains
 * about a third of the score on top of the check's own points, so it ranks first among the fixes by the spec's
 * own rule (gain). Only a site that fails nearly everything (in random trials, scores of 10 or less) can have a
 * single check of a small layer worth more.
 */
export const BLOCKED_FACTOR = 0.65

/** What a blocking check adds to its failure's recommendation, so the report says why the grade stops at C. */
export const BLOCKED_NOTE = `Until this is fixed the score is multiplied by ${BLOCKED_FACTOR}: a site that turns agents away cannot reach grade B.`

/** What scoring reads of a check: its layer, whether it is beta, whether its failure stops agents. */
export type ScoringMeta = Pick<CheckMeta, 'layer' | 'beta'> & Partial<Pick<CheckMeta, 'stopsAgents'>>

/** The checks scoring knows, by id: the engine's CheckRegistry (a unit test may pass a few metadata). */
export interface ScoringCatalog<Meta extends ScoringMeta = ScoringMeta> {
  get(id: string): { readonly meta: Meta } | undefined
}

/** A later change to a scored report. */
export type ScoreChange =
  /**
   * New rows for some checks (a selective re-check, pending deep checks resolved): each replaces the row of the
   * same check and MCP server; a row the report lacks is added (a fan-out row replaces its check's MCP-only na row).
   */
  | { kind: 'results'; results: readonly CheckResult[] }
  /** Checks judged not to apply to this site (check id → why): their failing and warning rows become `na`. */
  | { kind: 'not-applicable'; reasons: ReadonlyMap<string, string> }
  /** The siteType lens, a reading never stored: gated checks leave the score, the others listed count as bonuses. */
  | { kind: 'site-type'; rules: ReadonlyMap<string, 'gated' | 'bonus'> }

/** Scores a fresh run: the target's results and the rows of the MCP servers a domain fanned out to. */
export function score(catalog: ScoringCatalog, results: CheckResult[], fanout: CheckResult[] = []): Scorecard {
  return scoreScan(mergeFanout(results, fanout).map((result) => entryOf(catalog, result)))
}

/** Re-scores a report after a change: the report as it was, with the new rows, layers, score and fixes. */
export function rescore<Report extends Pick<Scorecard, 'layers'>>(
  report: Report,
  change: ScoreChange,
  catalog: ScoringCatalog,
): Report & Scorecard {
  const rows = report.layers.flatMap((layer) => layer.checks)
  if (change.kind === 'site-type') {
    const entries = rows
      .filter((result) => change.rules.get(result.id) !== 'gated')
      .map((result) =>
        entryOf(catalog, {
          ...result,
          bonus: change.rules.get(result.id) === 'bonus' || result.bonus,
          estScoreGain: undefined,
        }),
      )
    return { ...report, ...scoreScan(entries) }
  }
  const changed = change.kind === 'results' ? patched(rows, change.results) : notApplicable(rows, change.reasons)
  // Gains are estimated afresh over the new set of rows.
  return {
    ...report,
    ...scoreScan(changed.map((result) => entryOf(catalog, { ...result, estScoreGain: undefined }))),
  }
}

/** Thrown for a result of a check the catalog does not know. */
export class UnknownCheckError extends Error {
  constructor(readonly checkId: string) {
    super(`Cannot score check "${checkId}": no check of that id is registered`)
    this.name = 'UnknownCheckError'
  }
}

/**
 * A result's layer and weight come from its check's metadata. A result of an unregistered check has neither:
 * filed under some layer it would count where it does not belong, so it is an error. Stored reports are
 * re-scored on later changes and read through the lens, so a check leaves the registry only together with a
 * migration of the stored rows that name it.
 */
function entryOf(catalog: ScoringCatalog, result: CheckResult): ScoredEntry {
  const check = catalog.get(result.id)
  if (!check) throw new UnknownCheckError(result.id)
  return { result, layer: check.meta.layer, beta: check.meta.beta, stopsAgents: check.meta.stopsAgents ?? false }
}

/** Fan-out rows replace the `na` row that says "applies to MCP scans only" for the same check. */
function mergeFanout(results: CheckResult[], fanout: readonly CheckResult[]): CheckResult[] {
  const fannedOut = new Set(fanout.map((result) => result.id))
  return [...results.filter((result) => !(fannedOut.has(result.id) && result.mcpUrl === undefined)), ...fanout]
}

/** The rows with a patch laid over them: replaced by check id and MCP server, the patch's other rows added. */
function patched(rows: CheckResult[], patch: readonly CheckResult[]): CheckResult[] {
  const key = (result: CheckResult) => `${result.id}\u0000${result.mcpUrl ?? ''}`
  const replacements = new Map(patch.map((result) => [key(result), result]))
  const merged = rows.map((result) => replacements.get(key(result)) ?? result)
  const known = new Set(rows.map(key))
  return mergeFanout(
    merged,
    patch.filter((result) => !known.has(key(result))),
  )
}

function notApplicable(rows: CheckResult[], reasons: ReadonlyMap<string, string>): CheckResult[] {
  return rows.map((result) =>
    (result.status === 'fail' || result.status === 'warning') && reasons.has(result.id)
      ? {
          ...result,
          status: 'na' as const,
          score: 0,
          naReason: reasons.get(result.id),
          recommendation: undefined,
          estScoreGain: undefined,
        }
      : result,
  )
}

/**
 * The within-layer maximum the scan_init event announces: the maxScore of the non-bonus checks each slot (the
 * target, and each MCP server a domain fans out to) runs that apply to its kind.
 */
export function layerMaxScores(
  slots: readonly { kind: ScanKind; checks: readonly CheckDefinition[] }[],
): Record<string, number> {
  const applicable = slots.flatMap((slot) => slot.checks.filter((check) => check.meta.appliesTo.includes(slot.kind)))
  return Object.fromEntries(
    LAYERS.map((layer) => [
      layer.id,
      applicable
        .filter((check) => check.meta.layer === layer.id && !check.meta.bonus)
        .reduce((sum, check) => sum + check.meta.maxScore, 0),
    ]),
  )
}

export interface ScoredEntry {
  result: CheckResult
  layer: LayerId
  beta: boolean
  /** The check's failure stops agents outright (CheckMeta.stopsAgents): it applies BLOCKED_FACTOR. */
  stopsAgents?: boolean
}

const blocks = (entry: ScoredEntry): boolean =>
  entry.stopsAgents === true && entry.result.status === 'fail' && !entry.beta && entry.result.maturity === 'verified'

/** One decimal, as estScoreGain and the layers' points are reported. */
const tenths = (value: number) => Math.round(value * 10) / 10

/**
 * Scores a set of rows (score and rescore build them; exported for its unit tests) per the spec and
 * docs/checks.md §20.2: layer fractions weighted and re-normalised over the layers that have a denominator,
 * multiplied by BLOCKED_FACTOR per failing check that stops agents, estimated gains computed by re-scoring with
 * each fixable check made whole, and the top fixes ranked non-bonus first, then by gain.
 */
export function scoreScan(entries: ScoredEntry[]): Scorecard {
  // A check run against several MCP servers of a domain (fan-out) counts once: each server's row weighs 1/n.
  const servers = new Map<string, number>()
  for (const { result } of entries)
    if (result.mcpUrl !== undefined) servers.set(result.id, (servers.get(result.id) ?? 0) + 1)
  const weightOf = (result: CheckResult) => (result.mcpUrl === undefined ? 1 : 1 / servers.get(result.id)!)
  const weighted = (counted: Counted, weight: number): Counted => ({
    earned: counted.earned * weight,
    denominator: counted.denominator * weight,
  })

  const totals: LayerTotals = new Map()
  for (const entry of entries) {
    const counted = weighted(contribution(entry.result, entry.beta), weightOf(entry.result))
    const current = totals.get(entry.layer) ?? { earned: 0, denominator: 0 }
    totals.set(entry.layer, {
      earned: current.earned + counted.earned,
      denominator: current.denominator + counted.denominator,
    })
  }
  // A blocking check failing on any row (of a fan-out) blocks; the block lifts when no row of it fails.
  const blockingRows = new Map<string, number>()
  for (const entry of entries)
    if (blocks(entry)) blockingRows.set(entry.result.id, (blockingRows.get(entry.result.id) ?? 0) + 1)
  const blockFactor = BLOCKED_FACTOR ** blockingRows.size
  const exact = overall(totals) * blockFactor

  for (const entry of entries) {
    const { result } = entry
    if (result.status !== 'fail' && result.status !== 'warning') continue
    const before = weighted(contribution(result, entry.beta), weightOf(result))
    const after = weighted(
      contribution({ ...result, status: 'pass', score: result.maxScore }, entry.beta),
      weightOf(result),
    )
    const layerTotals = totals.get(entry.layer) ?? { earned: 0, denominator: 0 }
    const fixed = new Map(totals)
    fixed.set(entry.layer, {
      earned: layerTotals.earned - before.earned + after.earned,
      denominator: layerTotals.denominator - before.denominator + after.denominator,
    })
    const lifted = blocks(entry) && blockingRows.get(result.id) === 1
    const factorAfter = lifted ? blockFactor / BLOCKED_FACTOR : blockFactor
    result.estScoreGain = Math.max(0, tenths(overall(fixed) * factorAfter - exact))
  }

  const points = layerPoints(totals)
  // The score is computed from the layers' points as reported (one decimal), so that the numbers a page shows add up.
  const shown = [...points.values()].reduce((sum, layer) => sum + tenths(layer.points), 0)
  const score = Math.round(tenths(shown) * blockFactor)
  const layers: LayerResult[] = LAYERS.map((layer) => {
    const counted = totals.get(layer.id) ?? { earned: 0, denominator: 0 }
    const share = points.get(layer.id)
    return {
      id: layer.id,
      name: layer.name,
      description: layer.description,
      checks: entries.filter((entry) => entry.layer === layer.id).map((entry) => entry.result),
      // Fan-out weights make the sums fractional; the wire shape carries whole points.
      score: Math.round(counted.earned),
      maxScore: Math.round(counted.denominator),
      applicable: share !== undefined,
      weight: layer.weight,
      maxPoints: tenths(share?.maxPoints ?? 0),
      points: tenths(share?.points ?? 0),
    }
  })
  const pendingChecks = entries.filter((entry) => entry.result.status === 'pending').map((entry) => entry.result.id)
  return {
    score,
    maxScore: 100,
    blockedBy: [...blockingRows.keys()],
    blockFactor: Math.round(blockFactor * 10_000) / 10_000,
    grade: gradeFor(score),
    ...ctaFor(score),
    layers,
    topFixes: rankFixes(entries),
    analysisStatus: pendingChecks.length > 0 ? 'partial' : 'complete',
    pendingChecks: [...new Set(pendingChecks)],
  }
}

export const TOP_FIXES_MAX = 6

/**
 * The spec's rule: actionable checks, non-bonus first, then estimated uplift descending, at most 6. A fix that
 * would not move the score (an emerging check, a sliver that rounds to nothing) is no top fix.
 */
function rankFixes(entries: ScoredEntry[]): TopFix[] {
  return entries
    .filter(
      (entry): entry is ScoredEntry & { result: CheckResult & { status: 'fail' | 'warning' } } =>
        (entry.result.status === 'fail' || entry.result.status === 'warning') && (entry.result.estScoreGain ?? 0) > 0,
    )
    .sort(
      (a, b) =>
        Number(a.result.bonus) - Number(b.result.bonus) ||
        (b.result.estScoreGain ?? 0) - (a.result.estScoreGain ?? 0) ||
        a.result.id.localeCompare(b.result.id),
    )
    .slice(0, TOP_FIXES_MAX)
    .map(({ result, layer }) => ({
      id: result.id,
      name: result.name,
      layer,
      status: result.status,
      estScoreGain: result.estScoreGain ?? 0,
      bonus: result.bonus,
      tier: result.tier,
      ...(result.recommendation ? { recommendation: result.recommendation } : {}),
      ...(result.specUrl ? { specUrl: result.specUrl } : {}),
      ...(result.mcpUrl ? { mcpUrl: result.mcpUrl } : {}),
    }))
}

/** Builds the wire CheckResult from a check's metadata and outcome fields. */
export function toCheckResult(
  meta: Pick<CheckMeta, 'id' | 'name' | 'description' | 'maxScore' | 'bonus' | 'maturity' | 'tier' | 'specUrl'>,
  /** A check's Outcome, or a status the runner set itself (pending, error). */
  outcome: Omit<Outcome, 'status'> & { status: CheckStatus },
): CheckResult {
  const score = pointsFor(outcome.status, meta.maxScore, outcome.fraction)
  return {
    id: meta.id,
    name: meta.name,
    description: meta.description,
    status: outcome.status,
    score,
    maxScore: meta.maxScore,
    details: outcome.details,
    ...(outcome.status !== 'pass' && outcome.recommendation ? { recommendation: outcome.recommendation } : {}),
    bonus: meta.bonus,
    maturity: meta.maturity,
    tier: meta.tier,
    ...(outcome.status === 'na' ? { naReason: outcome.naReason ?? outcome.details } : {}),
    ...(meta.specUrl ? { specUrl: meta.specUrl } : {}),
    ...(outcome.fraction !== undefined ? { fraction: outcome.fraction } : {}),
    ...(outcome.occurrences !== undefined ? { occurrences: outcome.occurrences } : {}),
    ...(outcome.evidence !== undefined ? { evidence: outcome.evidence } : {}),
  }
}
