import { describe, expect, test } from 'bun:test'
import type { McpServerCardArtifact } from '../../core/engine/collectors/mcp-server-card.ts'
import type { Outcome } from '../../core/engine/check.ts'
import { SERVER_CARD_SCHEMA } from '../../core/engine/lib/server-card.ts'
import { context, jsonSnapshot, notFound } from '../../tests/support/artifacts.ts'
import { MCP_URL, mcpContext } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-server-card.ts'

const CARD = {
  $schema: SERVER_CARD_SCHEMA,
  name: 'test.acme/anvils',
  version: '1.2.0',
  description: 'Anvil catalog and ordering',
  remotes: [{ type: 'streamable-http', url: 'https://acme.test/mcp' }],
}
const CARD_URL = 'https://acme.test/.well-known/mcp/server-card.json'
/** Where an AI-catalog entry of acme.test points: any URL will do (discovery.md, Hosted Server Card Location). */
const CATALOGUED_URL = 'https://cards.acme.test/anvils/server-card'
const CORS = { 'access-control-allow-origin': '*' }
const CARD_TYPE = { 'content-type': 'application/mcp-server-card+json', ...CORS }
type Where = { url: string; via: McpServerCardArtifact['probes'][number]['via'] }
const CATALOGUED: Where = { url: CATALOGUED_URL, via: 'ai-catalog' }

function found(
  card: Record<string, unknown>,
  headers: Record<string, string> = CARD_TYPE,
  runtime: McpServerCardArtifact['runtime'] = null,
  { url, via }: Where = CATALOGUED,
): McpServerCardArtifact {
  const response = jsonSnapshot(card, { url, headers })
  return { probes: [{ url, via, response }], found: { url, via, response, card }, runtime }
}
const DISCOVERY = 'experimental-ext-server-card discovery.md'

const none: McpServerCardArtifact = {
  probes: [
    { url: CARD_URL, via: 'well-known', response: notFound(CARD_URL) },
    {
      url: 'https://acme.test/.well-known/mcp.json',
      via: 'well-known-legacy',
      response: notFound('https://acme.test/.well-known/mcp.json'),
    },
  ],
  found: null,
  runtime: null,
}
const legacy = {
  serverInfo: { name: 'anvils', version: '1.2.0' },
  transport: { type: 'streamable-http', endpoint: '/mcp' },
  capabilities: {},
}

describe('mcp-server-card', () => {
  test.each([
    ['valid SEP-2127 card with CORS', found(CARD), 'pass'],
    [
      `${DISCOVERY} (Hosted Server Card Location): a card an AI-catalog entry points to, on any URL, passes`,
      found(CARD),
      'pass',
    ],
    [
      `${DISCOVERY} (Alternatives considered): a card only under /.well-known/mcp/server-card.json is not recommended, warns`,
      found(CARD, CARD_TYPE, null, { url: CARD_URL, via: 'well-known' }),
      'warning',
    ],
    [
      `${DISCOVERY}: a SEP-2127 card only at the legacy /.well-known/mcp.json warns`,
      found(CARD, CARD_TYPE, null, { url: 'https://acme.test/.well-known/mcp.json', via: 'well-known-legacy' }),
      'warning',
    ],
    [
      'experimental-ext-server-card schema.json ($schema pattern; examples/ServerCard/invalid/date-versioned-schema.json): a date-versioned $schema fails',
      found({ ...CARD, $schema: 'https://static.modelcontextprotocol.io/schemas/2025-11-25/server-card.schema.json' }),
      'fail',
    ],
    [
      'experimental-ext-server-card schema.json: a date-versioned $schema fails even next to legacy fields',
      found({
        ...legacy,
        $schema: 'https://static.modelcontextprotocol.io/schemas/2025-06-18/server-card.schema.json',
      }),
      'fail',
    ],
    ['matches the runtime serverInfo', found(CARD, undefined, { name: 'anvils', version: '1.2.0' }), 'pass'],
    ['legacy SEP-1649 card', found(legacy), 'warning'],
    ['served as application/json', found(CARD, { 'content-type': 'application/json', ...CORS }), 'warning'],
    ['no CORS', found(CARD, { 'content-type': 'application/mcp-server-card+json' }), 'warning'],
    ['disagrees with the runtime', found(CARD, undefined, { name: 'anvils', version: '2.0.0' }), 'warning'],
    ['none found', none, 'fail'],
    ['fails the schema', found({ ...CARD, name: 'no namespace' }), 'fail'],
    ['claims the schema but misses fields', found({ $schema: SERVER_CARD_SCHEMA, name: 'test.acme/anvils' }), 'fail'],
    [
      'every probe unreachable',
      { ...none, probes: [{ url: CARD_URL, via: 'well-known', response: null, error: 'timeout' }] },
      'error',
    ],
  ] satisfies [string, McpServerCardArtifact, Outcome['status']][])('%s -> %s', (_name, mcpServerCard, expected) => {
    const outcome = check.run({ mcpServerCard }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('a card inlined in the AI catalog is judged without a Content-Type of its own', () => {
    const catalog = jsonSnapshot(
      { entries: [] },
      {
        url: 'https://acme.test/.well-known/ai-catalog.json',
        headers: { 'content-type': 'application/ai-catalog+json', ...CORS },
      },
    )
    const url = `${catalog.url}#entries/0`
    const artifact: McpServerCardArtifact = {
      probes: [{ url, via: 'ai-catalog', response: catalog }],
      found: { url, via: 'ai-catalog', response: catalog, card: CARD, inline: true },
      runtime: null,
    }
    expect(check.run({ mcpServerCard: artifact }, context).status).toBe('pass')
  })

  test('schema problems are named', () => {
    expect(
      check.run({ mcpServerCard: found({ ...CARD, remotes: [{ type: 'websocket', url: 'wss://x' }] }) }, context)
        .details,
    ).toContain('remotes[0].type')
  })

  describe('mcp kinds: the card is compared with the running server', () => {
    const MCP_CARD_URL = `${MCP_URL}/server-card`
    const RUNTIME = { name: 'anvils', version: '1.2.0', protocolVersion: '2025-11-25' }
    const remote = { type: 'streamable-http', url: MCP_URL, supportedProtocolVersions: ['2025-06-18', '2025-11-25'] }
    const mcpCard = (
      card: Record<string, unknown>,
      runtime: McpServerCardArtifact['runtime'] = RUNTIME,
    ): McpServerCardArtifact => {
      const response = jsonSnapshot(card, {
        url: MCP_CARD_URL,
        headers: { 'content-type': 'application/mcp-server-card+json', ...CORS },
      })
      return {
        probes: [{ url: MCP_CARD_URL, via: 'mcp-url', response }],
        found: { url: MCP_CARD_URL, via: 'mcp-url', response, card },
        runtime,
      }
    }

    test.each([
      [
        `${DISCOVERY}: a card at <mcp-url>/server-card (the reserved location) passes`,
        mcpCard({ ...CARD, remotes: [remote] }),
        'pass',
      ],
      [
        'a templated remote is not held against the card',
        mcpCard({ ...CARD, remotes: [{ type: 'streamable-http', url: '{baseUrl}/mcp' }] }),
        'pass',
      ],
      ['a card without remotes', mcpCard({ ...CARD, remotes: undefined }), 'pass'],
      ['no runtime identity to compare with', mcpCard({ ...CARD, name: 'test.acme/other' }, null), 'pass'],
      ['another version than the server', mcpCard({ ...CARD, version: '1.1.0', remotes: [remote] }), 'warning'],
      ['another server name', mcpCard({ ...CARD, name: 'test.acme/hammers', remotes: [remote] }), 'warning'],
      [
        'remotes that leave out the scanned endpoint',
        mcpCard({ ...CARD, remotes: [{ ...remote, url: 'https://mcp.acme.test/v2/mcp' }] }),
        'warning',
      ],
      [
        'the negotiated version not among supportedProtocolVersions',
        mcpCard({ ...CARD, remotes: [{ ...remote, supportedProtocolVersions: ['2025-06-18'] }] }),
        'warning',
      ],
      [
        'a legacy card naming another server',
        mcpCard({
          serverInfo: { name: 'hammers', version: '1.2.0' },
          transport: { type: 'streamable-http', endpoint: MCP_URL },
        }),
        'warning',
      ],
    ] satisfies [string, McpServerCardArtifact, Outcome['status']][])('%s -> %s', (_name, mcpServerCard, expected) => {
      const outcome = check.run({ mcpServerCard }, mcpContext)
      expect(outcome.status).toBe(expected)
      if (expected === 'warning') expect(outcome.recommendation).toBeString()
    })

    test('a server scanned at a local address is not held to the deployed endpoint its card names', () => {
      const local = { target: { ...mcpContext.target, mcpUrl: 'http://127.0.0.1:8931/mcp' } }
      expect(check.run({ mcpServerCard: mcpCard({ ...CARD, remotes: [remote] }) }, local).status).toBe('pass')
    })

    test('details name the runtime and the scanned endpoint', () => {
      const version = check.run({ mcpServerCard: mcpCard({ ...CARD, version: '1.1.0' }) }, mcpContext)
      expect(version.details).toContain('the server reports anvils@1.2.0')
      const endpoint = check.run(
        { mcpServerCard: mcpCard({ ...CARD, remotes: [{ ...remote, url: 'https://mcp.acme.test/v2/mcp' }] }) },
        mcpContext,
      )
      expect(endpoint.details).toContain(MCP_URL)
      expect(endpoint.recommendation).toContain(`list ${MCP_URL} in remotes`)
    })

    test('a missing card is looked for at <mcp-url>/server-card first', () => {
      const probes: McpServerCardArtifact['probes'] = [
        { url: MCP_CARD_URL, via: 'mcp-url', response: notFound(MCP_CARD_URL) },
      ]
      const outcome = check.run({ mcpServerCard: { probes, found: null, runtime: RUNTIME } }, mcpContext)
      expect(outcome.status).toBe('fail')
      expect(outcome.recommendation).toContain(MCP_CARD_URL)
    })
  })
})
