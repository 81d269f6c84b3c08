import type { VerdictOutcome } from './types.ts'

/**
 * A compare run: the same intent walked as a person's browser and as an agent identity. Its finding tells "the
 * edge blocks agents" apart from "the site does not offer it", which a single blocked or failed run cannot.
 */
export type ComparisonFinding = 'reachable' | 'blocked_for_agents' | 'blocked_for_all' | 'absent' | 'differs'

export interface Comparison {
  finding: ComparisonFinding
  message: string
  agent_run_id: string
  browser_run_id: string
  /** The identity the agent run presented (`self` or a product token). */
  identity: string
  agent_outcome: VerdictOutcome
  browser_outcome: VerdictOutcome
}

export interface ComparedRun {
  id: string
  identity: string
  outcome: VerdictOutcome
}

/** What the two verdicts of a compare run say together. */
export function compareRuns(agent: ComparedRun, browser: ComparedRun): Comparison {
  const who = agent.identity === 'self' ? 'our agent (AgentReadiness)' : agent.identity
  const [finding, message]: [ComparisonFinding, string] =
    agent.outcome === 'success'
      ? ['reachable', `Done as ${who}${browser.outcome === 'success' ? ' and as a browser' : ''}.`]
      : agent.outcome === 'blocked'
        ? browser.outcome === 'blocked'
          ? [
              'blocked_for_all',
              `Blocked for agents and for browsers alike: the edge stops everyone (${who} and a browser).`,
            ]
          : [
              'blocked_for_agents',
              `Blocked for agents, reachable for browsers: the site stops ${who} where a browser ${browser.outcome === 'success' ? 'gets it done' : 'gets through (though the task was not done there either)'}.`,
            ]
        : browser.outcome === 'success'
          ? ['differs', `Not done as ${who}, done as a browser: the site answers agents differently.`]
          : ['absent', `Not done as ${who} nor as a browser: the site does not offer it (not a block).`]
  return {
    finding,
    message,
    agent_run_id: agent.id,
    browser_run_id: browser.id,
    identity: agent.identity,
    agent_outcome: agent.outcome,
    browser_outcome: browser.outcome,
  }
}
