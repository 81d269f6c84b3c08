/**
 * The one contract version (SemVer), reported identically by the API description, our MCP server's serverInfo,
 * its server card, and every payload's `contractVersion`. catalog.lock.json records it with the catalog's digest:
 * tests/catalog.test.ts fails, and `npm run catalog:lock` refuses, when the check catalog changes without a bump
 * here and a CHANGELOG.md entry (app/catalog-lock.ts).
 */
export const CONTRACT_VERSION = '1.29.0'

export const SERVICE_NAME = 'agent-readiness'
