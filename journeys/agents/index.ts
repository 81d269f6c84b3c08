import type { Config } from '../../core/config.ts'
import type { AgentDefinition } from '../types.ts'
import { BROWSER } from '../identities.ts'
import { createAiSdkAgent } from './ai-sdk.ts'
import { ASSISTANT_AGENTS } from './assistants.ts'
import deterministic, { createDeterministicAgent } from './deterministic.ts'

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
  return [deterministic, ...ASSISTANT_AGENTS, ...(config.llm ? [createAiSdkAgent(config.llm)] : []), BROWSER_AGENT]
}
