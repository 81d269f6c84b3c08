/** What other features may use of discover: its piece and the schemas the MCP tool reuses. */
export { discoverQuery, discoverResponse } from './model.ts'
export type { Discover } from './service.ts'
