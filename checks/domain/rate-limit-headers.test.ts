import { describe, expect, test } from 'bun:test'
import { type AgentProbes, mcpSessionEvidence } from '../../core/engine/collectors/agent-probes.ts'
import type { ApiSignals } from '../../core/engine/collectors/api-signals.ts'
import type { OpenapiArtifact } from '../../core/engine/collectors/openapi.ts'
import type { PaymentProbesArtifact } from '../../core/engine/collectors/payment-probes.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, jsonSnapshot, snapshot } from '../../tests/support/artifacts.ts'
import { mcpServer, rpcError, rpcResult } from '../../tests/support/mcp-artifacts.ts'
import check from './rate-limit-headers.ts'

const apiSignals = (hasApi: boolean): ApiSignals => ({
  hasApi,
  rest: hasApi,
  graphql: false,
  reasons: hasApi ? ['OpenAPI at /openapi.json'] : [],
  hasAuth: false,
  authReasons: [],
})
const noOpenapi: OpenapiArtifact = {
  source: null,
  url: null,
  response: null,
  document: null,
  valid: false,
  errors: [],
  tried: [],
}
const noAgents: AgentProbes = { probes: [] }

function probes(api: HttpSnapshot, root: HttpSnapshot = snapshot()): PaymentProbesArtifact {
  return {
    responses: [
      { url: 'https://acme.test/', via: 'root', response: root },
      { url: 'https://acme.test/api', via: 'api', response: api },
    ],
  }
}

const apiWith = (headers: Record<string, string>, status = 200) =>
  jsonSnapshot(
    { ok: true },
    { url: 'https://acme.test/api', status, headers: { 'content-type': 'application/json', ...headers } },
  )

function run(
  api: HttpSnapshot,
  options: { hasApi?: boolean; agentProbes?: AgentProbes; kind?: 'domain' | 'mcp' } = {},
) {
  return check.run(
    {
      apiSignals: apiSignals(options.hasApi ?? true),
      notFound: { page: snapshot({ status: 404 }), api: null },
      openapi: noOpenapi,
      paymentProbes: probes(api),
      agentProbes: options.agentProbes ?? noAgents,
    },
    { target: { ...context.target, kind: options.kind ?? 'domain' } },
  )
}

const agentProbe = (response: HttpSnapshot): AgentProbes => ({
  probes: [{ agent: 'ChatGPT-User', purpose: 'user', userAgent: 'ChatGPT-User/1.0', response }],
})

describe('rate-limit-headers', () => {
  test.each([
    [
      'IETF fields (draft-11)',
      'pass',
      apiWith({ 'RateLimit-Policy': '"default";q=100;w=60', RateLimit: '"default";r=50;t=30' }),
      {},
    ],
    [
      'legacy X-RateLimit-* only',
      'warning',
      apiWith({ 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '99' }),
      {},
    ],
    ['IETF fields that do not parse', 'warning', apiWith({ RateLimit: 'limit=100, remaining=50' }), {}],
    ['no rate-limit fields on the API', 'fail', apiWith({}), {}],
    ['a 429 without Retry-After', 'fail', apiWith({ 'RateLimit-Policy': '"default";q=100;w=60' }, 429), {}],
    [
      'a 429 to an AI agent without Retry-After',
      'fail',
      apiWith({ 'RateLimit-Policy': '"default";q=100;w=60' }),
      { agentProbes: agentProbe(snapshot({ status: 429 })) },
    ],
    [
      'a 429 with Retry-After and IETF fields',
      'pass',
      apiWith({ 'Retry-After': '30', 'RateLimit-Policy': '"default";q=100;w=60' }, 429),
      {},
    ],
    ['no API signals', 'na', apiWith({}), { hasApi: false }],
    [
      'an MCP endpoint with IETF fields',
      'pass',
      apiWith({}),
      { kind: 'mcp', hasApi: false, agentProbes: agentProbe(apiWith({ 'RateLimit-Policy': '"mcp";q=60;w=60' })) },
    ],
    ['an MCP endpoint without fields', 'fail', apiWith({}), { kind: 'mcp', agentProbes: agentProbe(apiWith({})) }],
  ] as const)('%s -> %s', (_name, expected, api, options) => {
    const outcome = run(api, options)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('the homepage response is not counted as an API response', () => {
    const outcome = check.run(
      {
        apiSignals: apiSignals(true),
        notFound: { page: snapshot({ status: 404 }), api: null },
        openapi: noOpenapi,
        paymentProbes: probes(apiWith({}), snapshot({ headers: { 'x-ratelimit-limit': '10' } })),
        agentProbes: noAgents,
      },
      context,
    )
    expect(outcome.status).toBe('fail')
    expect(outcome.details).toContain('GET /api')
  })

  describe("mcp kinds: the agent probes and the scanner's own MCP session", () => {
    const IETF = { 'ratelimit-policy': '"mcp";q=60;w=60', ratelimit: '"mcp";r=59;t=60' }
    const rpcJson = jsonSnapshot({ jsonrpc: '2.0', id: 1, result: {} })
    const withSession = (mcp = mcpServer(), probe = rpcJson): AgentProbes => ({
      ...agentProbe(probe),
      mcpSession: mcpSessionEvidence(mcp),
    })
    const busyToolCall = (headers: Record<string, string>) =>
      mcpServer({
        toolCalls: [
          {
            name: 'search_anvils',
            exchange: rpcError('tools/call', -32603, { status: 429, headers }),
            result: undefined,
          },
        ],
      })

    test.each([
      [
        'IETF fields on the session responses only',
        'pass',
        withSession(
          mcpServer({ ping: rpcResult('ping', {}, { headers: { 'content-type': 'application/json', ...IETF } }) }),
        ),
      ],
      [
        'legacy fields on tools/list probes',
        'warning',
        withSession(
          mcpServer({
            probes: { invalidCursor: rpcError('tools/list', -32602, { headers: { 'x-ratelimit-limit': '60' } }) },
          }),
        ),
      ],
      [
        'a 429 to a tool call without Retry-After',
        'fail',
        withSession(busyToolCall({ 'content-type': 'application/json', ...IETF })),
      ],
      [
        'a 429 to a tool call with Retry-After',
        'pass',
        withSession(busyToolCall({ 'content-type': 'application/json', 'retry-after': '5', ...IETF })),
      ],
      ['no fields anywhere', 'fail', withSession()],
    ] as const)('%s -> %s', (_name, expected, agentProbes) => {
      const outcome = run(apiWith({}), { kind: 'mcp', hasApi: false, agentProbes })
      expect(outcome.status).toBe(expected)
      if (expected !== 'pass') expect(outcome.recommendation).toBeString()
    })

    test('details name the MCP request that got the bare 429', () => {
      const outcome = run(apiWith({}), { kind: 'mcp', agentProbes: withSession(busyToolCall({})) })
      expect(outcome.details).toContain('MCP tools/call search_anvils')
    })
  })
})
