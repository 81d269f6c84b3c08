import type { CheckRegistry } from './registry.ts'
import type { ScanReport } from './scan.ts'
import { rescore } from './scoring.ts'
import { siteTypeGates } from './site-type.ts'

export interface RelevanceAssessment {
  naCheckIds: string[]
  reasons: Record<string, string>
  report: ScanReport
}

/**
 * After the deep analysis, failing checks that cannot apply to this kind of site are turned into `na`: the
 * site's own classification, when it is confident (self-declared, or classified with high confidence), gates
 * them out exactly as the siteType lens would. A low-confidence or default classification changes nothing.
 */
export function assessRelevance(report: ScanReport, registry: CheckRegistry): RelevanceAssessment {
  const classification = report.siteClassification
  const confident =
    classification?.type &&
    (classification.source === 'self-declared' ||
      (classification.source === 'classified' && classification.confidence === 'high'))
  if (!confident) return { naCheckIds: [], reasons: {}, report }
  const gates = siteTypeGates(report.layers, classification.type!, registry)
  const judged = report.layers
    .flatMap((layer) => layer.checks)
    .filter((check) => (check.status === 'fail' || check.status === 'warning') && gates.has(check.id))
  if (judged.length === 0) return { naCheckIds: [], reasons: {}, report }
  const reasons = new Map(
    judged.map((check) => [check.id, `Not applicable: ${gates.get(check.id)} (${classification.basis})`]),
  )
  return {
    naCheckIds: judged.map((check) => check.id),
    reasons: Object.fromEntries(reasons),
    report: rescore(report, { kind: 'not-applicable', reasons }, registry),
  }
}
