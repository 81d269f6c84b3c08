import { defineLimits, MINUTE } from '../../core/limits.ts'

export const FEEDBACK_LIMITS = defineLimits({
  /** Not in the spec. Each report is a stored row: room for a reviewer flagging several checks of one scan. */
  feedback: { limit: 10, windowMs: 10 * MINUTE, durable: false, per: 'ip', exempt: [] },
})
