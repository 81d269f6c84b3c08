import { defineLimits, MINUTE } from '../../core/limits.ts'

export const CONTACT_LIMITS = defineLimits({
  contact: { limit: 3, windowMs: 10 * MINUTE, durable: false, per: 'ip', exempt: [] },
})
