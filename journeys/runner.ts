import { createHash } from 'node:crypto'
import type { AppDeps } from '../core/deps.ts'
import { ScanSession } from '../core/http/session.ts'
import type { AgentDefinition, IntentDefinition, JourneyEvidence, RunUsage, TrajectoryStep, Verdict } from './contract.ts'
import { buildInsight, type Insight, type RunSignals, runSignals } from './insights.ts'
import { DEFAULT_BUDGET, type JourneyBudget, JourneySession } from './session.ts'

export interface JourneyOutcome {
  steps: TrajectoryStep[]
  verdict: Verdict
  insight: Insight
  run_signals: RunSignals
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
  deps: Pick<AppDeps, 'outbound' | 'browser' | 'config'>
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

export function trajectoryDigest(steps: readonly TrajectoryStep[]): string {
  return createHash('sha256').update(JSON.stringify(steps.map(stepFingerprint))).digest('hex')
}

/**
 * Runs one agent on one intent against a domain and judges the result. The agent works through a JourneySession
 * (every fetch guarded, signed, bounded and recorded); the verdict is the intent's judge over what was found,
 * `blocked` when it was not done and a challenge or robots.txt stood in the way.
 */
export async function runJourney(input: JourneyInput): Promise<JourneyOutcome> {
  const origin = `https://${input.domain}`
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
  })
  const judge = () => input.intent.judge(session.steps, session.evidence)
  const result = await input.agent.run({
    domain: input.domain,
    origin,
    prompt: input.prompt,
    intent: input.intent,
    tools: session,
    satisfied: () => judge().satisfied,
    hasBudget: () => session.hasBudget(),
    say: (text, label) => void session.say(text, label),
    signal: controller.signal,
  })
  const verdict = decide(judge(), session)
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

function decide(judgement: ReturnType<IntentDefinition['judge']>, session: JourneySession): Verdict {
  if (judgement.satisfied) return { outcome: 'success', reason: judgement.reason, evidence_step_ids: judgement.evidence }
  const stopped = session.steps.filter((step) => step.type === 'tool' && step.status === 'blocked')
  if (stopped.length > 0) {
    const challenged = session.evidence.pages.some((page) => page.challenged)
    return {
      outcome: 'blocked',
      reason: challenged ? 'A bot challenge answered instead of the content.' : 'robots.txt forbids agents the pages it needed.',
      evidence_step_ids: stopped.map((step) => step.id),
    }
  }
  return { outcome: 'failure', reason: judgement.reason, evidence_step_ids: judgement.evidence }
}
