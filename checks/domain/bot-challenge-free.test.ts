import { describe, expect, test } from 'bun:test'
import type { AgentProbe, AgentProbes } from '../../core/engine/collectors/agent-probes.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, snapshot } from '../../tests/support/artifacts.ts'
import { mcpContext } from '../../tests/support/mcp-artifacts.ts'
import check from './bot-challenge-free.ts'

const page = (status = 200, body = '<html><body><h1>Acme</h1></body></html>', headers: Record<string, string> = {}) =>
  snapshot({ status, headers: { 'content-type': 'text/html', ...headers }, body })
const challengePage = page(403, '<html><head><title>Just a moment...</title></head></html>', {
  'cf-mitigated': 'challenge',
})

const AGENTS: [string, AgentProbe['purpose']][] = [
  ['browser', 'browser'],
  ['ChatGPT-User', 'user'],
  ['Claude-User', 'user'],
  ['PerplexityBot', 'search'],
  ['OAI-SearchBot', 'search'],
  ['ClaudeBot', 'training'],
  ['GPTBot', 'training'],
  ['scanner-signed', 'scanner-signed'],
  ['scanner-unsigned', 'scanner-unsigned'],
]

/** Every agent gets `base` unless overridden by agent name. */
function probes(
  overrides: Record<string, HttpSnapshot> = {},
  base = page(),
  extra: Partial<AgentProbes> = {},
): AgentProbes {
  return {
    probes: AGENTS.filter(([agent]) => !extra.errors?.some((error) => error.agent === agent)).map(
      ([agent, purpose]) => ({
        agent,
        purpose,
        userAgent: `${agent}/1.0`,
        response: overrides[agent] ?? base,
        signed: purpose === 'scanner-signed',
      }),
    ),
    errors: [],
    ...extra,
  }
}

describe('bot-challenge-free', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'required',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 10,
    })
    expect(check.meta.appliesTo).toEqual(['domain', 'mcp', 'mcp-app'])
  })

  test.each([
    ['everyone served', 'pass', probes()],
    ['training crawlers blocked at the edge', 'pass', probes({ GPTBot: challengePage, ClaudeBot: page(403) })],
    ['unsigned scanner blocked', 'pass', probes({ 'scanner-unsigned': page(403) })],
    [
      'a reCAPTCHA on the same page for everyone that is not in a form',
      'pass',
      probes(
        {},
        page(
          200,
          '<html><script src="https://www.google.com/recaptcha/api.js"></script><div class="g-recaptcha-badge"></div><h1>Acme</h1></html>',
        ),
      ),
    ],
    ['AI search bot challenged', 'warning', probes({ PerplexityBot: challengePage })],
    [
      'a CAPTCHA on a form',
      'warning',
      probes(
        {},
        page(
          200,
          '<html><h1>Acme</h1><form action="/contact"><input name="email"><div class="g-recaptcha" data-sitekey="x"></div></form></html>',
        ),
      ),
    ],
    ['ChatGPT-User challenged (cf-mitigated)', 'fail', probes({ 'ChatGPT-User': challengePage })],
    ['Claude-User blocked with 403', 'fail', probes({ 'Claude-User': page(403, 'Forbidden') })],
    [
      'Claude-User gets a DataDome page with 200',
      'fail',
      probes({ 'Claude-User': page(200, '<script src="https://ct.captcha-delivery.com/c.js"></script>') }),
    ],
    ['Claude-User rate limited with 429', 'fail', probes({ 'Claude-User': page(429, 'slow down') })],
    ['signed scanner blocked', 'fail', probes({ 'scanner-signed': page(403) })],
    [
      'a Turnstile only agents are shown',
      'fail',
      probes({ 'ChatGPT-User': page(200, '<div class="cf-turnstile"></div>') }),
    ],
  ] as const)('%s -> %s', (_name, expected, agentProbes) => {
    const outcome = check.run({ agentProbes }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('details name the challenged agent and the evidence', () => {
    const outcome = check.run({ agentProbes: probes({ 'ChatGPT-User': challengePage }) }, context)
    expect(outcome.details).toContain('ChatGPT-User (cf-mitigated: challenge)')
    expect(outcome.recommendation).toContain('ChatGPT-User')
  })

  test('one rule with robots.txt: a refused assistant too small to stop agents costs points by its share of the traffic', () => {
    const agentProbes = probes({ 'Claude-User': page(403) })
    // The same artifact with a minor assistant in Claude-User's place: DuckAssistBot carries 2 % of assistant fetches.
    const duck = agentProbes.probes.find((probe) => probe.agent === 'Claude-User')!
    duck.agent = 'DuckAssistBot'
    const outcome = check.run({ agentProbes }, context)
    expect(outcome.status).toBe('warning')
    expect(outcome.fraction).toBeCloseTo(0.99, 6)
    expect(outcome.details).toContain('DuckAssistBot (403')
    expect(outcome.details).toContain('about 2 % of assistant fetches')
    // Claude-User itself carries more than a tenth: the same refusal of it stops agents.
    expect(check.run({ agentProbes: probes({ 'Claude-User': page(403) }) }, context).details).toContain(
      'about 12 % of assistant fetches',
    )
  })

  test('training blocks are noted, not penalised', () => {
    expect(check.run({ agentProbes: probes({ GPTBot: page(403) }) }, context).details).toContain('not penalised')
  })

  test('a scanner request that was not really signed is not held to the agent standard', () => {
    const agentProbes = probes({ 'scanner-signed': page(403) })
    for (const probe of agentProbes.probes) probe.signed = false
    expect(check.run({ agentProbes }, context).status).toBe('pass')
  })

  test('an unfinished user-agent probe is an error, not a fail', () => {
    const errors = [
      { agent: 'Claude-User', purpose: 'user' as const, userAgent: 'Claude-User/1.0', error: 'connection reset' },
    ]
    expect(check.run({ agentProbes: probes({}, page(), { errors }) }, context).status).toBe('error')
  })

  test('everyone including a browser refused: inconclusive, so error', () => {
    expect(check.run({ agentProbes: probes({}, page(503, 'Service Unavailable')) }, context).status).toBe('error')
  })

  test('everyone including a browser challenged: agents are challenged', () => {
    expect(check.run({ agentProbes: probes({}, challengePage) }, context).status).toBe('fail')
  })

  test('mcp kinds judge the MCP endpoint the same way', () => {
    const mcp = { target: { ...context.target, kind: 'mcp' as const, mcpUrl: 'https://acme.test/mcp' } }
    const json = snapshot({
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"result":{}}',
    })
    expect(check.run({ agentProbes: probes({}, json) }, mcp).status).toBe('pass')
    const outcome = check.run({ agentProbes: probes({ 'Claude-User': page(403) }, json) }, mcp)
    expect(outcome.status).toBe('fail')
    expect(outcome.details).toContain('the MCP endpoint')
  })

  describe('mcp kinds: the agents POST initialize to the MCP endpoint', () => {
    const rpc = snapshot({
      url: 'https://mcp.acme.test/mcp',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}',
    })
    const sse = snapshot({
      url: 'https://mcp.acme.test/mcp',
      headers: { 'content-type': 'text/event-stream' },
      body: 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
    })
    const unmarkedInterstitial = snapshot({
      headers: { 'content-type': 'text/html' },
      body: '<!doctype html><html><body>Checking your connection…</body></html>',
    })

    test.each([
      ['every agent gets the JSON-RPC answer', 'pass', probes({}, rpc)],
      ['an SSE answer for everyone', 'pass', probes({}, sse)],
      ['a training crawler gets an HTML page', 'pass', probes({ GPTBot: unmarkedInterstitial }, rpc)],
      [
        'an AI search crawler gets an HTML page (noted, not penalised)',
        'pass',
        probes({ PerplexityBot: unmarkedInterstitial }, rpc),
      ],
      [
        'ChatGPT-User gets an unmarked HTML page with 200',
        'fail',
        probes({ 'ChatGPT-User': unmarkedInterstitial }, rpc),
      ],
      ['Claude-User challenged by Cloudflare', 'fail', probes({ 'Claude-User': challengePage }, rpc)],
      [
        'the signed scanner is refused',
        'fail',
        probes({ 'scanner-signed': snapshot({ status: 403, body: 'Forbidden' }) }, rpc),
      ],
    ] as const)('%s -> %s', (_name, expected, agentProbes) => {
      const outcome = check.run({ agentProbes }, mcpContext)
      expect(outcome.status).toBe(expected)
      if (expected !== 'pass') expect(outcome.recommendation).toContain('the MCP endpoint')
    })

    test('a 2026-07-28-only server rejecting the legacy initialize with 400 -32022 for everyone serves every agent', () => {
      const modern = snapshot({
        url: 'https://mcp.acme.test/mcp',
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}',
      })
      expect(check.run({ agentProbes: probes({}, modern) }, mcpContext).status).toBe('pass')
      expect(check.run({ agentProbes: probes({ 'Claude-User': challengePage }, modern) }, mcpContext).status).toBe(
        'fail',
      )
    })

    test('an HTML page served to everyone is not a block aimed at agents', () => {
      expect(check.run({ agentProbes: probes({}, unmarkedInterstitial) }, mcpContext).status).toBe('pass')
    })

    test('a refused search crawler is noted without a penalty', () => {
      expect(
        check.run({ agentProbes: probes({ PerplexityBot: unmarkedInterstitial }, rpc) }, mcpContext).details,
      ).toContain('do not call MCP endpoints')
    })

    test('details say what the agent got instead of JSON-RPC', () => {
      const outcome = check.run({ agentProbes: probes({ 'ChatGPT-User': unmarkedInterstitial }, rpc) }, mcpContext)
      expect(outcome.details).toContain('HTML page instead of the JSON-RPC answer')
    })

    test('a domain homepage that is HTML for everyone is untouched by the MCP rule', () => {
      expect(check.run({ agentProbes: probes({ 'ChatGPT-User': unmarkedInterstitial }) }, context).status).toBe('pass')
    })
  })
})
