import { z } from 'zod'
import { JOURNEY_LAYERS } from '../../journeys/types.ts'
import { COMPARE_ROLES, JOURNEY_STATUSES } from './tables.ts'

/** Longest domain or URL accepted where a run's domain is named (the same bound as the scan routes). */
const TARGET = z.string().min(1).max(2048)

const curatedIntent = z
  .object({ id: z.string().min(1).max(100).describe('A curated intent id from GET /api/journey/intents') })
  .strict()
const freeTextIntent = z
  .object({
    custom: z
      .string()
      .min(4)
      .max(300)
      .regex(/\S/, 'must not be blank')
      .describe('The task in your own words (4-300 characters); needs a partner key'),
    domain: TARGET.describe('The domain the task is anchored to'),
  })
  .strict()

export const createRunBody = z
  .object({
    intent: z
      .union([curatedIntent, freeTextIntent])
      .describe('`{ id }` for a curated intent, or `{ custom, domain }` for free text (partner key)'),
    domain: TARGET.optional().describe(
      'Required with a curated intent; with free text it may be omitted, and must name the same domain when given',
    ),
    agent: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('A public agent id from GET /api/journey/agents; default `deterministic`'),
    compare: z
      .boolean()
      .optional()
      .describe(
        'Also walk the same intent as a plain browser, in a second run linked to this one (`compare`), so the result tells "blocked for agents, reachable for browsers" from "absent"',
      ),
  })
  .strict()
export type CreateRunBody = z.infer<typeof createRunBody>

export const runIdParams = z.object({ id: z.string().describe('A run id (`jr_…`)') })

const verdict = z.object({
  outcome: z.enum(['success', 'failure', 'blocked']),
  reason: z.string(),
  evidence_step_ids: z.array(z.string()),
})

/** Identity fields are stable; navigation detail is advisory and may grow, hence the loose object. */
const stepIdentity = {
  id: z.string(),
  turn: z.number().int(),
  type: z.enum(['tool', 'text']),
  parent_id: z.string().nullable(),
  action: z.string(),
  tool: z.string().nullable(),
  status: z.enum(['ok', 'error', 'blocked']),
  duration_ms: z.number(),
  label: z.string(),
}
export const trajectoryStep = z.looseObject({
  ...stepIdentity,
  url: z.string().optional(),
  url_host: z.string().optional(),
  url_path: z.string().optional(),
  search_query: z.string().optional(),
  source: z.string().optional(),
  anchor_relation: z.string().optional(),
  attribution: z.string().optional(),
  artifact_key: z.string().optional(),
  fetch_method: z.enum(['http', 'browser']).optional(),
  completed: z.boolean().optional(),
  skill_name: z.string().optional(),
  http_status: z.number().int().optional(),
  content_type: z.string().optional(),
  text: z.string().optional(),
})
/** A step of the graph projection: the node and its edge (`parent_id`), nothing the site said. */
export const graphStep = z.object(stepIdentity)

const verdictOutcome = z.enum(['success', 'failure', 'blocked'])

export const comparison = z.object({
  finding: z
    .enum(['reachable', 'blocked_for_agents', 'blocked_for_all', 'absent', 'differs'])
    .describe(
      '`blocked_for_agents`: the agent identity was blocked where a browser got through; `absent`: neither got it done and nothing blocked the agent',
    ),
  message: z.string(),
  agent_run_id: z.string(),
  browser_run_id: z.string(),
  identity: z.string().describe('The identity the agent run presented'),
  agent_outcome: verdictOutcome,
  browser_outcome: verdictOutcome,
})

const insight = z.object({
  summary: z.string(),
  observations: z.array(z.object({ kind: z.string(), message: z.string(), step_ids: z.array(z.string()) })),
  journey_layers: z.array(
    z.object({
      layer: z.enum(JOURNEY_LAYERS),
      outcome: z.enum(['reached', 'not_reached', 'blocked']),
      step_ids: z.array(z.string()),
    }),
  ),
  related_checks: z
    .array(z.string())
    .describe(
      'Failed or blocked runs: ids of catalog checks (GET /api/checks) whose fixes would have helped; empty on success',
    ),
  comparison: comparison
    .nullable()
    .describe(
      'Compare runs, once both halves completed: what the agent and the browser verdicts say together; null otherwise',
    ),
})

const agentRef = z.object({ id: z.string(), harness: z.string(), model: z.string() })
const timestamp = z.string().describe('ISO 8601 date-time')

/** The run record: GET /api/journey/runs/{id}, the stream's `result` event, and (with extras) the create answers. */
export const journeyRun = z.object({
  id: z.string(),
  status: z.enum(JOURNEY_STATUSES).describe('queued -> running -> completed | failed'),
  intent_id: z.string().describe('A curated intent id, or `custom` for free text'),
  domain: z.string(),
  agent: agentRef,
  identity: z
    .string()
    .describe(
      "Who the agent presented itself as: `self` (our signed AgentReadiness agent), `browser` (the baseline of a compare run) or an AI assistant's product token",
    ),
  compare: z
    .object({
      run_id: z.string().describe('The other run of the compare request'),
      role: z.enum(COMPARE_ROLES).describe('Which half this run is'),
    })
    .nullable()
    .describe('Set on both runs of a compare request'),
  created_at: timestamp,
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  stream_url: z.string(),
  verdict: verdict.nullable().describe('Set when completed'),
  step_count: z.number().int(),
  steps: z.array(trajectoryStep).describe('The trajectory so far, in order'),
  insight: insight.nullable().describe('Advisory: summary and observations; `journey_layers` is experimental'),
  run_signals: z
    .object({
      steps: z.number().int(),
      tool_steps: z.number().int(),
      on_site_ratio: z.number(),
      http_4xx: z.number().int(),
      friction: z.enum(['none', 'low', 'high', 'blocked']),
    })
    .nullable()
    .describe('Experimental'),
  agent_response: z
    .string()
    .nullable()
    .describe(
      'Experimental: the agent’s final answer: what the intent asks for (prices with currency and period, the support address, the reference and OpenAPI URLs…), then `Source: <url>` on its last line',
    ),
  usage: z
    .object({
      input_tokens: z.number().nullable(),
      output_tokens: z.number().nullable(),
      cache_read_tokens: z.number().nullable(),
      cache_write_tokens: z.number().nullable(),
      cost_usd: z.number().nullable(),
    })
    .nullable()
    .describe('Experimental: token and cost aggregates; null fields when no model was used'),
  content_digest: z
    .string()
    .nullable()
    .describe('SHA-256 over what the run fetched: equal digests mean the site answered the same'),
  trajectory_digest: z
    .string()
    .nullable()
    .describe('SHA-256 over the steps without timings: equal digests mean the agent did the same'),
  error: z
    .object({ code: z.string(), message: z.string() })
    .nullable()
    .describe('Set when failed; `RUN_INTERRUPTED` when the process running it died'),
  contractVersion: z.string(),
})

export const intentEcho = z.union([z.object({ id: z.string() }), z.object({ custom: z.string(), domain: z.string() })])
export const createdRun = journeyRun.extend({
  intent: intentEcho.describe('Experimental: the intent as the server understood it (201 only)'),
})
export const cappedRun = journeyRun.extend({ rate_limited: z.literal(true) })

export const intentList = z.object({
  contractVersion: z.string(),
  intents: z.array(
    z.object({ id: z.string(), title: z.string(), prompt: z.string(), layers: z.array(z.enum(JOURNEY_LAYERS)) }),
  ),
})
export const agentList = z.object({
  contractVersion: z.string(),
  agents: z.array(
    z.object({
      id: z.string(),
      harness: z.string(),
      model: z.string(),
      label: z.string(),
      user_agent: z.string().describe('The exact User-Agent header the agent sends'),
      identity: z
        .string()
        .describe(
          "`self` (our own signed agent) or the product token it presents (an AI assistant's user-triggered fetcher)",
        ),
      identity_source: z
        .string()
        .nullable()
        .describe('Where the vendor publishes that token and User-Agent; null for `self`'),
    }),
  ),
})

/** JourneyDomainRunGraph: every field is also in the full projection, with the same value (tests check it). */
export const journeyRunGraph = journeyRun
  .pick({
    id: true,
    status: true,
    intent_id: true,
    domain: true,
    agent: true,
    started_at: true,
    finished_at: true,
    verdict: true,
    step_count: true,
    contractVersion: true,
  })
  .extend({
    steps: z.array(graphStep).describe('The step tree: nodes and `parent_id` edges'),
    insight: z.object({ summary: z.string() }).nullable(),
  })

export const domainQuery = z.object({
  view: z
    .enum(['graph', 'full'])
    .optional()
    .describe('`graph` (default): the step tree, verdict and insight summary; `full`: the complete run records'),
})
export const domainBody = z
  .object({ limit: z.number().int().min(1).max(100).optional().describe('Runs to return, newest first; default 20') })
  .strict()
  .nullish()

const aggregate = z.object({
  runs: z.number().int(),
  completed: z.number().int(),
  median_steps: z.number().nullable().describe('Median step count of the completed runs; null when none completed'),
  success_rates: z
    .array(
      z.object({
        intent_id: z.string(),
        agent_id: z.string(),
        runs: z.number().int(),
        completed: z.number().int(),
        successes: z.number().int(),
        success_rate: z.number().nullable().describe('successes / completed; null when none completed'),
      }),
    )
    .describe('One entry per (intent, agent) pair among the returned runs'),
})
const domainRunsBase = { contractVersion: z.string(), domain: z.string(), aggregate }
export const domainRuns = z.union([
  z.object({ ...domainRunsBase, view: z.literal('graph'), runs: z.array(journeyRunGraph) }),
  z.object({ ...domainRunsBase, view: z.literal('full'), runs: z.array(journeyRun) }),
])

export type JourneyRunRecord = z.infer<typeof journeyRun>
export type JourneyRunGraph = z.infer<typeof journeyRunGraph>
export type DomainAggregate = z.infer<typeof aggregate>
