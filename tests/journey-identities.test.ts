// Journeys as real agents meet a site (issue 23): the edge sees the identity the agent presents, robots.txt is read
// for its token, answers name the page that states them, and failed runs name the catalog checks that would help.
// Hand-labelled sites (tests/fixtures/sites/labelled/) served on loopback, walked for real by the deterministic agent.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { REGISTERED_CHECKS } from '../checks/index.ts'
import { loadConfig } from '../core/config.ts'
import { generateSigningKeyJwk } from '../core/crypto/signing.ts'
import { createEngine } from '../app/engine.ts'
import { availableAgents } from '../journeys/agents/index.ts'
import { type AgentDefinition, intentPrompt } from '../journeys/types.ts'
import { ASSISTANT_IDENTITIES } from '../journeys/identities.ts'
import { INTENTS, intentById } from '../journeys/intents/index.ts'
import { runJourney } from '../journeys/runner.ts'
import { type LabelledWorld, startLabelledSites } from './fixtures/sites/labelled/server.ts'
import { type LabelledSiteName, LABELS } from './fixtures/sites/labelled/sites.ts'

let world: LabelledWorld
let deps: ReturnType<typeof createEngine>
let agents: AgentDefinition[]
let scannerUserAgent: string
const CATALOG = new Set(REGISTERED_CHECKS.map(({ definition }) => definition.meta.id))

beforeAll(() => {
  world = startLabelledSites()
  const config = loadConfig({
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: world.resolveRules.join(','),
    LOG_LEVEL: 'silent',
  })
  scannerUserAgent = config.scanner.userAgent
  deps = createEngine(config, { browser: null })
  agents = availableAgents(config)
})
afterAll(() => world.stop())

const agent = (id: string) => agents.find((candidate) => candidate.meta.id === id)!

function journey(agentId: string, intentId: string, site: LabelledSiteName) {
  const intent = intentById(intentId)!
  const host = world.sites[site].host
  return runJourney({ agent: agent(agentId), intent, prompt: intentPrompt(intent.meta, host), domain: host, deps })
}

const ASSISTANT_AGENTS = ASSISTANT_IDENTITIES.map(
  (identity) => [identity.id.toLowerCase(), identity.id, identity.userAgent!] as const,
)

describe('agent identities at the edge', () => {
  test('the assistant identities are the published user-triggered fetchers, one per token', () => {
    expect(ASSISTANT_AGENTS.map(([, token]) => token)).toEqual([
      'ChatGPT-User',
      'Claude-User',
      'Perplexity-User',
      'MistralAI-User',
    ])
    // Copies: bun's matchers may write an asymmetric matcher into the object they are given.
    for (const identity of ASSISTANT_IDENTITIES)
      expect({ ...identity }).toMatchObject({
        robotsToken: identity.id,
        sign: true,
        publishedAt: expect.stringMatching(/^https:\/\//),
      })
  })

  test.each(ASSISTANT_AGENTS)(
    '%s: a site challenging AI assistants by User-Agent ends the run blocked, naming the step',
    async (id, token, userAgent) => {
      const requests = world.sites['assistant-gated'].requests
      const before = requests.length
      const outcome = await journey(id, 'find-pricing', 'assistant-gated')
      const home = outcome.steps.find((step) => step.url === 'https://assistant-gated.test/')!
      expect(home).toMatchObject({ status: 'blocked', http_status: 403, completed: false })
      expect(outcome.verdict).toEqual({
        outcome: 'blocked',
        reason: `A bot challenge answered ${token} instead of https://assistant-gated.test/ (step ${home.id}).`,
        evidence_step_ids: [home.id],
      })
      // The challenge ended the run: nothing was fetched after it.
      expect(outcome.steps.filter((step) => step.type === 'tool').at(-1)).toBe(home)
      // Every request carried the assistant's exact User-Agent.
      const sent = requests.slice(before)
      expect(sent.length).toBeGreaterThan(0)
      for (const request of sent) expect(request.userAgent).toBe(userAgent)
      expect(outcome.insight.related_checks.slice(0, 2)).toEqual(['bot-challenge-free', 'web-bot-auth-accepted'])
      for (const id of outcome.insight.related_checks) expect(CATALOG.has(id)).toBe(true)
    },
  )

  test('our own agent (AgentReadiness) is unaffected there, and says who it is', async () => {
    const requests = world.sites['assistant-gated'].requests
    const before = requests.length
    const outcome = await journey('deterministic', 'find-pricing', 'assistant-gated')
    expect(outcome.verdict.outcome).toBe('success')
    for (const request of requests.slice(before)) expect(request.userAgent).toBe(scannerUserAgent)
  })

  test('with a SIGNING_KEY, assistant identities stay signed per Web Bot Auth; the browser baseline is not', async () => {
    const config = loadConfig({
      SCANNER_ALLOW_PRIVATE: 'true',
      SCANNER_RESOLVE: world.resolveRules.join(','),
      LOG_LEVEL: 'silent',
      SIGNING_KEY: generateSigningKeyJwk(),
    })
    const signing = createEngine(config, { browser: null })
    const requests = world.sites['seat-saas'].requests
    const walk = async (id: string) => {
      const before = requests.length
      const intent = intentById('find-pricing')!
      await runJourney({
        agent: availableAgents(config).find((candidate) => candidate.meta.id === id)!,
        intent,
        prompt: intentPrompt(intent.meta, 'seat-saas.test'),
        domain: 'seat-saas.test',
        deps: signing,
      })
      return requests.slice(before)
    }
    const assistant = await walk('perplexity-user')
    expect(assistant.length).toBeGreaterThan(0)
    for (const request of assistant)
      expect(request).toMatchObject({ signed: true, userAgent: expect.stringContaining('Perplexity-User/1.0') })
    const browser = await walk('browser')
    for (const request of browser)
      expect(request).toMatchObject({ signed: false, userAgent: expect.stringContaining('Chrome/') })
  })

  test('robots.txt is obeyed for the token presented: Claude-User is refused /pricing and the run ends blocked on that step', async () => {
    const requests = world.sites['robots-gated'].requests
    const before = requests.length
    const refused = await journey('claude-user', 'find-pricing', 'robots-gated')
    const step = refused.steps.find((candidate) => candidate.url_path === '/pricing')!
    expect(step).toMatchObject({ status: 'blocked', label: 'robots.txt disallows /pricing for Claude-User' })
    expect(refused.verdict).toMatchObject({
      outcome: 'blocked',
      reason: `robots.txt disallows https://robots-gated.test/pricing for Claude-User (step ${step.id}).`,
      evidence_step_ids: [step.id],
    })
    expect(requests.slice(before).map((request) => request.path)).not.toContain('/pricing')
    expect(refused.insight.related_checks[0]).toBe('robots-ai-agents-allowed')
    // The group names Claude-User only: ChatGPT-User and our own agent fall under `*`.
    expect((await journey('chatgpt-user', 'find-pricing', 'robots-gated')).verdict.outcome).toBe('success')
    expect((await journey('deterministic', 'find-pricing', 'robots-gated')).verdict.outcome).toBe('success')
  })
})

describe('answers on hand-labelled sites', () => {
  test.each(LABELS.map((label) => [label.intent, label.site, label.path, label.states ?? null] as const))(
    '%s on %s: the answer names %s and states %p, the same over three runs',
    async (intentId, site, path, states) => {
      const runs = [
        await journey('deterministic', intentId, site),
        await journey('deterministic', intentId, site),
        await journey('deterministic', intentId, site),
      ]
      const url = `https://${site}.test${path}`
      for (const outcome of runs) {
        expect(outcome.verdict.outcome).toBe('success')
        expect(outcome.agent_response!.split('\n').at(-1)).toBe(`Source: ${url}`)
        if (states) expect(outcome.agent_response).toContain(states)
        const fetched = outcome.steps.filter((step) => step.type === 'tool').map((step) => step.url)
        expect(fetched).toEqual(runs[0]!.steps.filter((step) => step.type === 'tool').map((step) => step.url))
        expect(outcome.verdict).toEqual(runs[0]!.verdict)
        expect(outcome.content_digest).toBe(runs[0]!.content_digest)
      }
    },
  )

  test('the home page saying "API" with an endpoint in it is not the API reference: the run opens /docs', async () => {
    const outcome = await journey('deterministic', 'find-api-reference', 'geo-api')
    const docs = outcome.steps.find((step) => step.url_path === '/docs')!
    expect(outcome.verdict.evidence_step_ids).toEqual([docs.id])
  })

  test('"pay per seat" on the home page is not a price: the run goes on to the amounts on /pricing', async () => {
    const outcome = await journey('deterministic', 'find-pricing', 'seat-saas')
    expect(outcome.steps.filter((step) => step.type === 'tool').map((step) => step.url_path)).toContain('/pricing')
    expect(outcome.agent_response).toStartWith(
      'Prices at https://seat-saas.test/pricing: Team: 8 USD per seat per month; Business: 15 USD per seat per month.',
    )
  })

  test('a store whose links never say "price" is priced from the Offer JSON-LD of a product page it follows', async () => {
    const outcome = await journey('deterministic', 'find-pricing', 'card-store')
    const product = outcome.steps.find((step) => step.url_path === '/products/trail-runner')!
    expect(product).toMatchObject({ source: expect.stringMatching(/^(link|sitemap)$/), status: 'ok' })
    expect(outcome.verdict.evidence_step_ids).toContain(product.id)
    expect(outcome.agent_response).toContain('Trail Runner: 189.00 USD')
  })
})

describe('failed runs name the checks that would help', () => {
  test('a task the site does not offer: related_checks resolve in the catalog', async () => {
    const outcome = await journey('deterministic', 'find-terms', 'seat-saas')
    expect(outcome.verdict.outcome).toBe('failure')
    expect(outcome.insight.related_checks.length).toBeGreaterThan(0)
    for (const id of outcome.insight.related_checks) expect(CATALOG.has(id)).toBe(true)
  })

  test('every curated intent names only catalog checks, and a successful run names none', async () => {
    for (const intent of INTENTS)
      for (const id of intent.meta.relatedChecks)
        expect({ intent: intent.meta.id, id, known: CATALOG.has(id) }).toEqual({
          intent: intent.meta.id,
          id,
          known: true,
        })
    expect((await journey('deterministic', 'find-pricing', 'seat-saas')).insight.related_checks).toEqual([])
  })
})
