import { KEY_TIERS } from '../../core/keys/service.ts'
import { DAY, defineLimits, MINUTE } from '../../core/limits.ts'

/** On the journey surface any key swaps the anonymous caps for its own larger per-key allowance. */
const ANY_KEY = KEY_TIERS

export const JOURNEY_LIMITS = defineLimits({
  /** Not in the spec. The journey GET routes: a client polling a run once a second stays well inside. */
  journeyRead: { limit: 120, windowMs: MINUTE, durable: false, per: 'ip', exempt: [] },
  journeyBurst: { limit: 20, windowMs: MINUTE, durable: false, per: 'ip', exempt: ANY_KEY, rateHeaders: true },
  /** Subject: `journeyTargetSubject(...)`. A denial is a 200 with the newest stored run, not a 429. */
  journeyTargetDaily: { limit: 100, windowMs: DAY, durable: true, per: 'target', exempt: ANY_KEY },
  journeyIpDaily: { limit: 20, windowMs: DAY, durable: true, per: 'ip', exempt: ANY_KEY },
  journeyKeyDaily: { limit: 1000, windowMs: DAY, durable: true, per: 'key', exempt: ['anonymous'] },
})

/** One rolling per-target window per (domain, intent, harness, model); JSON keeps the parts unambiguous. */
export function journeyTargetSubject(target: {
  domain: string
  intent: string
  harness: string
  model: string
}): string {
  return `target:${JSON.stringify([target.domain, target.intent, target.harness, target.model])}`
}
