import type { CheckRegistry } from './registry.ts'
import type { ScanReport } from './scan.ts'
import { patchReport } from './scan.ts'
import { siteTypeLens } from './site-type.ts'

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
  const metas = new Map(registry.checks.map((check) => [check.meta.id, check.meta]))
  const lens = siteTypeLens({ layers: report.layers, classification, declared: null, metas })
  const gates = new Map(lens?.gatedOut.map((gate) => [gate.id, gate.gate]) ?? [])
  const judged = report.layers
    .flatMap((layer) => layer.checks)
    .filter((check) => (check.status === 'fail' || check.status === 'warning') && gates.has(check.id))
  if (judged.length === 0) return { naCheckIds: [], reasons: {}, report }
  const reasons = Object.fromEntries(
    judged.map((check) => [check.id, `Not applicable: ${gates.get(check.id)} (${classification.basis})`]),
  )
  const patched = patchReport(
    report,
    judged.map((check) => ({
      ...check,
      status: 'na' as const,
      score: 0,
      naReason: reasons[check.id],
      recommendation: undefined,
      estScoreGain: undefined,
    })),
    registry,
  )
  return { naCheckIds: judged.map((check) => check.id), reasons, report: patched }
}
