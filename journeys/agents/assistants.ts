import type { AgentDefinition } from '../types.ts'
import { ASSISTANT_IDENTITIES } from '../identities.ts'
import { createDeterministicAgent } from './deterministic.ts'

/**
 * The deterministic agent presenting as each AI assistant's user-triggered fetcher (`chatgpt-user`…): the same
 * walk as `deterministic`, so a different outcome is the edge treating that identity differently. Apart from the
 * registry (index.ts), which loads the model SDKs, so that the CLI's help can name them at no cost.
 */
export const ASSISTANT_AGENTS: readonly AgentDefinition[] = ASSISTANT_IDENTITIES.map((identity) =>
  createDeterministicAgent(
    { id: identity.id.toLowerCase(), label: `Built-in agent as ${identity.id}`, public: true },
    identity,
  ),
)
