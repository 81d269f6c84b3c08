import { REGISTERED_CHECKS } from '../checks/index.ts'
import type { Config } from '../core/config.ts'
import { buildEngine, type Engine, type EngineOptions } from '../core/engine/engine.ts'

/** The check engine over every check of the repository (checks/index.ts): what the CLI, the API and the tests scan with. */
export function createEngine(config: Readonly<Config>, options: EngineOptions = {}): Engine {
  return buildEngine(config, REGISTERED_CHECKS, options)
}
