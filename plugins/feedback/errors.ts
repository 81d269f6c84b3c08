import { defineErrors } from '../../core/errors.ts'

/** The codes only the feedback feature throws (its agent verification). */
export const FEEDBACK_ERRORS = defineErrors({
  AGENT_VERIFICATION_FAILED: { status: 401, title: 'Agent verification failed' },
  VERIFICATION_UNAVAILABLE: { status: 503, title: 'Agent verification unavailable' },
})
