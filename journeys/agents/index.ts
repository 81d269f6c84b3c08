import type { Config } from '../../core/config.ts'
import type { AgentDefinition } from '../contract.ts'
import { createAiSdkAgent } from './ai-sdk.ts'
import deterministic from './deterministic.ts'

/**
 * The agents this deployment can run: the built-in deterministic agent always, first; the model-backed agent only
 * when LLM_* is configured.
 */
export function availableAgents(config: Pick<Config, 'llm'>): AgentDefinition[] {
  return config.llm ? [deterministic, createAiSdkAgent(config.llm)] : [deterministic]
}
