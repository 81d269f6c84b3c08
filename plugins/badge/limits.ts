import { defineLimits, MINUTE } from '../../core/limits.ts'

export const BADGE_LIMITS = defineLimits({
  /**
   * Not in the spec. Generous because README images reach us through image proxies (GitHub's camo) that put
   * many viewers behind one IP; responses are cached for an hour anyway.
   */
  badge: { limit: 120, windowMs: MINUTE, durable: false, per: 'ip', exempt: [] },
})
