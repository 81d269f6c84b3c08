import { z } from 'zod'
import { CONTRACT_VERSION } from '../../core/version.ts'
import { agentList, createRunBody, createdRun, intentList, journeyRun, type JourneyService } from '../journey/public.ts'
import { brief } from './model.ts'
import { defineTool, type ToolDefinition } from './server.ts'
import { JOURNEY_LIMITS } from '../journey/public.ts'

const OWN_DATA_READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

/** A run may come back capped: the newest stored run of the same target instead of a new one. */
const startedRun = createdRun.partial({ intent: true }).extend({
  rate_limited: z
    .literal(true)
    .optional()
    .describe('Present when the per-target cap was hit: this is the newest stored run of that target'),
})

/** The tasks and the agents together: one call tells a caller every choice start_journey_run takes. */
const journeyChoices = intentList.extend(agentList.pick({ agents: true }).shape)

/**
 * The journey tools of our MCP server, fronting the journey routes' service with the same limits: an agent can
 * list what it may ask for, start a run and read it until it completes.
 */
export function buildJourneyTools({ journeyService: journeys }: { journeyService: JourneyService }): ToolDefinition[] {
  return [
    defineTool({
      name: 'list_journey_intents',
      description: 'Returns the tasks a journey can attempt on a domain, and the agents.',
      input: z.strictObject({}),
      output: journeyChoices,
      annotations: OWN_DATA_READ,
      async run(_args, call) {
        await call.enforceLimit(JOURNEY_LIMITS.journeyRead)
        return { contractVersion: CONTRACT_VERSION, intents: journeys.intents(), agents: journeys.agents() }
      },
    }),
    defineTool({
      name: 'start_journey_run',
      description: 'Starts an agent attempting a task on a domain. Returns the queued run; poll get_journey_run.',
      input: brief(createRunBody.pick({ domain: true, agent: true, compare: true }), {
        domain: 'Target domain',
        agent: 'Agent id (default: deterministic)',
        compare: 'Also run as a browser (blocked vs absent)',
      }).extend({
        intent_id: z.string().min(1).max(100).describe('Id from list_journey_intents'),
      }),
      output: startedRun,
      // Starts work that fetches the outside domain; every call makes a new run.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      async run(args, call) {
        await call.enforceLimit(JOURNEY_LIMITS.journeyBurst)
        const request = journeys.understand(
          { intent: { id: args.intent_id }, domain: args.domain, agent: args.agent, compare: args.compare },
          false,
        )
        const admission = await journeys.admit(call.caller, request)
        if (admission.capped) return { ...(await journeys.record(admission.capped)), rate_limited: true as const }
        return { ...(await journeys.create(request, call.caller)), intent: request.echo }
      },
    }),
    defineTool({
      name: 'get_journey_run',
      description: 'Returns a journey run: status, verdict, insight and steps.',
      input: z.object({ id: z.string().min(1).max(100).describe('Run id from start_journey_run') }),
      output: journeyRun,
      annotations: { ...OWN_DATA_READ, idempotentHint: false },
      async run(args, call) {
        await call.enforceLimit(JOURNEY_LIMITS.journeyRead)
        return journeys.record(await journeys.byId(args.id))
      },
    }),
  ]
}
