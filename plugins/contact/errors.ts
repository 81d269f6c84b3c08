import { defineErrors } from '../../core/errors.ts'

/** The codes only the contact feature throws. */
export const CONTACT_ERRORS = defineErrors({
  MAIL_FAILED: { status: 500, title: 'Mail delivery failed' },
})
