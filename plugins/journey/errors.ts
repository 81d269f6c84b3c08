import { defineErrors } from '../../core/errors.ts'

/** The codes only the journey feature throws. */
export const JOURNEY_ERRORS = defineErrors({
  CUSTOM_INTENT_REQUIRES_KEY: { status: 401, title: 'Custom intents require a partner key' },
  PARTNER_KEY_REQUIRED: { status: 401, title: 'Partner key required' },
})
