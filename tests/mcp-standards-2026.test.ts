/**
 * Issue 30 (MCP server cards and AI catalog, MCP 2026-07-28, OAuth under 2026-07-28, MCP Apps): each rule on a
 * fixture server built from the document's own text (tests/fixtures/mcp/standards-2026.ts), scanned for real. The
 * table-driven tests of each check hold the same rules on literal artifacts; these prove the collectors probe what
 * the rules need.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEngine } from '../app/engine.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { AUTH_REQUIRED_TOKEN } from './fixtures/mcp/auth-required.ts'
import { type McpFixture, type McpFixtureName, resolveRules, startMcpFixtures } from './fixtures/mcp/server.ts'
import { testConfig } from './helpers.ts'

const NAMES: McpFixtureName[] = [
  'modern',
  'modern-careless',
  'card-reserved',
  'card-catalog',
  'card-well-known',
  'card-legacy-path',
  'card-dated',
  'card-media-type',
  'auth-required',
  'auth-dcr-only',
  'app-skybridge',
  'app-listed-html',
  'app-flat-key',
  'app-missing',
  'well-made',
]

let fixtures: McpFixture[]
const reports = new Map<string, ScanReport>()

beforeAll(async () => {
  fixtures = await startMcpFixtures(NAMES)
  const engine = createEngine(testConfig({ SCANNER_RESOLVE: resolveRules(fixtures) }), { browser: null })
  for (const { name, url } of fixtures) {
    // The servers behind OAuth are scanned as their owner scans them: with a token (the CLI's --header).
    const mcpHeaders = name.startsWith('auth-') ? { authorization: `Bearer ${AUTH_REQUIRED_TOKEN}` } : undefined
    reports.set(name, await scanUrl(url, engine, { phase: 'all', ...(mcpHeaders ? { mcpHeaders } : {}) }))
  }
}, 120_000)
afterAll(async () => {
  await Promise.all(fixtures.map((running) => running.stop()))
})

function verdict(fixture: McpFixtureName, id: string): { status: string; details?: string } {
  const row = reports
    .get(fixture)!
    .layers.flatMap((layer) => layer.checks)
    .find((check) => check.id === id)
  if (!row) throw new Error(`${fixture}: no ${id} in the report`)
  return row
}

const DISCOVERY = 'experimental-ext-server-card discovery.md'
const CACHING = 'MCP 2026-07-28 server/utilities/caching'
const TRANSPORT = 'MCP 2026-07-28 basic/transports/streamable-http'
const REGISTRATION = 'MCP 2026-07-28 basic/authorization/client-registration'
const APPS = 'ext-apps specification/2026-01-26/apps.mdx'

describe('MCP server cards and AI catalog', () => {
  test.each([
    [`${DISCOVERY}: card at <mcp-url>/server-card passes`, 'card-reserved', 'mcp-server-card', 'pass'],
    [
      `${DISCOVERY}: a catalog entry {identifier, type, url} may point at any card URL (card passes)`,
      'card-catalog',
      'mcp-server-card',
      'pass',
    ],
    [`${DISCOVERY}: a catalog entry without displayName passes`, 'card-catalog', 'ai-catalog', 'pass'],
    [
      `${DISCOVERY} (Alternatives considered): a card only under /.well-known/mcp/server-card.json warns`,
      'card-well-known',
      'mcp-server-card',
      'warning',
    ],
    [
      `${DISCOVERY}: a card only at the legacy /.well-known/mcp.json warns`,
      'card-legacy-path',
      'mcp-server-card',
      'warning',
    ],
    [
      'experimental-ext-server-card schema.json: a date-versioned $schema fails',
      'card-dated',
      'mcp-server-card',
      'fail',
    ],
    [
      'experimental-ext-server-card ADR 0014: a catalog entry spelling mediaType instead of type warns',
      'card-media-type',
      'ai-catalog',
      'warning',
    ],
  ] as const)('%s', (_rule, fixture, id, expected) => {
    expect(verdict(fixture, id).status).toBe(expected)
  })
})

describe('MCP 2026-07-28', () => {
  test.each([
    [
      `${CACHING}: discover, lists and resources/read with resultType, ttlMs and cacheScope pass`,
      'modern',
      'mcp-cache-hints',
      'pass',
    ],
    [`${CACHING}: results without resultType and cache hints warn`, 'modern-careless', 'mcp-cache-hints', 'warning'],
    [`${CACHING}: n/a for an earlier protocol era`, 'well-made', 'mcp-cache-hints', 'na'],
    [
      `${TRANSPORT} (Server Validation): server/discover sent as Mcp-Method: tools/list gets 400 -32020, passes`,
      'modern',
      'mcp-header-validation',
      'pass',
    ],
    [
      `${TRANSPORT} (Server Validation): accepting a mismatching Mcp-Method fails`,
      'modern-careless',
      'mcp-header-validation',
      'fail',
    ],
    [`${TRANSPORT}: n/a for an earlier protocol era`, 'well-made', 'mcp-header-validation', 'na'],
    [
      `${TRANSPORT} (Earlier Streamable HTTP Revisions): a modern-only server minting Mcp-Session-Id warns`,
      'modern-careless',
      'mcp-session-handling',
      'warning',
    ],
    [`${TRANSPORT}: a modern-only server without session ids passes`, 'modern', 'mcp-session-handling', 'pass'],
    [
      'MCP 2026-07-28 server/discover: a modern server answering it passes the handshake',
      'modern-careless',
      'mcp-initialize',
      'pass',
    ],
  ] as const)('%s', (_rule, fixture, id, expected) => {
    expect(verdict(fixture, id).status).toBe(expected)
  })

  test('the careless server is told what its results lack', () => {
    expect(verdict('modern-careless', 'mcp-cache-hints').details).toContain(
      'server/discover has no resultType, no ttlMs, no cacheScope',
    )
  })
})

describe('OAuth under 2026-07-28', () => {
  test.each([
    [
      `${REGISTRATION}: client_id_metadata_document_supported: true passes`,
      'auth-required',
      'oauth-client-registration',
      'pass',
    ],
    [
      `${REGISTRATION}: a registration_endpoint alone (DCR, deprecated) warns`,
      'auth-dcr-only',
      'oauth-client-registration',
      'warning',
    ],
    [
      'MCP 2026-07-28 basic/authorization (RFC 9207): authorization_response_iss_parameter_supported: true passes',
      'auth-required',
      'oauth-authorization-server',
      'pass',
    ],
    [
      'MCP 2026-07-28 basic/authorization (RFC 9207): metadata without authorization_response_iss_parameter_supported warns',
      'auth-dcr-only',
      'oauth-authorization-server',
      'warning',
    ],
  ] as const)('%s', (_rule, fixture, id, expected) => {
    expect(verdict(fixture, id).status).toBe(expected)
  })
})

describe('MCP Apps', () => {
  test.each([
    [`${APPS} (UI Resource Format): a read mimeType of text/html+skybridge fails`, 'app-skybridge', 'fail'],
    [`${APPS}: a listing mimeType of text/html with a correct read passes`, 'app-listed-html', 'pass'],
    [
      `${APPS} (ext-apps#722: SHOULD is a warning): a view linked only through the flat ui/resourceUri key warns`,
      'app-flat-key',
      'warning',
    ],
    [
      `${APPS} (ext-apps#722: MUST is an error): a referenced resource that does not exist fails`,
      'app-missing',
      'fail',
    ],
  ] as const)('%s', (_rule, fixture, expected) => {
    expect(reports.get(fixture)!.urlKind).toBe('mcp-app')
    expect(verdict(fixture, 'mcp-app-ui-resource').status).toBe(expected)
  })
})
