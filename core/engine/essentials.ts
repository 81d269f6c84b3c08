import type { CheckMeta, EssentialsAccessFlag, Surface } from './check.ts'
import type { CheckResult, LayerResult } from './scoring.ts'

/**
 * The essentials reading (`include=essentials`): the same scan re-read as "has the basics". Required checks share
 * 80 points and recommended checks 20 (a missing bucket hands its points to the other), each check weighted by
 * its maxScore; bonus and emerging checks are forward-looking signals that can only add. Checks whose metadata
 * sets `essentialsExcluded` (a site's policy choice, not hygiene) never enter this model (contract 1.19.1); each
 * reading of a check (its surface, its access flag) comes from its metadata too.
 */

const BUCKET_POINTS = { required: 80, recommended: 20 } as const
/** Points one passed forward-looking signal adds, and the most all of them together may add. */
const SIGNAL_POINTS = 2
const SIGNAL_CAP = 10

export const ESSENTIALS_TIERS = ['required', 'recommended', 'signal'] as const
export type EssentialsTier = (typeof ESSENTIALS_TIERS)[number]

/** What the essentials reading needs to know about each check beyond its result. */
export type EssentialsMeta = Pick<CheckMeta, 'surface' | 'essentialsExcluded' | 'essentialsAccess'>

export function essentialsTierOf(meta: Pick<CheckMeta, 'tier' | 'bonus'>): EssentialsTier {
  return meta.tier === 'emerging' || meta.bonus ? 'signal' : meta.tier
}

export interface EssentialsCheck {
  tier: EssentialsTier
  bonus: boolean
  fraction: number
  occurrences: number
  essentialsGain: number
}

export interface Essentials {
  score: number | null
  required: EssentialsBucket
  recommended: EssentialsBucket
  signals: { earned: number; max: number; passed: string[] }
  label: { headline: string; summary: string }
  surfaces: Record<Surface, number | null>
  access: Record<EssentialsAccessFlag, boolean | null>
  checks: Record<string, EssentialsCheck>
  issues: string[]
  scoreEvidence: string[]
}

export interface EssentialsBucket {
  points: number
  earned: number
  passed: number
  total: number
  failing: string[]
}

const MEASURED = new Set(['pass', 'warning', 'fail'])

function fractionOf(result: CheckResult): number {
  return result.fraction ?? (result.maxScore > 0 ? result.score / result.maxScore : 0)
}

export function computeEssentials(layers: LayerResult[], metas: ReadonlyMap<string, EssentialsMeta>): Essentials {
  const all = layers.flatMap((layer) => layer.checks)
  const results = all.filter((result) => !metas.get(result.id)?.essentialsExcluded)
  const measured = results.filter((result) => MEASURED.has(result.status))
  const inBucket = (tier: 'required' | 'recommended') =>
    measured.filter((result) => essentialsTierOf(result) === tier && result.maturity === 'verified')
  const buckets = { required: inBucket('required'), recommended: inBucket('recommended') }
  const weight = (list: CheckResult[]) => list.reduce((sum, result) => sum + result.maxScore, 0)
  const requiredWeight = weight(buckets.required)
  const recommendedWeight = weight(buckets.recommended)
  const points = {
    required: recommendedWeight === 0 ? 100 : requiredWeight === 0 ? 0 : BUCKET_POINTS.required,
    recommended: requiredWeight === 0 ? 100 : recommendedWeight === 0 ? 0 : BUCKET_POINTS.recommended,
  }

  const checks: Record<string, EssentialsCheck> = {}
  const bucket = (tier: 'required' | 'recommended'): EssentialsBucket => {
    const list = buckets[tier]
    const total = weight(list)
    let earned = 0
    for (const result of list) {
      const share = total === 0 ? 0 : (result.maxScore / total) * points[tier]
      earned += share * fractionOf(result)
      checks[result.id] = {
        tier,
        bonus: result.bonus,
        fraction: fractionOf(result),
        occurrences: result.occurrences ?? 1,
        essentialsGain: Math.round(share * (1 - fractionOf(result)) * 10) / 10,
      }
    }
    return {
      points: points[tier],
      earned: Math.round(earned * 10) / 10,
      passed: list.filter((result) => result.status === 'pass').length,
      total: list.length,
      failing: list.filter((result) => result.status !== 'pass').map((result) => result.id),
    }
  }
  const required = bucket('required')
  const recommended = bucket('recommended')

  const signalResults = measured.filter(
    (result) => essentialsTierOf(result) === 'signal' || result.maturity === 'emerging',
  )
  const passedSignals = signalResults.filter((result) => result.status === 'pass').map((result) => result.id)
  const signalEarned = Math.min(SIGNAL_CAP, passedSignals.length * SIGNAL_POINTS)
  for (const result of signalResults) {
    checks[result.id] ??= {
      tier: 'signal',
      bonus: true,
      fraction: fractionOf(result),
      occurrences: result.occurrences ?? 1,
      essentialsGain: result.status === 'pass' || signalEarned >= SIGNAL_CAP ? 0 : SIGNAL_POINTS,
    }
  }

  const hasBuckets = requiredWeight + recommendedWeight > 0
  const score = hasBuckets ? Math.min(100, Math.round(required.earned + recommended.earned + signalEarned)) : null
  // A result without metadata (a check since removed) counts as web, the surface most checks measure.
  const surfaceScore = (surface: Surface) => {
    const list = [...buckets.required, ...buckets.recommended].filter(
      (result) => (metas.get(result.id)?.surface ?? 'web') === surface,
    )
    const total = weight(list)
    return total === 0
      ? null
      : Math.round((list.reduce((sum, result) => sum + result.maxScore * fractionOf(result), 0) / total) * 100)
  }
  const accessFlag = (flag: EssentialsAccessFlag): boolean | null => {
    const result = all.find((entry) => metas.get(entry.id)?.essentialsAccess === flag)
    return result && MEASURED.has(result.status) ? result.status === 'pass' : null
  }

  return {
    score,
    required,
    recommended,
    signals: { earned: signalEarned, max: SIGNAL_CAP, passed: passedSignals },
    label: labelFor(score, required),
    surfaces: { web: surfaceScore('web'), api: surfaceScore('api'), mcp: surfaceScore('mcp') },
    access: {
      agentsAllowed: accessFlag('agentsAllowed'),
      unchallenged: accessFlag('unchallenged'),
      readableWithoutJs: accessFlag('readableWithoutJs'),
    },
    checks,
    issues: measured.filter((result) => result.status !== 'pass' && checks[result.id]).map((result) => result.id),
    scoreEvidence: measured
      .filter((result) => result.status === 'pass' && checks[result.id])
      .map((result) => result.id),
  }
}

function labelFor(score: number | null, required: EssentialsBucket): Essentials['label'] {
  if (score === null)
    return { headline: 'Not enough measured', summary: 'No required or recommended check could be measured.' }
  if (required.failing.length === 0 && score >= 90) {
    return { headline: 'Essentials covered', summary: 'Every required basic is in place.' }
  }
  if (required.failing.length === 0) {
    return {
      headline: 'Basics in place',
      summary: 'Every required basic is in place; recommended ones would help agents further.',
    }
  }
  return {
    headline: `${required.failing.length} required basic${required.failing.length === 1 ? '' : 's'} missing`,
    summary: `Fix first: ${required.failing.slice(0, 3).join(', ')}.`,
  }
}
