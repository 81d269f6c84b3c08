/**
 * The one contract version (SemVer), reported identically by the API description, our MCP server's serverInfo,
 * its server card, and every payload's `contractVersion`. tests/catalog-snapshot.test.ts fails when the check
 * catalog changes without a bump here.
 */
export const CONTRACT_VERSION = '1.27.0'

export const SERVICE_NAME = 'agent-readiness'
