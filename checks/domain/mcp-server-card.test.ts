import { describe, expect, test } from 'bun:test'
import type { McpServerCardArtifact } from '../../core/engine/collectors/mcp-server-card.ts'
import type { Outcome } from '../../core/engine/contract.ts'
import { SERVER_CARD_SCHEMA } from '../../core/engine/lib/discovery.ts'
import { context, jsonSnapshot, notFound } from '../../tests/support/artifacts.ts'
import check from './mcp-server-card.ts'

const CARD = {
  $schema: SERVER_CARD_SCHEMA,
  name: 'test.acme/anvils',
  version: '1.2.0',
  description: 'Anvil catalog and ordering',
  remotes: [{ type: 'streamable-http', url: 'https://acme.test/mcp' }],
}
const CARD_URL = 'https://acme.test/.well-known/mcp/server-card.json'
const CORS = { 'access-control-allow-origin': '*' }

function found(
  card: Record<string, unknown>,
  headers: Record<string, string> = { 'content-type': 'application/mcp-server-card+json', ...CORS },
  runtime: McpServerCardArtifact['runtime'] = null,
): McpServerCardArtifact {
  const response = jsonSnapshot(card, { url: CARD_URL, headers })
  return { probes: [{ url: CARD_URL, via: 'well-known', response }], found: { url: CARD_URL, via: 'well-known', response, card }, runtime }
}

const none: McpServerCardArtifact = {
  probes: [
    { url: CARD_URL, via: 'well-known', response: notFound(CARD_URL) },
    { url: 'https://acme.test/.well-known/mcp.json', via: 'well-known-legacy', response: notFound('https://acme.test/.well-known/mcp.json') },
  ],
  found: null,
  runtime: null,
}
const legacy = { serverInfo: { name: 'anvils', version: '1.2.0' }, transport: { type: 'streamable-http', endpoint: '/mcp' }, capabilities: {} }

describe('mcp-server-card', () => {
  test.each([
    ['valid SEP-2127 card with CORS', found(CARD), 'pass'],
    ['matches the runtime serverInfo', found(CARD, undefined, { name: 'anvils', version: '1.2.0' }), 'pass'],
    ['legacy SEP-1649 card', found(legacy), 'warning'],
    ['served as application/json', found(CARD, { 'content-type': 'application/json', ...CORS }), 'warning'],
    ['no CORS', found(CARD, { 'content-type': 'application/mcp-server-card+json' }), 'warning'],
    ['disagrees with the runtime', found(CARD, undefined, { name: 'anvils', version: '2.0.0' }), 'warning'],
    ['none found', none, 'fail'],
    ['fails the schema', found({ ...CARD, name: 'no namespace' }), 'fail'],
    ['claims the schema but misses fields', found({ $schema: SERVER_CARD_SCHEMA, name: 'test.acme/anvils' }), 'fail'],
    ['every probe unreachable', { ...none, probes: [{ url: CARD_URL, via: 'well-known', response: null, error: 'timeout' }] }, 'error'],
  ] satisfies [string, McpServerCardArtifact, Outcome['status']][])('%s -> %s', (_name, mcpServerCard, expected) => {
    const outcome = check.run({ mcpServerCard }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('a card inlined in the AI catalog is judged without a Content-Type of its own', () => {
    const catalog = jsonSnapshot({ entries: [] }, { url: 'https://acme.test/.well-known/ai-catalog.json', headers: { 'content-type': 'application/ai-catalog+json', ...CORS } })
    const url = `${catalog.url}#entries/0`
    const artifact: McpServerCardArtifact = { probes: [{ url, via: 'ai-catalog', response: catalog }], found: { url, via: 'ai-catalog', response: catalog, card: CARD, inline: true }, runtime: null }
    expect(check.run({ mcpServerCard: artifact }, context).status).toBe('pass')
  })

  test('schema problems are named', () => {
    expect(check.run({ mcpServerCard: found({ ...CARD, remotes: [{ type: 'websocket', url: 'wss://x' }] }) }, context).details).toContain('remotes[0].type')
  })
})
