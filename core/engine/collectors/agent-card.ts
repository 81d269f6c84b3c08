import { defineCollector } from '../check.ts'
import { fetchSnapshot, type HttpSnapshot, isOk, isRecord, parseJson } from '../snapshot.ts'

/** A2A agent card: the current well-known path first, then the pre-0.3 legacy path. */
export interface AgentCardArtifact {
  /** GET /.well-known/agent-card.json */
  current: HttpSnapshot
  /** GET /.well-known/agent.json (pre-0.3), fetched only when `current` is not 2xx; null otherwise. */
  legacy: HttpSnapshot | null
  /** The parsed card from whichever path answered 2xx with JSON; null when none did. */
  card: Record<string, unknown> | null
  source: 'current' | 'legacy' | null
}

const CARD_ACCEPT = { headers: { accept: 'application/json, application/a2a+json;q=0.9' } }

function parseCard(response: HttpSnapshot): Record<string, unknown> | null {
  if (!isOk(response)) return null
  const parsed = parseJson(response.body)
  return isRecord(parsed) ? parsed : null
}

export const agentCardCollector = defineCollector({
  key: 'agentCard',
  async collect({ http, target }) {
    const current = await fetchSnapshot(http, `${target.origin}/.well-known/agent-card.json`, CARD_ACCEPT)
    const currentCard = parseCard(current)
    if (currentCard) return { current, legacy: null, card: currentCard, source: 'current' }
    const legacy = await fetchSnapshot(http, `${target.origin}/.well-known/agent.json`, CARD_ACCEPT)
    const legacyCard = parseCard(legacy)
    return { current, legacy, card: legacyCard, source: legacyCard ? 'legacy' : null }
  },
})
