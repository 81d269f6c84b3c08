import { describe, expect, test } from 'bun:test'
import type { AiCatalogArtifact } from '../../core/engine/collectors/ai-catalog.ts'
import type { Outcome } from '../../core/engine/contract.ts'
import { context, jsonSnapshot, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './ai-catalog.ts'

const URL = 'https://acme.test/.well-known/ai-catalog.json'
const ENTRY = {
  identifier: 'urn:air:acme.test:mcp:anvils',
  displayName: 'Anvils MCP server',
  type: 'application/mcp-server-card+json',
  url: 'https://acme.test/mcp/server-card',
}
const CATALOG = { specVersion: '1.0', host: { displayName: 'Acme' }, entries: [ENTRY] }

function catalog(document: unknown, contentType = 'application/ai-catalog+json', referenced = [{ url: ENTRY.url, status: 200 as number | null }]): AiCatalogArtifact {
  const response = jsonSnapshot(document, { url: URL, headers: { 'content-type': contentType } })
  return { response, document, referenced, via: 'well-known' }
}
const withEntries = (...entries: unknown[]) => catalog({ ...CATALOG, entries })

describe('ai-catalog', () => {
  test.each([
    ['valid catalog', catalog(CATALOG), 'pass'],
    ['identifier anchored at a parent domain', withEntries({ ...ENTRY, identifier: 'urn:air:test:mcp:anvils' }), 'pass'],
    ['entry with inline data and mediaType', withEntries({ identifier: ENTRY.identifier, displayName: 'x', mediaType: ENTRY.type, data: { name: 'a/b' } }), 'pass'],
    ['served as application/json', catalog(CATALOG, 'application/json'), 'warning'],
    ['non-URN identifier', withEntries({ ...ENTRY, identifier: 'anvils' }), 'warning'],
    ['URN of another publisher', withEntries({ ...ENTRY, identifier: 'urn:air:evil.test:mcp:anvils' }), 'warning'],
    ['referenced artefact 404', catalog(CATALOG, undefined, [{ url: ENTRY.url, status: 404 }]), 'warning'],
    ['malformed trust manifest signature', withEntries({ ...ENTRY, trustManifest: { identity: ENTRY.identifier, signature: 'not-a-jws' } }), 'warning'],
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
    expect(check.run({ aiCatalog: catalog(CATALOG, undefined, [{ url: ENTRY.url, status: null }]) }, context).status).toBe('pass')
  })

  test('details name the invalid entry', () => {
    expect(check.run({ aiCatalog: withEntries({ ...ENTRY, data: {} }) }, context).details).toContain('both url and data')
  })
})
