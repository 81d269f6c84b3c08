// The A2A agent card declares the AP2 extension (capabilities.extensions[] with the AP2 uri and params.roles);
// merchants mark it required. Spec: https://github.com/google-agentic-commerce/AP2/blob/main/docs/a2a-extension.md
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { records } from '../../core/engine/lib/jsonld.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const AP2_URI = /^https:\/\/github\.com\/google-agentic-commerce\/ap2(?:\/|$)/i
const ROLES = new Set([
  'merchant',
  'shopper',
  'credentials-provider',
  'payment-processor',
  'micropayment-provider',
  'streaming-payment-consumer',
])
const EXAMPLE =
  '{"uri":"https://github.com/google-agentic-commerce/ap2/tree/v0.1","description":"AP2 payments","required":true,"params":{"roles":["merchant"]}}'

export default defineCheck({
  meta: {
    id: 'ap2-extension',
    name: 'AP2 extension on the A2A card',
    description:
      'AP2 lets agents exchange verifiable payment mandates over A2A; declaring it on the agent card tells buyer agents the merchant agent can take them.',
    layer: 'payments',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    maxScore: 3,
    specUrl: 'https://github.com/google-agentic-commerce/AP2/blob/main/docs/a2a-extension.md',
    recommendation: `Declare AP2 in the agent card's capabilities.extensions, e.g. ${EXAMPLE}.`,
    needs: ['agentCard', 'commerceSignals'],
  },
  run({ agentCard, commerceSignals }) {
    const card = agentCard.card
    if (!card) return na('No A2A agent card at /.well-known/agent-card.json (or the legacy /.well-known/agent.json)')
    const where = agentCard.source === 'legacy' ? '/.well-known/agent.json' : '/.well-known/agent-card.json'
    const name = typeof card.name === 'string' ? `"${card.name}"` : 'the agent card'
    const extensions = records(isRecord(card.capabilities) ? card.capabilities.extensions : undefined)
    const ap2 = extensions.filter((extension) => typeof extension.uri === 'string' && AP2_URI.test(extension.uri))
    if (ap2.length === 0) {
      if (!commerceSignals.isCommerce)
        return na(`The agent card at ${where} has no AP2 extension, and the site shows no commerce signal`)
      return fail(
        `${name} at ${where} declares ${extensions.length} extension(s), none of them AP2, on a site that sells`,
        `Add the AP2 extension to capabilities.extensions in ${where}: ${EXAMPLE}.`,
      )
    }
    const extension = ap2[0]!
    const rawRoles = isRecord(extension.params) && Array.isArray(extension.params.roles) ? extension.params.roles : []
    const roles = rawRoles.filter((role): role is string => typeof role === 'string' && ROLES.has(role))
    const unknown = rawRoles.filter((role) => !(typeof role === 'string' && ROLES.has(role)))
    if (roles.length === 0) {
      return fail(
        `${name} declares AP2 (${String(extension.uri)}) without a known role in params.roles${unknown.length > 0 ? ` (found ${unknown.map((role) => JSON.stringify(role)).join(', ')})` : ''}`,
        `Set params.roles on the AP2 extension in ${where} to at least one of ${[...ROLES].join(', ')}.`,
      )
    }
    const summary = `${name} at ${where} declares AP2 ${String(extension.uri)} with role(s) ${roles.join(', ')}${unknown.length > 0 ? ` (unknown: ${unknown.map((role) => JSON.stringify(role)).join(', ')})` : ''}`
    if (roles.includes('merchant') && extension.required !== true) {
      return warn(
        `${summary}, but not required: true`,
        `Merchants should set "required": true on the AP2 extension in ${where} so that buyer agents negotiate AP2.`,
      )
    }
    return pass(summary)
  },
})
