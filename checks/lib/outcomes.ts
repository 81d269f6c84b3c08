/** Outcomes shared by checks that probe: a probe that could not finish, and probes that got no answer at all. */
import type { Outcome } from '../../core/engine/check.ts'

/** An outcome for a probe that could not finish: left out of scoring, retryable. */
export function unreachable(details: string): Outcome {
  return { status: 'error', details }
}

/** True when probes were sent and none got any response: the resource is unknown, not absent. */
export function noProbeAnswered(probes: readonly { response?: unknown }[]): boolean {
  return probes.length > 0 && probes.every((probe) => !probe.response)
}
