/** What other features may use of ARD: the index entries matching an intent (discover ranks and caches them). */
export { entriesForIntent } from './intent.ts'
