/** Bonus JSON manifests at well-known paths (ai-plugin.json, agents.json): one way to judge them all. */
import type { Outcome } from '../../core/engine/check.ts'
import { listSome } from '../../core/engine/lib/describe.ts'
import { describeJsonProblem, readJsonObject } from '../../core/engine/lib/json-document.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { type FieldKind, missingFields } from './fields.ts'

export interface ManifestRule {
  /** "/.well-known/ai-plugin.json", for details. */
  label: string
  fields: Record<string, FieldKind>
  /** Problems beyond missing fields (wrong enum values, unusable URLs). */
  extraProblems?: (document: Record<string, unknown>) => string[]
  /** What a passing manifest holds, for details. */
  summary: (document: Record<string, unknown>) => string
  /** The site-specific fix when the manifest is absent. */
  publish: string
}

/**
 * Bonus manifest checks share one shape: absent or not JSON → unearned (fail); a JSON object missing required
 * fields → warning naming them; complete → pass.
 */
export function judgeManifest(snapshot: HttpSnapshot, rule: ManifestRule): Outcome {
  const document = readJsonObject(snapshot)
  if (document.state !== 'ok') {
    return {
      status: 'fail',
      details: `${describeJsonProblem(snapshot, document)}: no manifest`,
      recommendation: rule.publish,
    }
  }
  const problems = [
    ...missingFields(document.value, rule.fields).map((field) => `no ${field}`),
    ...(rule.extraProblems?.(document.value) ?? []),
  ]
  if (problems.length > 0) {
    return {
      status: 'warning',
      details: `${rule.label} is JSON but incomplete: ${listSome(problems, 5)}`,
      recommendation: `Complete ${rule.label}: ${listSome(problems, 5)}.`,
    }
  }
  return { status: 'pass', details: `${rule.label} is complete: ${rule.summary(document.value)}` }
}
