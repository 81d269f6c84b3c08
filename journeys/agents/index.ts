import type { Config } from '../../core/config.ts'
import type { AgentDefinition } from '../contract.ts'
import deterministic from './deterministic.ts'

/**
 * The agents this deployment can run: the built-in deterministic agent always; model-backed agents only when
 * LLM_* is configured.
 */
export function availableAgents(_config: Pick<Config, 'llm'>): AgentDefinition[] {
  return [deterministic]
}
