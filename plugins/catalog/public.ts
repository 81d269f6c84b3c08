/** What other features may use of the check catalog: its schema, which the MCP tool reuses. */
export { checkCatalog } from './model.ts'
