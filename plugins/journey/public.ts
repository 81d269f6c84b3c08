/**
 * What other features may use of the journey feature: the run schemas the MCP tools reuse, the run record, the
 * service that starts runs and the repository's reads (the journey tables are read only under plugins/journey/).
 */
export { agentList, createdRun, createRunBody, intentList, journeyRun, type JourneyRunRecord } from './model.ts'
export type { JourneyRepository } from './repository.ts'
export type { JourneyService } from './service.ts'
export { JOURNEY_LIMITS } from './limits.ts'
