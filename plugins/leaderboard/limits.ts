import { defineLimits, MINUTE } from '../../core/limits.ts'

export const LEADERBOARD_LIMITS = defineLimits({
  /**
   * Not in the spec (it names leaderboard and statistics as open reads). GET /api/leaderboard and /api/stats, shared
   * with the other open reads (discovery, the feedback reads, the web pages that list results).
   */
  openRead: { limit: 60, windowMs: MINUTE, durable: false, per: 'ip', exempt: [] },
})
