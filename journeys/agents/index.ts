import type { Config } from '../../core/config.ts'
import type { AgentDefinition } from '../types.ts'
import { ASSISTANT_IDENTITIES, BROWSER } from '../identities.ts'
import { createAiSdkAgent } from './ai-sdk.ts'
import deterministic, { createDeterministicAgent } from './deterministic.ts'

/**
 * The deterministic agent presenting as each AI assistant's user-triggered fetcher (`chatgpt-user`…): the same
 * walk as `deterministic`, so a different outcome is the edge treating that identity differently.
 */
const ASSISTANTS = ASSISTANT_IDENTITIES.map((identity) =>
  createDeterministicAgent(
    { id: identity.id.toLowerCase(), label: `Built-in agent as ${identity.id}`, public: true },
    identity,
  ),
)

/** The baseline of a compare run: the same walk as a person's browser. Not runnable on its own. */
export const BROWSER_AGENT = createDeterministicAgent(
  { id: 'browser', label: 'Built-in agent as a browser (compare baseline)', public: false },
  BROWSER,
)

/**
 * The agents this deployment can run: the built-in deterministic agent always, first; the same agent under each
 * assistant identity; the model-backed agent only when LLM_* is configured; and the browser baseline of compare
 * runs, which is not public.
 */
export function availableAgents(config: Pick<Config, 'llm'>): AgentDefinition[] {
  return [deterministic, ...ASSISTANTS, ...(config.llm ? [createAiSdkAgent(config.llm)] : []), BROWSER_AGENT]
}
