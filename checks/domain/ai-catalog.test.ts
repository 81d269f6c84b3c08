import { describe, expect, test } from 'bun:test'
import type { AiCatalogArtifact } from '../../core/engine/collectors/ai-catalog.ts'
import type { Outcome } from '../../core/engine/check.ts'
import { context, jsonSnapshot, notFound, snapshot } from '../../tests/support/artifacts.ts'
import { MCP_URL, mcpContext } from '../../tests/support/mcp-artifacts.ts'
import check from './ai-catalog.ts'

const URL = 'https://acme.test/.well-known/ai-catalog.json'
const ENTRY = {
  identifier: 'urn:air:acme.test:mcp:anvils',
  displayName: 'Anvils MCP server',
  type: 'application/mcp-server-card+json',
  url: 'https://acme.test/mcp/server-card',
}
const CATALOG = { specVersion: '1.0', host: { displayName: 'Acme' }, entries: [ENTRY] }

function catalog(
  document: unknown,
  contentType = 'application/ai-catalog+json',
  referenced = [{ url: ENTRY.url, status: 200 as number | null }],
  url = URL,
): AiCatalogArtifact {
  const response = jsonSnapshot(document, { url, headers: { 'content-type': contentType } })
  return { response, document, referenced, via: 'well-known' }
}
const withEntries = (...entries: unknown[]) => catalog({ ...CATALOG, entries })

describe('ai-catalog', () => {
  test.each([
    ['valid catalog', catalog(CATALOG), 'pass'],
    [
      'identifier anchored at a parent domain',
      withEntries({ ...ENTRY, identifier: 'urn:air:test:mcp:anvils' }),
      'pass',
    ],
    [
      'entry with inline data',
      withEntries({ identifier: ENTRY.identifier, type: ENTRY.type, data: { name: 'a/b' } }),
      'pass',
    ],
    [
      'experimental-ext-server-card discovery.md (Server Card Entries): {identifier, type, url} without displayName passes',
      withEntries({ identifier: ENTRY.identifier, type: ENTRY.type, url: ENTRY.url }),
      'pass',
    ],
    [
      'experimental-ext-server-card discovery.md (Hosted Server Card Location): an entry may point at a card on any domain',
      withEntries({
        identifier: ENTRY.identifier,
        type: ENTRY.type,
        url: 'https://mcp-host-saas.test/acme/cards/anvils.json',
      }),
      'pass',
    ],
    [
      'experimental-ext-server-card ADR 0014 (discovery.md: an entry MUST contain type): "mediaType" instead of "type" warns',
      withEntries({ identifier: ENTRY.identifier, mediaType: ENTRY.type, data: { name: 'a/b' } }),
      'warning',
    ],
    ['served as application/json', catalog(CATALOG, 'application/json'), 'warning'],
    ['non-URN identifier', withEntries({ ...ENTRY, identifier: 'anvils' }), 'warning'],
    ['URN of another publisher', withEntries({ ...ENTRY, identifier: 'urn:air:evil.test:mcp:anvils' }), 'warning'],
    [
      'a catalog served from a local address may anchor its URNs at the domain it is published under',
      catalog(
        { ...CATALOG, entries: [{ ...ENTRY, identifier: 'urn:air:example.com:mcp:weather' }] },
        undefined,
        undefined,
        'http://127.0.0.1:8080/.well-known/ai-catalog.json',
      ),
      'pass',
    ],
    ['referenced artefact 404', catalog(CATALOG, undefined, [{ url: ENTRY.url, status: 404 }]), 'warning'],
    [
      'malformed trust manifest signature',
      withEntries({ ...ENTRY, trustManifest: { identity: ENTRY.identifier, signature: 'not-a-jws' } }),
      'warning',
    ],
    ['one invalid entry among valid ones', withEntries(ENTRY, { displayName: 'no id' }), 'warning'],
    ['no entries', withEntries(), 'warning'],
    ['404', { response: notFound(URL), document: undefined, referenced: [] }, 'fail'],
    ['invalid JSON', { response: snapshot({ url: URL, body: '{oops' }), document: undefined, referenced: [] }, 'fail'],
    ['no specVersion', catalog({ entries: [ENTRY] }), 'fail'],
    ['every entry invalid', withEntries({ ...ENTRY, data: {} }), 'fail'],
  ] satisfies [string, AiCatalogArtifact, Outcome['status']][])('%s -> %s', (_name, aiCatalog, expected) => {
    const outcome = check.run({ aiCatalog }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('a referenced artefact that could not be fetched is not held against the catalog', () => {
    expect(
      check.run({ aiCatalog: catalog(CATALOG, undefined, [{ url: ENTRY.url, status: null }]) }, context).status,
    ).toBe('pass')
  })

  test('details name the invalid entry', () => {
    expect(check.run({ aiCatalog: withEntries({ ...ENTRY, data: {} }) }, context).details).toContain(
      'both url and data',
    )
  })

  describe("mcp kinds: the catalog of the MCP URL's origin should lead to this server", () => {
    const MCP_CATALOG = 'https://mcp.acme.test/.well-known/ai-catalog.json'
    const mcpEntry = {
      identifier: 'urn:air:mcp.acme.test:mcp:anvils',
      displayName: 'Anvils',
      type: 'application/mcp-server-card+json',
      url: `${MCP_URL}/server-card`,
    }
    const onOrigin = (...entries: unknown[]): AiCatalogArtifact => {
      const document = { specVersion: '1.0', entries }
      return {
        response: jsonSnapshot(document, {
          url: MCP_CATALOG,
          headers: { 'content-type': 'application/ai-catalog+json' },
        }),
        document,
        referenced: [],
        via: 'well-known',
      }
    }
    const agentCard = {
      identifier: 'urn:air:mcp.acme.test:agent:helper',
      displayName: 'Helper',
      type: 'application/a2a-agent-card+json',
      url: 'https://mcp.acme.test/agent.json',
    }

    test.each([
      ['an entry for the server card under the MCP URL', onOrigin(mcpEntry), 'pass'],
      [
        'a server card published elsewhere',
        onOrigin({ ...mcpEntry, url: 'https://mcp.acme.test/cards/anvils.json' }),
        'pass',
      ],
      [
        'an inline card whose remotes name the server',
        onOrigin({
          ...mcpEntry,
          url: undefined,
          data: { name: 'test.acme/anvils', remotes: [{ type: 'streamable-http', url: MCP_URL }] },
        }),
        'pass',
      ],
      ['only an A2A agent', onOrigin(agentCard), 'warning'],
      [
        'an inline card for another server',
        onOrigin({
          ...mcpEntry,
          url: undefined,
          data: { name: 'test.acme/x', remotes: [{ type: 'streamable-http', url: 'https://other.acme.test/mcp' }] },
        }),
        'warning',
      ],
      [
        'no catalog on the MCP origin',
        { response: notFound(MCP_CATALOG), document: undefined, referenced: [] },
        'fail',
      ],
    ] satisfies [string, AiCatalogArtifact, Outcome['status']][])('%s -> %s', (_name, aiCatalog, expected) => {
      const outcome = check.run({ aiCatalog }, mcpContext)
      expect(outcome.status).toBe(expected)
      if (expected !== 'pass') expect(outcome.recommendation).toBeString()
    })

    test("the recommendation points at this server's card", () => {
      expect(check.run({ aiCatalog: onOrigin(agentCard) }, mcpContext).recommendation).toContain(
        `${MCP_URL}/server-card`,
      )
      const missing = check.run(
        { aiCatalog: { response: notFound(MCP_CATALOG), document: undefined, referenced: [] } },
        mcpContext,
      )
      expect(missing.recommendation).toContain('https://mcp.acme.test/.well-known/ai-catalog.json')
    })

    test('a domain catalog without MCP entries is not asked for one', () => {
      expect(check.run({ aiCatalog: onOrigin(agentCard) }, context).status).toBe('pass')
    })
  })
})
