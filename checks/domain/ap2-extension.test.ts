import { describe, expect, test } from 'bun:test'
import type { AgentCardArtifact } from '../../core/engine/collectors/agent-card.ts'
import type { CommerceSignals } from '../../core/engine/collectors/commerce-signals.ts'
import type { Outcome } from '../../core/engine/check.ts'
import { context, jsonSnapshot, notFound } from '../../tests/support/artifacts.ts'
import check from './ap2-extension.ts'

const commerce = (isCommerce: boolean): CommerceSignals => ({
  isCommerce,
  reasons: isCommerce ? ['Product JSON-LD'] : [],
  productUrls: [],
  pricingUrl: null,
})
const AP2 = 'https://github.com/google-agentic-commerce/ap2/tree/v0.1'
const CARD_URL = 'https://acme.test/.well-known/agent-card.json'

function agentCard(extensions: unknown[] | null): AgentCardArtifact {
  if (extensions === null)
    return {
      current: notFound(CARD_URL),
      legacy: notFound('https://acme.test/.well-known/agent.json'),
      card: null,
      source: null,
    }
  const card = {
    name: 'Acme shop agent',
    description: 'Buys anvils',
    version: '1.0.0',
    capabilities: { streaming: false, extensions },
    skills: [],
  }
  return { current: jsonSnapshot(card, { url: CARD_URL }), legacy: null, card, source: 'current' }
}

describe('ap2-extension', () => {
  test.each<[string, Outcome['status'], AgentCardArtifact, boolean]>([
    [
      'a required merchant AP2 extension',
      'pass',
      agentCard([{ uri: AP2, required: true, params: { roles: ['merchant'] } }]),
      true,
    ],
    ['a shopper role on a non-commerce site', 'pass', agentCard([{ uri: AP2, params: { roles: ['shopper'] } }]), false],
    [
      'a merchant role without required: true',
      'warning',
      agentCard([{ uri: AP2, params: { roles: ['merchant', 'payment-processor'] } }]),
      true,
    ],
    ['AP2 without roles', 'fail', agentCard([{ uri: AP2, required: true, params: {} }]), true],
    ['a card on a commerce site without AP2', 'fail', agentCard([{ uri: 'https://example.com/ext/other' }]), true],
    ['a card without AP2 on a non-commerce site', 'na', agentCard([]), false],
    ['no agent card', 'na', agentCard(null), true],
  ])('%s -> %s', (_name, expected, card, isCommerce) => {
    const outcome = check.run({ agentCard: card, commerceSignals: commerce(isCommerce) }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })
})
