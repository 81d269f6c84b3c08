import { describe, expect, test } from 'bun:test'
import { agentsFor, findAiAgent } from './ai-agents.ts'
import { STOPS_AGENTS_SHARE, trafficShare, weighRefusal } from './agent-traffic.ts'

const agents = (...tokens: string[]) => tokens.map((token) => findAiAgent(token)!)

describe('agent traffic weights', () => {
  test.each(['user', 'search'] as const)('every %s agent has a share and the shares sum to 1', (purpose) => {
    const shares = agentsFor(purpose).map(trafficShare)
    expect(shares.every((share) => share > 0)).toBe(true)
    expect(shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 6)
  })

  test('training crawlers weigh nothing: refusing all of them stops nobody and costs nothing', () => {
    const refusal = weighRefusal(agentsFor('training'))
    expect(refusal).toEqual({ userShare: 0, searchShare: 0, stopsAgents: false, fraction: 1 })
  })

  test.each([
    [['ChatGPT-User'], true],
    [['Claude-User'], true],
    [['Perplexity-User'], true],
    [['ChatGPT-User', 'Claude-User', 'Perplexity-User'], true],
    [['DuckAssistBot'], false],
    [['MistralAI-User', 'DuckAssistBot'], false],
    [['OAI-SearchBot', 'PerplexityBot', 'Claude-SearchBot', 'Applebot', 'Amzn-SearchBot'], false],
  ])('refusing %p stops agents: %p', (tokens, stops) => {
    expect(weighRefusal(agents(...tokens)).stopsAgents).toBe(stops)
  })

  test('a refusal that does not stop agents keeps the points of the traffic still served', () => {
    expect(weighRefusal(agents('DuckAssistBot')).fraction).toBeCloseTo(0.99, 6)
    expect(weighRefusal(agentsFor('search')).fraction).toBeCloseTo(0.5, 6)
    expect(STOPS_AGENTS_SHARE).toBeGreaterThan(
      Math.max(...agents('MistralAI-User', 'DuckAssistBot', 'Meta-ExternalFetcher').map(trafficShare)),
    )
  })
})
