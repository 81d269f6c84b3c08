/** What other features may use of the leaderboard: its piece, the page it answers and the schemas the MCP tool reuses. */
export { leaderboardQuery, leaderboardResponse, type LeaderboardResponse } from './model.ts'
export type { Leaderboard } from './service.ts'
export { LEADERBOARD_LIMITS } from './limits.ts'
