import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { JourneyRepository } from './repository.ts'
import { JourneyService } from './service.ts'
import { JourneyWorker } from './worker.ts'
import { CONTRACT_VERSION } from '../../core/version.ts'
import { AppError, errorResponse } from '../../core/errors.ts'
import { JOURNEY_ERRORS } from './errors.ts'
import { eventStreamResponses, RATE_HEADERS, STREAM_HEADERS, wire } from '../../core/openapi.ts'
import { sseResponse } from '../../core/sse.ts'
import {
  agentList,
  cappedRun,
  createdRun,
  createRunBody,
  domainBody,
  domainQuery,
  domainRuns,
  intentList,
  journeyRun,
  runIdParams,
} from './model.ts'
import { describeIpLimit, describeLimit } from '../../core/limits.ts'
import { JOURNEY_LIMITS } from './limits.ts'

const RUN_RECORD_NOTE =
  'A run record: `status` goes `queued` -> `running` -> `completed` | `failed` and never reads `running` once its outcome was streamed. `verdict` ({ outcome: success | failure | blocked, reason, evidence_step_ids }), `insight`, `run_signals`, `agent_response`, `usage` and the digests are null until the run completed; `error` ({ code, message }; `RUN_INTERRUPTED` when the process running it died, `RUN_FAILED` otherwise) only on failed runs. `steps` is the trajectory so far. Every record carries `contractVersion`.'

type JourneyNeeds = Pick<
  KernelPieces,
  'context' | 'config' | 'database' | 'store' | 'jobs' | 'outbound' | 'browser' | 'log'
>

type JourneyProvides = { journeyRuns: JourneyRepository; journeyService: JourneyService }

export function journeyPlugin({ context, journeyService: journeys }: Pick<JourneyNeeds, 'context'> & JourneyProvides) {
  return new Elysia({ name: 'journey' })
    .use(context)
    .post(
      '/api/journey/runs',
      async ({ body, caller, can, set }) => {
        const request = journeys.understand(body, 'custom' in body.intent && can('journey-custom-intent'))
        const admission = await journeys.admit(caller, request)
        Object.assign(set.headers, admission.headers, { 'cache-control': 'no-store' })
        if (admission.capped) return { ...(await journeys.record(admission.capped)), rate_limited: true as const }
        set.status = 201
        return { ...(await journeys.create(request, caller)), intent: request.echo }
      },
      {
        limit: JOURNEY_LIMITS.journeyBurst,
        parse: 'json',
        body: createRunBody,
        response: {
          200: cappedRun,
          201: createdRun,
          400: errorResponse,
          401: errorResponse,
          429: errorResponse,
          500: errorResponse,
        },
        detail: {
          tags: ['Journeys'],
          summary: 'Start an agent journey against a domain',
          ...wire({
            answers: {
              200: ['Cache-Control', 'Retry-After', ...RATE_HEADERS],
              201: ['Cache-Control', ...RATE_HEADERS],
              429: [...RATE_HEADERS],
            },
          }),
          description: `Queues a run and answers at once (201) with its record, \`stream_url\` (the live trajectory as SSE) and the \`intent\` echo; poll GET /api/journey/runs/{id} or follow the stream. Body (strict; unknown fields are 400): \`{ intent: { id }, domain }\` for a curated intent (ids from GET /api/journey/intents), or, with a partner key, \`{ intent: { custom, domain } }\` with 4-300 characters of free text (401 \`CUSTOM_INTENT_REQUIRES_KEY\` without a key holding that capability). \`agent\` defaults to \`deterministic\`; only agents listed by GET /api/journey/agents are accepted. \`compare: true\` also queues the same intent walked as a plain browser: two linked runs (each record's \`compare\` names the other; the 201 is the agent's), and once both completed each \`insight.comparison\` says \`blocked_for_agents\` (blocked as the agent, reachable as a browser), \`blocked_for_all\`, \`absent\` (not done either way, nothing blocked), \`differs\` or \`reachable\`. One request, one unit of every limit. A curated body with a missing or unrecognised key runs anonymously. Anonymous limits: ${describeLimit(JOURNEY_LIMITS.journeyBurst)} per IP (429), ${describeLimit(JOURNEY_LIMITS.journeyIpDaily)} per IP (429 with \`retry_after_ms\` and \`Retry-After\`), ${describeLimit(JOURNEY_LIMITS.journeyTargetDaily)} per (domain, intent, harness, model): over that cap the answer is 200 with the newest stored run of that target, \`rate_limited: true\` and \`Retry-After\` (no \`intent\` echo), or 429 when no stored run remains. Keys: ${describeLimit(JOURNEY_LIMITS.journeyKeyDaily)} per key, no burst or per-target cap. \`X-RateLimit-Limit\`, \`-Remaining\` and \`-Reset\` (seconds until the window is empty) describe the per-target window for anonymous callers and the per-key window for keyed ones. ${RUN_RECORD_NOTE}`,
          security: [{ bearerKey: [] }, {}],
        },
      },
    )
    .get(
      '/api/journey/runs/:id',
      async ({ params, set }) => {
        set.headers['cache-control'] = 'no-store'
        return journeys.record(await journeys.byId(params.id))
      },
      {
        limit: JOURNEY_LIMITS.journeyRead,
        params: runIdParams,
        response: { 200: journeyRun, 404: errorResponse, 429: errorResponse, 500: errorResponse },
        detail: {
          tags: ['Journeys'],
          summary: 'Read a journey run',
          ...wire({ answers: { 200: ['Cache-Control'] } }),
          description: `404 \`NOT_FOUND\` for an unknown id. Not cached: poll it while \`status\` is queued or running. ${describeIpLimit(JOURNEY_LIMITS.journeyRead)}. ${RUN_RECORD_NOTE}`,
        },
      },
    )
    .get(
      '/api/journey/runs/:id/stream',
      async ({ params, request, can }) => {
        const run = await journeys.byId(params.id)
        const graph = can('journey-graph-stream')
        return sseResponse(request, {}, (channel) => journeys.stream(run.id, graph, channel))
      },
      {
        limit: JOURNEY_LIMITS.journeyRead,
        params: runIdParams,
        detail: {
          tags: ['Journeys'],
          summary: 'Follow a journey run (Server-Sent Events)',
          description:
            'Named events, each `data:` a JSON object: `run_id` `{ run_id }` first; one `trajectory` `{ run_id, seq, step }` per step in order (the stored history first, then live; `seq` counts from 0); `processing` `{ run_id, step_count }` once the agent is done and the verdict is being recorded; then exactly one terminal event, `result` (the run record, as GET /api/journey/runs/{id} returns it) or `error` `{ run_id, code, message }` (`RUN_INTERRUPTED`, `RUN_FAILED`, …; `STREAM_FAILED` when the stream itself broke and the run may still be going). A stream opened after the run ended replays every `trajectory` then the terminal event, without `processing`. A key with the graph-stream tier gets graph-narrowed frames: steps carry only their identity fields and `result` is the graph projection (see POST /api/journey/domains/{host}). Comment heartbeats every 15 s; the server closes the stream after the terminal event. 404 `NOT_FOUND` for an unknown id.',
          responses: eventStreamResponses(),
          ...wire({ answers: { 200: [...STREAM_HEADERS], 404: { description: 'No run with that id (`NOT_FOUND`)' } } }),
        },
      },
    )
    .get('/api/journey/intents', () => ({ contractVersion: CONTRACT_VERSION, intents: journeys.intents() }), {
      limit: JOURNEY_LIMITS.journeyRead,
      response: { 200: intentList, 429: errorResponse },
      detail: {
        tags: ['Journeys'],
        summary: 'List the curated intents',
        description: `The tasks anyone may run: \`id\` (send it as \`intent.id\`), \`title\`, \`prompt\` (\`{domain}\` stands for the run’s domain) and the journey \`layers\` the task exercises. ${describeIpLimit(JOURNEY_LIMITS.journeyRead)}.`,
      },
    })
    .get(
      '/api/journey/agents',
      () => ({
        contractVersion: CONTRACT_VERSION,
        agents: journeys.agents(),
      }),
      {
        limit: JOURNEY_LIMITS.journeyRead,
        response: { 200: agentList, 429: errorResponse },
        detail: {
          tags: ['Journeys'],
          summary: 'List the publicly runnable agents',
          description: `Agents POST /api/journey/runs accepts as \`agent\`, each with the exact \`user_agent\` it sends and the \`identity\` it presents: \`self\` (our own agent, AgentReadiness, signed per Web Bot Auth when the deployment has a key) or the product token of an AI assistant's user-triggered fetcher (ChatGPT-User, Claude-User, Perplexity-User, MistralAI-User), with \`identity_source\`, where the vendor publishes it. An identity run sends that User-Agent (still signed where configured) and obeys robots.txt for that token; a bot challenge, an edge refusal (a bare 403, 429 or 503 that a browser is not given) or a robots.txt refusal met under it ends the run \`blocked\`. Model-backed agents appear only when the deployment configures a model. ${describeIpLimit(JOURNEY_LIMITS.journeyRead)}.`,
        },
      },
    )
    .post(
      '/api/journey/domains/:host',
      async ({ params, query, body, set }) => {
        set.headers['cache-control'] = 'no-store'
        return {
          contractVersion: CONTRACT_VERSION,
          ...(await journeys.domainRuns(params.host, query.view ?? 'graph', body?.limit)),
        }
      },
      {
        limit: JOURNEY_LIMITS.journeyRead,
        // The key is checked before the body is validated: without one there is nothing to tell the caller but 401.
        transform({ can }) {
          if (!can('journey-domain-route'))
            throw new AppError(JOURNEY_ERRORS.PARTNER_KEY_REQUIRED, {
              message: 'POST /api/journey/domains/{host} needs a partner key',
            })
        },
        parse: 'json',
        query: domainQuery,
        body: domainBody,
        response: { 200: domainRuns, 400: errorResponse, 401: errorResponse, 429: errorResponse, 500: errorResponse },
        detail: {
          tags: ['Journeys'],
          summary: 'A domain’s journey runs and how agents fare there (partner key)',
          description:
            'Partner keys only (401 `PARTNER_KEY_REQUIRED` otherwise). Body (optional, strict): `{ limit?: 1-100 }`, default 20. Returns the domain’s runs, newest first, and an `aggregate` over them: `runs`, `completed`, `median_steps` of the completed runs, and `success_rates` per (intent, agent) pair (successes over completed runs). `view=graph` (default; JourneyDomainRunGraph): each run narrowed to its identity, the step tree (steps with identity fields only), the verdict and the insight summary. `view=full` (JourneyDomainRun): the complete run records. Every graph field is also in the full projection with the same value.',
          security: [{ bearerKey: [] }],
          ...wire({ answers: { 200: ['Cache-Control'] } }),
        },
      },
    )
}

/** Agent journeys: runs are queued by the routes (and the MCP tools) and walked by the worker. */
export const journeyFeature = defineFeature<JourneyNeeds, JourneyProvides>()({
  name: 'journey',
  needs: ['context', 'config', 'database', 'store', 'jobs', 'outbound', 'browser', 'log'],
  provides: ['journeyRuns', 'journeyService'],
  limits: JOURNEY_LIMITS,
  provide: (deps) => {
    const journeyRuns = new JourneyRepository(deps.database.db)
    return { journeyRuns, journeyService: new JourneyService({ ...deps, journeyRuns }) }
  },
  routes: journeyPlugin,
  background: (deps) => {
    const worker = new JourneyWorker(deps)
    return [{ start: () => worker.start(deps.config.workerConcurrency), stop: () => worker.stop() }]
  },
  errors: { codes: JOURNEY_ERRORS },
})
