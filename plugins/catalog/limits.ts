import { defineLimits, MINUTE } from '../../core/limits.ts'

export const CATALOG_LIMITS = defineLimits({
  checksCatalog: { limit: 60, windowMs: MINUTE, durable: false, per: 'ip', exempt: [] },
})
