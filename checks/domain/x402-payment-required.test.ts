import { describe, expect, test } from 'bun:test'
import { type AgentProbes, mcpSessionEvidence } from '../../core/engine/collectors/agent-probes.ts'
import type { CommerceSignals } from '../../core/engine/collectors/commerce-signals.ts'
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import type { PaymentProbesArtifact } from '../../core/engine/collectors/payment-probes.ts'
import type { Outcome } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, jsonSnapshot, notFound, snapshot } from '../../tests/support/artifacts.ts'
import { mcpContext, mcpServer, rpcResult } from '../../tests/support/mcp-artifacts.ts'
import check from './x402-payment-required.ts'

const commerce = (isCommerce: boolean): CommerceSignals => ({
  isCommerce,
  reasons: isCommerce ? ['Product JSON-LD'] : [],
  productUrls: [],
  pricingUrl: null,
})

// The decoded example of the x402 v2 HTTP transport document (docs/checks.md §13.1).
const V2 = {
  x402Version: 2,
  error: 'PAYMENT-SIGNATURE header is required',
  resource: { url: 'https://acme.test/api/weather', description: 'Weather', mimeType: 'application/json' },
  accepts: [
    {
      scheme: 'exact',
      network: 'eip155:84532',
      amount: '10000',
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      maxTimeoutSeconds: 60,
      extra: { name: 'USDC', version: '2' },
    },
  ],
}
const V1 = {
  x402Version: 1,
  error: 'X-PAYMENT header is required',
  accepts: [
    {
      scheme: 'exact',
      network: 'base-sepolia',
      maxAmountRequired: '10000',
      resource: 'https://acme.test/api/weather',
      description: 'Weather',
      mimeType: 'application/json',
      payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      maxTimeoutSeconds: 60,
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    },
  ],
}
const noAgents: AgentProbes = { probes: [] }
type McpToolResult = NonNullable<McpServerArtifact['toolCalls'][number]['result']>
const base64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64')
const paid = (overrides: Partial<HttpSnapshot>) =>
  snapshot({ url: 'https://acme.test/api/weather', status: 402, ...overrides })

function probes(extra?: HttpSnapshot): PaymentProbesArtifact {
  return {
    responses: [
      { url: 'https://acme.test/', via: 'root', response: snapshot() },
      { url: 'https://acme.test/api', via: 'api', response: notFound('https://acme.test/api') },
      ...(extra ? [{ url: extra.url, via: 'openapi-paid' as const, operation: 'GET /weather', response: extra }] : []),
    ],
  }
}

describe('x402-payment-required', () => {
  test.each<[string, Outcome['status'], PaymentProbesArtifact, boolean]>([
    [
      'a valid v2 PAYMENT-REQUIRED header',
      'pass',
      probes(paid({ headers: { 'payment-required': base64(V2) }, body: '{}' })),
      false,
    ],
    [
      'a URL-safe base64 header',
      'pass',
      probes(paid({ headers: { 'payment-required': Buffer.from(JSON.stringify(V2)).toString('base64url') } })),
      false,
    ],
    [
      'legacy v1 body only',
      'warning',
      probes(jsonSnapshot(V1, { url: 'https://acme.test/api/weather', status: 402 })),
      true,
    ],
    [
      'a v2 header that misses payTo',
      'warning',
      probes(
        paid({ headers: { 'payment-required': base64({ ...V2, accepts: [{ ...V2.accepts[0], payTo: undefined }] }) } }),
      ),
      true,
    ],
    [
      'a generic JSON payment-required envelope',
      'warning',
      probes(jsonSnapshot({ error: 'Payment required' }, { url: 'https://acme.test/api/weather', status: 402 })),
      true,
    ],
    ['a bare 402', 'fail', probes(paid({ headers: { 'content-type': 'text/html' }, body: '<h1>402</h1>' })), true],
    ['a commerce site with no 402 anywhere', 'fail', probes(), true],
    ['no 402 and no commerce or payment signal', 'na', probes(), false],
  ])('%s -> %s', (_name, expected, paymentProbes, isCommerce) => {
    const outcome = check.run({ paymentProbes, commerceSignals: commerce(isCommerce), agentProbes: noAgents }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('an OpenAPI operation that declares payment is a payment signal', () => {
    const outcome = check.run(
      {
        paymentProbes: probes(jsonSnapshot({ ok: true }, { url: 'https://acme.test/api/weather' })),
        commerceSignals: commerce(false),
        agentProbes: noAgents,
      },
      context,
    )
    expect(outcome.status).toBe('fail')
    expect(outcome.details).toContain('GET /weather')
  })

  test('details name the accepted scheme and network', () => {
    const outcome = check.run(
      {
        paymentProbes: probes(paid({ headers: { 'payment-required': base64(V2) } })),
        commerceSignals: commerce(false),
        agentProbes: noAgents,
      },
      context,
    )
    expect(outcome.details).toContain('/api/weather')
    expect(outcome.details).toContain('exact eip155:84532')
  })

  test('MCP kinds: no 402 on the origin is na without commerce gating', () => {
    const outcome = check.run(
      { paymentProbes: probes(), commerceSignals: commerce(true), agentProbes: noAgents },
      { target: { ...context.target, kind: 'mcp', mcpUrl: 'https://acme.test/mcp' } },
    )
    expect(outcome.status).toBe('na')
  })

  describe('MCP kinds: tool results the scan already has (never pays)', () => {
    const called = (result: McpToolResult, extra: Partial<McpServerArtifact> = {}): AgentProbes => ({
      probes: [],
      mcpSession: mcpSessionEvidence(
        mcpServer({ toolCalls: [{ name: 'forecast', exchange: rpcResult('tools/call', result), result }], ...extra }),
      ),
    })
    const envelope = (data: unknown, code = 402) => [
      { type: 'text', text: JSON.stringify({ 'x402/error': { code, message: 'Payment required', data } }) },
    ]
    const PAID = { isError: true, structuredContent: V2, content: envelope(V2) }
    const run = (agentProbes: AgentProbes, paymentProbes = probes()) =>
      check.run({ paymentProbes, commerceSignals: commerce(false), agentProbes }, mcpContext)

    test.each<[string, Outcome['status'], AgentProbes]>([
      ['isError with structuredContent PaymentRequired', 'pass', called(PAID)],
      ['requirements only in the x402/error text', 'warning', called({ isError: true, content: envelope(V2) })],
      [
        'PaymentRequired in a result not flagged isError',
        'warning',
        called({ structuredContent: V2, content: envelope(V2) }),
      ],
      [
        'PaymentRequired that misses payTo',
        'warning',
        called({ ...PAID, structuredContent: { ...V2, accepts: [{ ...V2.accepts[0], payTo: undefined }] } }),
      ],
      ['an x402/error envelope with another code', 'warning', called({ isError: true, content: envelope(V2, 500) })],
      [
        'a plain "payment required" error',
        'warning',
        called({ isError: true, content: [{ type: 'text', text: 'Payment required: subscribe at acme.test' }] }),
      ],
      [
        'an HTTP 402 from the endpoint with a v2 header',
        'pass',
        {
          probes: [],
          mcpSession: mcpSessionEvidence(
            mcpServer({
              toolCalls: [
                {
                  name: 'forecast',
                  exchange: rpcResult('tools/call', {}, { status: 402, headers: { 'payment-required': base64(V2) } }),
                },
              ],
            }),
          ),
        },
      ],
      ['an ordinary result', 'na', called({ content: [{ type: 'text', text: 'Sunny, 21°C' }] })],
      [
        'an error that is not about payment',
        'na',
        called({ isError: true, content: [{ type: 'text', text: 'Unknown city' }] }),
      ],
      ['no MCP session evidence', 'na', noAgents],
    ])('%s -> %s', (_name, expected, agentProbes) => {
      const outcome = run(agentProbes)
      expect(outcome.status).toBe(expected)
      if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
      if (expected === 'na') expect(outcome.naReason).toContain('never pays')
    })

    test('the best evidence wins: a valid tool result beats a bare 402 on the origin', () => {
      expect(
        run(called(PAID), probes(paid({ headers: { 'content-type': 'text/html' }, body: '<h1>402</h1>' }))).status,
      ).toBe('pass')
      expect(
        run(noAgents, probes(paid({ headers: { 'content-type': 'text/html' }, body: '<h1>402</h1>' }))).status,
      ).toBe('fail')
    })

    test('details name the tool and the accepted option', () => {
      const outcome = run(called(PAID))
      expect(outcome.details).toContain('tools/call forecast')
      expect(outcome.details).toContain('exact eip155:84532')
    })
  })
})
