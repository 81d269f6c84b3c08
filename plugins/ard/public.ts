/**
 * What other features may use of ARD: the index entries matching an intent (discover ranks and caches them), and
 * the ARD error envelope, which the catalog (/api/checks) and the trust routes under /api/ard answer in too.
 */
export { ARD_API_ENVELOPE, ARD_ENVELOPE, ardErrorResponse } from './errors.ts'
export { entriesForIntent } from './intent.ts'
export { ARD_LIMITS } from './limits.ts'
