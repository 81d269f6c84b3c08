import { describe, expect, test } from 'bun:test'
import type { AgentCardArtifact } from '../../core/engine/collectors/agent-card.ts'
import type { Outcome } from '../../core/engine/check.ts'
import { context, jsonSnapshot, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './a2a-agent-card.ts'

const CURRENT = 'https://acme.test/.well-known/agent-card.json'
const LEGACY = 'https://acme.test/.well-known/agent.json'
const SKILL = { id: 'quote', name: 'Quote an anvil', description: 'Prices an anvil order', tags: ['commerce'] }
const V1 = {
  name: 'Acme agent',
  description: 'Sells anvils',
  supportedInterfaces: [{ url: 'https://acme.test/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [SKILL],
}
const { supportedInterfaces: _omit, ...common } = V1
const V03 = { ...common, url: 'https://acme.test/a2a', protocolVersion: '0.3.0' }

const atCurrent = (card: Record<string, unknown>, contentType = 'application/json'): AgentCardArtifact => ({
  current: jsonSnapshot(card, { url: CURRENT, headers: { 'content-type': contentType } }),
  legacy: null,
  card,
  source: 'current',
})

describe('a2a-agent-card', () => {
  test.each([
    ['valid v1.0 card', atCurrent(V1), 'pass'],
    ['valid v0.3 card', atCurrent(V03), 'pass'],
    [
      'only at the legacy path',
      { current: notFound(CURRENT), legacy: jsonSnapshot(V03, { url: LEGACY }), card: V03, source: 'legacy' },
      'warning',
    ],
    [
      'fields missing',
      atCurrent({
        name: 'Acme agent',
        description: 'Sells anvils',
        supportedInterfaces: [{ url: 'https://acme.test/a2a' }],
      }),
      'warning',
    ],
    [
      'a skill without tags',
      atCurrent({ ...V1, skills: [{ id: 'quote', name: 'Quote', description: 'Prices' }] }),
      'warning',
    ],
    ['served as text/html', atCurrent(V1, 'text/html'), 'warning'],
    ['no card anywhere', { current: notFound(CURRENT), legacy: notFound(LEGACY), card: null, source: null }, 'fail'],
    [
      'an HTML page at the path',
      {
        current: snapshot({ url: CURRENT, body: '<!doctype html><html></html>' }),
        legacy: notFound(LEGACY),
        card: null,
        source: null,
      },
      'fail',
    ],
  ] satisfies [string, AgentCardArtifact, Outcome['status']][])('%s -> %s', (_name, agentCard, expected) => {
    const outcome = check.run({ agentCard }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  // A2A 1.0 specification, rule by rule.
  const interfaceWithout = (field: 'protocolBinding' | 'protocolVersion') => {
    const { [field]: _dropped, ...rest } = V1.supportedInterfaces[0]!
    return atCurrent({ ...V1, supportedInterfaces: [rest] })
  }
  test.each([
    ['A2A 1.0 §8.2/§14.3: the card at /.well-known/agent-card.json passes', atCurrent(V1), 'pass'],
    [
      'A2A 1.0 §8.2/§14.3: a card only at /.well-known/agent.json warns',
      { current: notFound(CURRENT), legacy: jsonSnapshot(V1, { url: LEGACY }), card: V1, source: 'legacy' },
      'warning',
    ],
    [
      'A2A 1.0 §4.4.6: an interface entry without protocolBinding warns',
      interfaceWithout('protocolBinding'),
      'warning',
    ],
    [
      'A2A 1.0 §4.4.6: an interface entry without protocolVersion warns',
      interfaceWithout('protocolVersion'),
      'warning',
    ],
    ['A2A 1.0 §14.1: a card served as application/a2a+json passes', atCurrent(V1, 'application/a2a+json'), 'pass'],
  ] satisfies [string, AgentCardArtifact, Outcome['status']][])('%s', (_name, agentCard, expected) => {
    expect(check.run({ agentCard }, context).status).toBe(expected)
  })

  test('the interface gap and the legacy path are named', () => {
    expect(check.run({ agentCard: interfaceWithout('protocolVersion') }, context).details).toContain(
      'supportedInterfaces[0].protocolVersion',
    )
    const legacy = check.run(
      {
        agentCard: {
          current: notFound(CURRENT),
          legacy: jsonSnapshot(V1, { url: LEGACY }),
          card: V1,
          source: 'legacy',
        },
      },
      context,
    )
    expect(legacy.details).toContain('agent-card.json')
    expect(legacy.recommendation).toContain(CURRENT)
  })

  test('missing fields are named', () => {
    const outcome = check.run(
      { agentCard: atCurrent({ ...V1, skills: [{ id: 'quote', name: 'Quote', description: 'Prices' }] }) },
      context,
    )
    expect(outcome.details).toContain('skills[0].tags')
  })
})
