import { describe, expect, test } from 'bun:test'
import type { McpEndpointProbe, McpEndpointsArtifact } from '../../core/engine/collectors/mcp-endpoints.ts'
import type { Outcome } from '../../core/engine/check.ts'
import { context } from '../../tests/support/artifacts.ts'
import check from './mcp-endpoint-advertised.ts'

const probe = (overrides: Partial<McpEndpointProbe>): McpEndpointProbe => ({
  url: 'https://acme.test/mcp',
  source: 'server-card',
  answered: false,
  authRequired: false,
  status: 404,
  contentType: 'text/plain',
  ...overrides,
})
const blindMiss = [
  probe({ url: 'https://acme.test/mcp', source: 'blind-probe', status: 404 }),
  probe({ url: 'https://acme.test/api/mcp', source: 'blind-probe', status: 404 }),
]
const of = (...probes: McpEndpointProbe[]): McpEndpointsArtifact => ({ probes })

describe('mcp-endpoint-advertised', () => {
  test.each([
    [
      'advertised and answering',
      of(probe({ answered: true, status: 200, serverName: 'acme', contentType: 'application/json' })),
      'pass',
    ],
    ['advertised, auth required', of(probe({ source: 'ai-catalog', authRequired: true, status: 401 })), 'pass'],
    ['found only by a blind probe', of(probe({ source: 'blind-probe', answered: true, status: 200 })), 'warning'],
    ['advertised but not answering', of(probe({ source: 'llms-txt', status: 500 }), ...blindMiss), 'warning'],
    [
      'advertised but unreachable',
      of(probe({ status: null, contentType: undefined, error: 'timeout' }), ...blindMiss),
      'warning',
    ],
    [
      'a homepage link to an HTML page about MCP is not an endpoint',
      of(
        probe({ source: 'homepage', url: 'https://acme.test/docs/mcp', status: 200, contentType: 'text/html' }),
        ...blindMiss,
      ),
      'fail',
    ],
    [
      'a server card naming an HTML page is advertised but not answering',
      of(probe({ status: 200, contentType: 'text/html' }), ...blindMiss),
      'warning',
    ],
    ['nothing at all', of(...blindMiss), 'fail'],
    ['every probe unreachable', of(probe({ source: 'blind-probe', status: null, error: 'refused' })), 'error'],
  ] satisfies [string, McpEndpointsArtifact, Outcome['status']][])('%s -> %s', (_name, mcpEndpoints, expected) => {
    const outcome = check.run({ mcpEndpoints }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test.each([
    [
      'answering endpoints, not the silent ones',
      of(
        probe({ answered: true, status: 200 }),
        probe({ url: 'https://acme.test/v2/mcp', source: 'llms-txt', status: 500 }),
      ),
      [{ url: 'https://acme.test/mcp', source: 'server-card' }],
    ],
    [
      'the blind-probe find',
      of(probe({ source: 'blind-probe', answered: true, status: 200 })),
      [{ url: 'https://acme.test/mcp', source: 'blind-probe' }],
    ],
    ['nothing when no endpoint answers', of(probe({ source: 'llms-txt', status: 500 }), ...blindMiss), undefined],
  ] satisfies [string, McpEndpointsArtifact, unknown][])('its evidence names %s', (_name, mcpEndpoints, endpoints) => {
    const outcome = check.run({ mcpEndpoints }, context)
    expect(outcome.evidence).toEqual(endpoints && { mcpEndpoints: endpoints })
    if (outcome.evidence !== undefined) expect(check.evidence!.safeParse(outcome.evidence).success).toBe(true)
  })

  test('the blind-probe warning tells the site how to advertise the URL it found', () => {
    const outcome = check.run(
      { mcpEndpoints: of(probe({ source: 'blind-probe', answered: true, status: 200 })) },
      context,
    )
    expect(outcome.recommendation).toContain('"url": "https://acme.test/mcp"')
  })
})
