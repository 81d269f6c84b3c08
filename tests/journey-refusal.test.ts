// One rule for "blocked", in scans and journeys (issue 27): an edge that answers the AI assistants' fetchers with a
// bare 403 (no challenge page) while a browser gets the page is flagged by the scan's bot-challenge check, and every
// journey of those assistants there ends `blocked` at the refused step, never `failure`.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../core/config.ts'
import { createEngine } from '../app/engine.ts'
import { scanUrl } from './support/scan.ts'
import { availableAgents } from '../journeys/agents/index.ts'
import { ASSISTANT_IDENTITIES } from '../journeys/identities.ts'
import { INTENTS } from '../journeys/intents/index.ts'
import { runJourney } from '../journeys/runner.ts'
import { intentPrompt } from '../journeys/types.ts'
import type { FixtureSite } from './fixtures/sites/server.ts'
import { startVariantSite } from './fixtures/sites/variants.ts'

let site: FixtureSite
let deps: ReturnType<typeof createEngine>
let agents: ReturnType<typeof availableAgents>
beforeAll(async () => {
  site = await startVariantSite('edge-refuses-assistants')
  const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', SCANNER_RESOLVE: site.resolveRule, LOG_LEVEL: 'silent' })
  deps = createEngine(config, { browser: null })
  agents = availableAgents(config)
})
afterAll(() => site.stop())

const journey = (agentId: string, intent: (typeof INTENTS)[number]) =>
  runJourney({
    agent: agents.find((agent) => agent.meta.id === agentId)!,
    intent,
    prompt: intentPrompt(intent.meta, site.host),
    domain: site.host,
    deps,
  })

describe('a bare 403 to AI assistants while a browser gets 200', () => {
  test('the scan flags it: bot-challenge-free fails naming the assistants', async () => {
    const report = await scanUrl(site.host, deps, { phase: 'static' })
    const check = report.layers.flatMap((layer) => layer.checks).find((result) => result.id === 'bot-challenge-free')!
    expect(check.status).toBe('fail')
    // The scan probes the assistants it has User-Agent strings for; the journeys present all four.
    for (const token of ['ChatGPT-User', 'Claude-User'])
      expect(check.details).toContain(`${token} (403 while a browser got 200)`)
  })

  test.each(ASSISTANT_IDENTITIES.map((identity) => [identity.id] as const))(
    '%s: every intent that needs a page ends blocked at the refused step, none a failure',
    async (token) => {
      const outcomes: Record<string, string> = {}
      for (const intent of INTENTS) {
        const outcome = await journey(token.toLowerCase(), intent)
        outcomes[intent.meta.id] = outcome.verdict.outcome
        if (outcome.verdict.outcome === 'success') continue
        const refused = outcome.steps.find((step) => step.type === 'tool' && step.status === 'blocked')!
        expect(refused).toMatchObject({
          http_status: 403,
          completed: false,
          label: `${refused.url_path}: refused (403 while a browser got 200)`,
        })
        expect(outcome.verdict).toMatchObject({
          outcome: 'blocked',
          reason: `The edge refused ${token} at ${refused.url} (403 while a browser got 200; step ${refused.id}).`,
        })
        expect(outcome.verdict.evidence_step_ids[0]).toBe(refused.id)
        // The refusal ended the run: nothing was fetched after it.
        expect(outcome.steps.filter((step) => step.type === 'tool').at(-1)).toBe(refused)
        expect(outcome.insight.related_checks[0]).toBe('bot-challenge-free')
        const noticed = outcome.insight.observations.filter((observation) => observation.step_ids.includes(refused.id))
        expect(noticed.map((observation) => observation.kind)).toEqual(['challenge'])
      }
      // robots.txt stays open to everyone, as edges usually leave it, and it alone tells an agent how to use the site.
      const succeeded = Object.keys(outcomes).filter((id) => outcomes[id] === 'success')
      expect(succeeded).toEqual(['find-agent-access'])
      expect(Object.values(outcomes)).not.toContain('failure')
    },
  )

  test('our own agent and a browser are served there: the same walk succeeds', async () => {
    const pricing = INTENTS.find((intent) => intent.meta.id === 'find-pricing')!
    expect((await journey('deterministic', pricing)).verdict.outcome).toBe('success')
    expect((await journey('browser', pricing)).verdict.outcome).toBe('success')
  })
})
