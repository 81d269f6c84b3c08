import { defineErrors } from '../../core/errors.ts'

/** The codes only the MCP feature throws. */
export const MCP_ERRORS = defineErrors({
  HOST_NOT_ALLOWED: { status: 403, title: 'Host not allowed' },
})
