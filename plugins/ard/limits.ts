import { defineLimits, MINUTE } from '../../core/limits.ts'

export const ARD_LIMITS = defineLimits({
  /** POST /api/ard/search and /api/ard/explore share one window. */
  ardSearch: { limit: 30, windowMs: MINUTE, durable: false, per: 'ip', exempt: [] },
  /**
   * GET /api/ard/agents, /api/ard/attestation/{domain} (the trust feature's) and /api/ard/catalog.json share one
   * window.
   */
  ardRead: { limit: 60, windowMs: MINUTE, durable: false, per: 'ip', exempt: [] },
})
