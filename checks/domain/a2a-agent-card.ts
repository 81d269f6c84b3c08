// (bonus) An A2A Agent Card (v1.0, or v0.3) is published at /.well-known/agent-card.json with its required fields.
// Spec: https://a2a-protocol.org/latest/specification/ (1.0: §8.2 discovery at the well-known URI registered in
// §14.3, `agent-card.json`; §4.4.6 AgentInterface requires url, protocolBinding and protocolVersion)
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { listSome, statusOf } from '../../core/engine/lib/describe.ts'
import { type FieldKind, missingFields } from '../lib/fields.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const V1_FIELDS: Record<string, FieldKind> = {
  name: 'string',
  description: 'string',
  supportedInterfaces: 'non-empty-array',
  version: 'string',
  capabilities: 'object',
  defaultInputModes: 'non-empty-array',
  defaultOutputModes: 'non-empty-array',
  skills: 'array',
}
const V03_FIELDS: Record<string, FieldKind> = {
  name: 'string',
  description: 'string',
  url: 'string',
  version: 'string',
  protocolVersion: 'string',
  capabilities: 'object',
  defaultInputModes: 'non-empty-array',
  defaultOutputModes: 'non-empty-array',
  skills: 'array',
}
const SKILL_FIELDS: Record<string, FieldKind> = { id: 'string', name: 'string', description: 'string', tags: 'array' }
const INTERFACE_FIELDS: Record<string, FieldKind> = {
  url: 'string',
  protocolBinding: 'string',
  protocolVersion: 'string',
}

/** Missing fields of a card, judged as v1.0 when it has supportedInterfaces, else as v0.3. */
function cardProblems(card: Record<string, unknown>): { version: string; missing: string[] } {
  const v1 = card.supportedInterfaces !== undefined
  const missing = missingFields(card, v1 ? V1_FIELDS : V03_FIELDS)
  const listed = (key: string, fields: Record<string, FieldKind>) => {
    const items = Array.isArray(card[key]) ? card[key] : []
    items.forEach((item, index) => {
      const gaps = isRecord(item) ? missingFields(item, fields) : Object.keys(fields)
      missing.push(...gaps.map((field) => `${key}[${index}].${field}`))
    })
  }
  listed('skills', SKILL_FIELDS)
  if (v1) listed('supportedInterfaces', INTERFACE_FIELDS)
  return { version: v1 ? 'v1.0' : 'v0.3', missing }
}

export default defineCheck({
  meta: {
    id: 'a2a-agent-card',
    name: 'A2A agent card',
    description:
      'An A2A agent card tells other agents what this site’s agent can do (skills, input and output modes) and how to reach it.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'verified',
    bonus: true,
    maxScore: 3,
    specUrl: 'https://a2a-protocol.org/latest/specification/',
    recommendation:
      'If you run an A2A agent, publish its card at /.well-known/agent-card.json (name, description, supportedInterfaces, version, capabilities, default modes, skills).',
    needs: ['agentCard'],
    agentEntryPoint: true,
  },
  run({ agentCard }, { target }) {
    const url = `${target.origin}/.well-known/agent-card.json`
    const { card, source } = agentCard
    const response = source === 'legacy' ? agentCard.legacy! : agentCard.current
    if (!card || !source) {
      const legacy = agentCard.legacy ? `, /.well-known/agent.json → ${statusOf(agentCard.legacy)}` : ''
      return fail(
        `No A2A agent card: /.well-known/agent-card.json → ${statusOf(agentCard.current)}${legacy}`,
        `If you run an A2A agent, publish its card at ${url} as application/json.`,
      )
    }
    const { version, missing } = cardProblems(card)
    const name = typeof card.name === 'string' ? `"${card.name}"` : 'unnamed'
    const skills = Array.isArray(card.skills) ? card.skills.length : 0
    const summary = `A2A ${version} agent card ${name} with ${skills} skill(s) at /.well-known/${source === 'legacy' ? 'agent.json' : 'agent-card.json'}`
    const issues: string[] = []
    const fixes: string[] = []
    if (source === 'legacy') {
      issues.push(
        'it is only at the pre-0.3 path /.well-known/agent.json, not at the well-known URI A2A 1.0 registers (agent-card.json, §8.2 and §14.3)',
      )
      fixes.push(`serve it at ${url}`)
    }
    if (missing.length > 0) {
      issues.push(`required fields are missing: ${listSome(missing, 5)}`)
      fixes.push(`add ${listSome(missing, 5)}`)
    }
    if (response.contentType === 'text/html') {
      issues.push('it is served as text/html')
      fixes.push('serve it as application/json')
    }
    if (issues.length > 0)
      return warn(`${summary}; but ${issues.join('; ')}`, `For the agent card: ${fixes.join('; ')}.`)
    return pass(`Valid ${summary}`)
  },
})
