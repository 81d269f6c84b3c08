import { createHash } from 'node:crypto'
import type { Kernel } from '../core/kernel.ts'
import { ScanSession } from '../core/outbound/session.ts'
import { unsupportedClaim } from './claims.ts'
import type {
  AgentDefinition,
  AgentIdentity,
  IntentDefinition,
  JourneyEvidence,
  Judgement,
  RunUsage,
  TrajectoryStep,
  Verdict,
} from './types.ts'
import { identityName } from './identities.ts'
import { buildInsight, type Insight, type RunSignals, runSignals } from './insights.ts'
import { DEFAULT_BUDGET, type JourneyBudget, JourneySession } from './session.ts'

export interface JourneyOutcome {
  steps: TrajectoryStep[]
  verdict: Verdict
  insight: Insight
  run_signals: RunSignals
  /** The agent's answer: what the intent asks for, and the URL it came from (`Source: <url>` on its last line). */
  agent_response: string | null
  usage: RunUsage
  /** SHA-256 over what the run fetched: equal digests mean the site answered the same. */
  content_digest: string
  /** SHA-256 over the trajectory without timings: equal digests mean the agent did the same. */
  trajectory_digest: string
  evidence: JourneyEvidence
}

export interface JourneyInput {
  agent: AgentDefinition
  intent: IntentDefinition
  /** The task text given to the agent. */
  prompt: string
  domain: string
  /** Scheme, host and port the agent starts from; `https://<domain>` unless a local target names its own. */
  origin?: string
  deps: Pick<Kernel, 'outbound' | 'browser' | 'config'>
  budget?: JourneyBudget
  /** Each step as soon as it is complete (persisted and streamed by the caller). */
  onStep?: (step: TrajectoryStep) => void
  signal?: AbortSignal
}

/** A step without its timing: what "the same trajectory" compares. */
export function stepFingerprint(step: TrajectoryStep): Omit<TrajectoryStep, 'duration_ms'> {
  const { duration_ms: _timing, ...rest } = step
  return rest
}

/**
 * What the agent did, without what the site said: the text of its answer quotes the pages (their prices, their
 * addresses), which the content digest already covers, so a price change is "the site changed", not "the agent varied".
 */
export function trajectoryDigest(steps: readonly TrajectoryStep[]): string {
  const actions = steps.map((step) => {
    const { text: _quoted, ...rest } = stepFingerprint(step)
    return rest
  })
  return createHash('sha256').update(JSON.stringify(actions)).digest('hex')
}

/**
 * Runs one agent on one intent against a domain and judges the result. The agent works through a JourneySession
 * under its identity (every fetch guarded, signed, bounded and recorded); the verdict is the intent's judge over
 * what was found and the agent's answer checked against it, `blocked` when it was not done and a challenge or
 * robots.txt stood in the way of that identity.
 */
export async function runJourney(input: JourneyInput): Promise<JourneyOutcome> {
  const origin = input.origin ?? `https://${input.domain}`
  const controller = new AbortController()
  input.signal?.addEventListener('abort', () => controller.abort(), { once: true })
  const session = new JourneySession({
    domain: input.domain,
    origin,
    http: new ScanSession(input.deps.outbound, input.deps.config),
    browser: input.deps.browser,
    config: input.deps.config,
    budget: input.budget ?? DEFAULT_BUDGET,
    onStep: (step) => input.onStep?.(step),
    signal: controller.signal,
    format: input.intent.meta.format,
    identity: input.agent.meta.identity,
  })
  const judge = () => input.intent.judge(session.steps, session.evidence)
  const result = await input.agent.run({
    domain: input.domain,
    origin,
    prompt: input.prompt,
    intent: input.intent,
    tools: session,
    satisfied: () => judge().satisfied,
    judgement: judge,
    hasBudget: () => session.hasBudget(),
    say: (text, label) => void session.say(text, label),
    signal: controller.signal,
  })
  const judged = judge()
  // The built-in agent's answer is the judge's own, drawn from the evidence; a model's is its word, checked against it.
  const unsupported =
    judged.satisfied && input.agent.meta.harness !== 'builtin'
      ? unsupportedClaim(result.response, judged, session.evidence)
      : null
  const verdict = decide(judged, unsupported, session, input.agent.meta.identity)
  return {
    steps: session.steps,
    verdict,
    insight: buildInsight(input.intent.meta, verdict, session.steps, session.evidence),
    run_signals: runSignals(verdict, session.steps, session.evidence),
    agent_response: result.response,
    usage: result.usage,
    content_digest: session.contentDigest(),
    trajectory_digest: trajectoryDigest(session.steps),
    evidence: session.evidence,
  }
}

/**
 * Success needs the judge's pages and an answer they support (`unsupported` says why the answer is not). Otherwise a
 * challenge, an edge refusal or a robots.txt refusal met under the run's identity makes it `blocked`, naming the
 * first step that was blocked; else it is a failure.
 */
function decide(
  judgement: Judgement,
  unsupported: string | null,
  session: JourneySession,
  identity: AgentIdentity,
): Verdict {
  if (judgement.satisfied && !unsupported)
    return { outcome: 'success', reason: judgement.reason, evidence_step_ids: judgement.evidence }
  const stopped = session.steps.filter((step) => step.type === 'tool' && step.status === 'blocked')
  const first = stopped[0]
  if (first) {
    const challenged = session.challenged()
    const who = identityName(identity)
    const refusal = challenged ? session.refusal(challenged) : null
    return {
      outcome: 'blocked',
      reason: challenged
        ? refusal
          ? `The edge refused ${who} at ${challenged.url} (${refusal}; step ${challenged.id}).`
          : `A bot challenge answered ${who} instead of ${challenged.url} (step ${challenged.id}).`
        : `robots.txt disallows ${first.url} for ${identity.robotsToken} (step ${first.id}).`,
      evidence_step_ids: challenged
        ? [challenged.id, ...stopped.filter((step) => step !== challenged).map((step) => step.id)]
        : stopped.map((step) => step.id),
    }
  }
  return {
    outcome: 'failure',
    reason: unsupported ?? judgement.reason,
    evidence_step_ids: unsupported ? [] : judgement.evidence,
  }
}
