import { z } from 'zod'
import { CONTRACT_VERSION } from '../../core/contract.ts'
import type { Services } from '../../core/root.ts'
import { createRunBody, createdRun, intentList, journeyRun } from '../journey/model.ts'
import { describeLimit } from './model.ts'
import { defineTool, type ToolDefinition } from './server.ts'

const OWN_DATA_READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

/** A run may come back capped: the newest stored run of the same target instead of a new one. */
const startedRun = createdRun.partial({ intent: true }).extend({
  rate_limited: z.literal(true).optional().describe('Present when the per-target cap was hit: this is the newest stored run of that target'),
})

/**
 * The journey tools of our MCP server, fronting the journey routes' service with the same limits: an agent can
 * list what it may ask for, start a run and read it until it completes.
 */
export function buildJourneyTools({ journeys }: Pick<Services, 'journeys'>): ToolDefinition[] {
  return [
    defineTool({
      name: 'list_journey_intents',
      title: 'List journey intents',
      description:
        'The curated tasks a journey can attempt against a domain (find pricing, find the OpenAPI description, authenticate, transact…): id, title, the prompt given to the agent and the journey layers it exercises. Use an id with start_journey_run.',
      input: z.strictObject({}),
      output: intentList,
      annotations: OWN_DATA_READ,
      async run(_args, call) {
        await call.enforceLimit('journeyRead')
        return { contractVersion: CONTRACT_VERSION, intents: journeys.intents() }
      },
    }),
    defineTool({
      name: 'start_journey_run',
      title: 'Start an agent journey',
      description: `Queues an agent run of a curated intent against a domain and returns its record at once (status queued); poll get_journey_run until status is completed or failed, then read verdict (success, failure or blocked), insight and the step trajectory. The default agent is the built-in deterministic one: the same site gives the same trajectory. Same limits as POST /api/journey/runs: ${describeLimit('journeyBurst')} and ${describeLimit('journeyIpDaily')} per IP, and ${describeLimit('journeyTargetDaily')} per (domain, intent, agent); over that cap the newest stored run is returned with rate_limited.`,
      input: createRunBody.pick({ domain: true, agent: true }).extend({
        intent_id: z.string().min(1).max(100).describe('A curated intent id from list_journey_intents'),
      }),
      output: startedRun,
      // Starts work that fetches the outside domain; every call makes a new run.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      async run(args, call) {
        await call.enforceLimit('journeyBurst')
        const request = journeys.understand({ intent: { id: args.intent_id }, domain: args.domain, agent: args.agent }, false)
        const admission = await journeys.admit(call.caller, request)
        if (admission.capped) return { ...(await journeys.record(admission.capped)), rate_limited: true as const }
        return { ...(await journeys.create(request, call.caller)), intent: request.echo }
      },
    }),
    defineTool({
      name: 'get_journey_run',
      title: 'Read a journey run',
      description: 'The record of a journey run by id: status, verdict, insight, run signals and every step so far. Fails with NOT_FOUND for an unknown id.',
      input: z.object({ id: z.string().min(1).max(100).describe('A run id (`jr_…`) from start_journey_run') }),
      output: journeyRun,
      annotations: { ...OWN_DATA_READ, idempotentHint: false },
      async run(args, call) {
        await call.enforceLimit('journeyRead')
        return journeys.record(await journeys.byId(args.id))
      },
    }),
  ]
}
