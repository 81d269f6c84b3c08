import type { Kernel } from '../../core/kernel.ts'
import { normalizeInput } from '../../core/engine/target.ts'
import { AppError } from '../../core/errors.ts'
import { JOURNEY_ERRORS } from './errors.ts'
import {
  type Caller,
  consume,
  type Limit,
  type LimitDecision,
  peek,
  rateLimitHeaders,
  retryAfterSeconds,
} from '../../core/limits.ts'
import { JOURNEY_LIMITS, journeyTargetSubject } from './limits.ts'
import type { SseChannel } from '../../core/sse.ts'
import { availableAgents, BROWSER_AGENT } from '../../journeys/agents/index.ts'
import type { AgentDefinition } from '../../journeys/types.ts'
import { INTENTS, intentById } from '../../journeys/intents/index.ts'
import type { CreateRunBody, JourneyRunRecord } from './model.ts'
import type { JourneyRepository, JourneyRunRow } from './repository.ts'
import { aggregateRuns, runGraph, runRecord } from './shapes.ts'
import { relayRun } from './stream.ts'
import { JOURNEY_RUN_JOB } from './worker.ts'

export const DEFAULT_AGENT = 'deterministic'
const CUSTOM_INTENT_ID = 'custom'
const DEFAULT_DOMAIN_RUNS = 20

/** A create request the service understood: which task, where, by which agent. */
export interface RunRequest {
  intentId: string
  customIntent: string | null
  domain: string
  agent: AgentDefinition
  /** Also walk the intent as a plain browser, in a linked run. */
  compare: boolean
  /** The `intent` echo of the 201. */
  echo: { id: string } | { custom: string; domain: string }
}

/** Whether a create may run, and the one window its rate headers describe. */
export type Admission =
  | { capped: null; headers: Record<string, string> }
  | { capped: JourneyRunRow; headers: Record<string, string> }

type JourneyServiceDeps = Pick<Kernel, 'config' | 'store' | 'jobs'> & { journeyRuns: JourneyRepository }

function invalidBody(path: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', {
    message: `Invalid body: ${path}: ${message}`,
    details: { in: 'body', issues: [{ path, message }] },
  })
}

function denied(limit: Limit, decision: LimitDecision, headers: Record<string, string>): AppError {
  return new AppError('RATE_LIMIT_EXCEEDED', {
    message: `Rate limit "${limit.name}" exceeded: ${decision.limit} journey runs per rolling 24 hours`,
    retryAfterSeconds: retryAfterSeconds(decision),
    durableRetry: decision.durable,
    headers,
  })
}

/** Journey runs as the HTTP routes need them; no Elysia here. The worker (worker.ts) executes what this queues. */
export class JourneyService {
  readonly repository: JourneyRepository

  constructor(private readonly deps: JourneyServiceDeps) {
    this.repository = deps.journeyRuns
  }

  publicAgents(): AgentDefinition[] {
    return availableAgents(this.deps.config).filter((agent) => agent.meta.public)
  }

  /** GET /api/journey/agents: each public agent with the User-Agent it sends and the identity it presents. */
  agents() {
    return this.publicAgents().map(({ meta }) => ({
      id: meta.id,
      harness: meta.harness,
      model: meta.model,
      label: meta.label,
      user_agent: meta.identity.userAgent ?? this.deps.config.scanner.userAgent,
      identity: meta.identity.id,
      identity_source: meta.identity.publishedAt,
    }))
  }

  intents() {
    return INTENTS.map(({ meta }) => ({
      id: meta.id,
      title: meta.title,
      prompt: meta.prompt,
      layers: [...meta.layers],
    }))
  }

  /** Checks a create body beyond its schema: free text needs the capability, ids must exist, domains must parse. */
  understand(body: CreateRunBody, mayUseFreeText: boolean): RunRequest {
    const agentId = body.agent ?? DEFAULT_AGENT
    const agent = this.publicAgents().find((candidate) => candidate.meta.id === agentId)
    if ('custom' in body.intent) {
      if (!mayUseFreeText) {
        throw new AppError(JOURNEY_ERRORS.CUSTOM_INTENT_REQUIRES_KEY, {
          message: 'Free-text intents (`intent.custom`) need a partner key; send a curated `intent.id` without one',
        })
      }
      const { domain } = normalizeInput(body.intent.domain)
      if (body.domain !== undefined && normalizeInput(body.domain).domain !== domain)
        throw invalidBody('domain', 'must name the same domain as intent.domain')
      if (!agent) throw invalidBody('agent', 'not a public agent; see GET /api/journey/agents')
      return {
        intentId: CUSTOM_INTENT_ID,
        customIntent: body.intent.custom,
        domain,
        agent,
        compare: body.compare ?? false,
        echo: { custom: body.intent.custom, domain },
      }
    }
    if (body.domain === undefined) throw invalidBody('domain', 'required with a curated intent')
    const { domain } = normalizeInput(body.domain)
    if (!intentById(body.intent.id))
      throw invalidBody('intent.id', 'not a curated intent; see GET /api/journey/intents')
    if (!agent) throw invalidBody('agent', 'not a public agent; see GET /api/journey/agents')
    return {
      intentId: body.intent.id,
      customIntent: null,
      domain,
      agent,
      compare: body.compare ?? false,
      echo: { id: body.intent.id },
    }
  }

  /**
   * Applies the create limits (spec, Limits). Keys: their own daily allowance. Anonymous: a target over its cap is
   * answered with its newest stored run (free, so checked first and nothing is spent), then the per-IP budget,
   * then one unit of the target's window. Anonymous headers always describe the per-target window.
   */
  async admit(caller: Caller, request: RunRequest): Promise<Admission> {
    if (caller.kind === 'key') {
      const decision = await consume(this.deps.store, JOURNEY_LIMITS.journeyKeyDaily, caller)
      const headers = rateLimitHeaders(decision)
      if (!decision.allowed) throw denied(JOURNEY_LIMITS.journeyKeyDaily, decision, headers)
      return { capped: null, headers }
    }
    const target = {
      domain: request.domain,
      intent: request.intentId,
      harness: request.agent.meta.harness,
      model: request.agent.meta.model,
    }
    const subject = journeyTargetSubject(target)
    const before = await peek(this.deps.store, JOURNEY_LIMITS.journeyTargetDaily, caller, subject)
    if (!before.allowed) return this.capped(before, target, request)
    const ip = await consume(this.deps.store, JOURNEY_LIMITS.journeyIpDaily, caller)
    if (!ip.allowed) throw denied(JOURNEY_LIMITS.journeyIpDaily, ip, rateLimitHeaders(before))
    const spent = await consume(this.deps.store, JOURNEY_LIMITS.journeyTargetDaily, caller, subject)
    if (!spent.allowed) return this.capped(spent, target, request)
    return { capped: null, headers: rateLimitHeaders(spent) }
  }

  /** The newest stored run of the target by the same agent (so of the same identity): what a capped caller asked for. */
  private async capped(
    decision: LimitDecision,
    target: { domain: string; intent: string; harness: string; model: string },
    request: RunRequest,
  ): Promise<Admission> {
    const headers = { ...rateLimitHeaders(decision), 'retry-after': String(retryAfterSeconds(decision)) }
    const row = await this.repository.latestForTarget({
      ...target,
      intentId: target.intent,
      agentId: request.agent.meta.id,
    })
    // A full window with no stored run (the runs were deleted) has nothing to serve: an ordinary 429.
    if (!row) throw denied(JOURNEY_LIMITS.journeyTargetDaily, decision, rateLimitHeaders(decision))
    return { capped: row, headers }
  }

  /**
   * Inserts the run and its job in one transaction: a run is queued exactly when its row exists. A compare request
   * inserts the browser run with it, each naming the other; the answer is the agent's run. Committed jobs are
   * taken at once (the queue is woken), not at the next poll.
   */
  async create(request: RunRequest, caller: Caller): Promise<JourneyRunRecord> {
    const run = (agent: AgentDefinition) => ({
      intentId: request.intentId,
      customIntent: request.customIntent,
      domain: request.domain,
      agentId: agent.meta.id,
      harness: agent.meta.harness,
      model: agent.meta.model,
      identity: agent.meta.identity.id,
      keyId: caller.kind === 'key' ? caller.keyId : null,
    })
    const runs = request.compare ? [run(request.agent), run(BROWSER_AGENT)] : [run(request.agent)]
    const [row] = await this.repository.insert(runs, async (tx, inserted) => {
      for (const each of inserted) await this.deps.jobs.send(JOURNEY_RUN_JOB, { runId: each.id }, { tx })
    })
    this.deps.jobs.wake(JOURNEY_RUN_JOB)
    return this.record(row!)
  }

  async record(row: JourneyRunRow): Promise<JourneyRunRecord> {
    const steps = await this.repository.steps(row.id)
    return runRecord(
      row,
      steps.map((stored) => stored.step),
      this.deps.config.publicBaseUrl,
    )
  }

  async byId(id: string): Promise<JourneyRunRow> {
    const row = await this.repository.byId(id)
    if (!row) throw new AppError('NOT_FOUND', { message: `No journey run ${id.slice(0, 100)}` })
    return row
  }

  /** A domain's runs, newest first, in the graph or full projection, with the aggregate over those runs. */
  async domainRuns(host: string, view: 'graph' | 'full', limit = DEFAULT_DOMAIN_RUNS) {
    const { domain } = normalizeInput(host)
    const rows = await this.repository.forDomain(domain, limit)
    const steps = await this.repository.stepsOf(rows.map((row) => row.id))
    const records = rows.map((row) => runRecord(row, steps.get(row.id) ?? [], this.deps.config.publicBaseUrl))
    const aggregate = aggregateRuns(rows)
    return view === 'graph'
      ? { domain, view, runs: records.map(runGraph), aggregate }
      : { domain, view, runs: records, aggregate }
  }

  stream(runId: string, graph: boolean, channel: SseChannel): Promise<void> {
    return relayRun(
      { repository: this.repository, store: this.deps.store, publicBaseUrl: this.deps.config.publicBaseUrl },
      runId,
      graph,
      channel,
    )
  }
}
