import { describe, expect, test } from 'bun:test'
import type { AgentProbe, AgentProbes } from '../../core/engine/collectors/agent-probes.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, snapshot } from '../../tests/support/artifacts.ts'
import { mcpContext } from '../../tests/support/mcp-artifacts.ts'
import check from './web-bot-auth-accepted.ts'

const page = (status = 200, headers: Record<string, string> = {}) =>
  snapshot({
    status,
    headers: { 'content-type': 'text/html', ...headers },
    body: status === 200 ? '<h1>Acme</h1>' : 'Forbidden',
  })
const challenged = page(403, { 'cf-mitigated': 'challenge' })

function probes(
  signedResponse: HttpSnapshot,
  unsignedResponse: HttpSnapshot,
  signed = true,
  browserResponse: HttpSnapshot = page(),
): AgentProbes {
  const probe = (
    agent: string,
    purpose: AgentProbe['purpose'],
    response: HttpSnapshot,
    isSigned = false,
  ): AgentProbe => ({
    agent,
    purpose,
    userAgent: 'Mozilla/5.0 (compatible; AgentReadiness/1.0)',
    response,
    signed: isSigned,
  })
  return {
    probes: [
      probe('browser', 'browser', browserResponse),
      probe('scanner-signed', 'scanner-signed', signedResponse, signed),
      probe('scanner-unsigned', 'scanner-unsigned', unsignedResponse),
    ],
    errors: [],
  }
}

describe('web-bot-auth-accepted', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'emerging',
      maturity: 'emerging',
      bonus: false,
      draft: true,
      maxScore: 3,
    })
    expect(check.meta.appliesTo).toEqual(['domain', 'mcp', 'mcp-app'])
  })

  test.each([
    ['both served', 'pass', probes(page(), page())],
    ['the signature lifts a block', 'pass', probes(page(), challenged)],
    ['signed treated worse than unsigned', 'warning', probes(page(403), page())],
    ['signed challenged like unsigned', 'warning', probes(challenged, challenged)],
    ['no signing key configured', 'na', probes(page(), page(), false)],
  ] as const)('%s -> %s', (_name, expected, agentProbes) => {
    const outcome = check.run({ agentProbes }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('details compare signed and unsigned', () => {
    const outcome = check.run({ agentProbes: probes(page(403), page()) }, context)
    expect(outcome.details).toContain('403')
    expect(outcome.details).toContain('unsigned got 200')
  })

  test('a signed request that did not complete is an error', () => {
    const agentProbes: AgentProbes = {
      probes: probes(page(), page()).probes.filter((probe) => probe.purpose !== 'scanner-signed'),
      errors: [{ agent: 'scanner-signed', purpose: 'scanner-signed', userAgent: 'x', error: 'timeout' }],
    }
    expect(check.run({ agentProbes }, context).status).toBe('error')
  })

  test('mcp kinds compare the signed and unsigned initialize', () => {
    const mcp = { target: { ...context.target, kind: 'mcp' as const, mcpUrl: 'https://acme.test/mcp' } }
    expect(check.run({ agentProbes: probes(page(403), page()) }, mcp).details).toContain('the MCP endpoint')
  })

  describe('mcp kinds: the signed request is an initialize POST to the MCP endpoint', () => {
    const rpc = snapshot({
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"result":{}}',
    })
    const interstitial = snapshot({
      headers: { 'content-type': 'text/html' },
      body: '<!doctype html><html><body>Verifying you are human</body></html>',
    })

    test.each([
      ['signed and unsigned both answered', 'pass', probes(rpc, rpc, true, rpc)],
      ['the signature gets past an HTML interstitial', 'pass', probes(rpc, interstitial, true, rpc)],
      ['the signed request gets an HTML page instead of JSON-RPC', 'warning', probes(interstitial, rpc, true, rpc)],
      ['both refused', 'warning', probes(page(403), page(403), true, rpc)],
      ['no signing key', 'na', probes(rpc, rpc, false, rpc)],
    ] as const)('%s -> %s', (_name, expected, agentProbes) => {
      const outcome = check.run({ agentProbes }, mcpContext)
      expect(outcome.status).toBe(expected)
      if (expected === 'warning') expect(outcome.recommendation).toContain('the MCP endpoint')
    })
  })
})
