/** What other features may use of the MCP server: the toolbox its piece is (the /api page lists its tools). */
export type { Toolbox } from './server.ts'
