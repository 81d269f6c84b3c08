// Compare runs end to end through the API (issue 23): one request walks the same intent as an agent identity and
// as a plain browser, the two runs are linked, and once both completed the record, its insight and the journey
// page tell "blocked for agents, reachable for browsers" apart from "absent".
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { load } from 'cheerio'
import { journeyRun } from '../plugins/journey/model.ts'
import { type LabelledWorld, startLabelledSites } from './fixtures/sites/labelled/server.ts'
import { request } from './helpers.ts'
import { createRun, getPath, untilEnded } from './support/journey.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

let sites: LabelledWorld
let world: World
let catalog: Set<string>
beforeAll(async () => {
  sites = startLabelledSites()
  world = await startWorld([], {
    browser: null,
    extraResolve: sites.resolveRules,
    env: { WORKER_CONCURRENCY: '4' },
    start: true,
  })
  const checks = (await (await getPath(world.handle, '/api/checks')).json()) as { checks: { id: string }[] }
  catalog = new Set(checks.checks.map((check) => check.id))
})
afterAll(async () => {
  await world.close()
  await sites.stop()
})

type Run = Record<string, any>

/** Starts a compare run and waits for both halves and their comparison. */
async function compare(body: Record<string, unknown>): Promise<{ agent: Run; browser: Run }> {
  const response = await createRun(world.handle, { ...body, compare: true })
  expect(response.status).toBe(201)
  const created = (await response.json()) as Run
  expect(created.compare).toEqual({ run_id: expect.stringMatching(/^jr_/), role: 'agent' })
  await untilEnded(world.handle, created.id)
  await untilEnded(world.handle, created.compare.run_id)
  // The second run to complete writes the comparison to both.
  for (let waited = 0; waited < 5_000; waited += 50) {
    const agent = (await (await getPath(world.handle, `/api/journey/runs/${created.id}`)).json()) as Run
    const browser = (await (await getPath(world.handle, `/api/journey/runs/${created.compare.run_id}`)).json()) as Run
    if (agent.insight?.comparison && browser.insight?.comparison) return { agent, browser }
    await Bun.sleep(50)
  }
  throw new Error('no comparison was recorded')
}

describe('compare runs', () => {
  test('an edge that challenges ChatGPT-User: blocked for agents, reachable for browsers, in the record, its insight and the page', async () => {
    const { agent, browser } = await compare({
      intent: { id: 'find-pricing' },
      domain: 'assistant-gated.test',
      agent: 'chatgpt-user',
    })
    expect(journeyRun.safeParse(agent).success).toBe(true)
    expect(agent).toMatchObject({
      identity: 'ChatGPT-User',
      agent: { id: 'chatgpt-user' },
      verdict: { outcome: 'blocked' },
    })
    expect(browser).toMatchObject({
      identity: 'browser',
      agent: { id: 'browser' },
      compare: { run_id: agent.id, role: 'browser' },
      verdict: { outcome: 'success' },
    })
    const blockedStep = agent.steps.find((step: Run) => step.url === 'https://assistant-gated.test/')
    expect(agent.verdict.reason).toContain(`(step ${blockedStep.id})`)
    expect(agent.insight.comparison).toEqual({
      finding: 'blocked_for_agents',
      message: expect.stringContaining('Blocked for agents, reachable for browsers'),
      agent_run_id: agent.id,
      browser_run_id: browser.id,
      identity: 'ChatGPT-User',
      agent_outcome: 'blocked',
      browser_outcome: 'success',
    })
    expect(browser.insight.comparison).toEqual(agent.insight.comparison)
    for (const id of agent.insight.related_checks) expect(catalog.has(id)).toBe(true)
    expect(agent.insight.related_checks).toContain('bot-challenge-free')

    const page = await (await getPath(world.handle, `/journeys/${agent.id}`)).text()
    expect(page).toContain('data-finding="blocked_for_agents"')
    expect(page).toContain('Blocked for agents, reachable for browsers')
    expect(page).toContain(`href="/journeys/${browser.id}"`)
    expect(page).toContain('href="/site/assistant-gated.test#check-bot-challenge-free"')
    // The verdict reads as a block by that assistant, never as a task not found.
    const verdict = load(page)('#journey-verdict')
    expect(verdict.attr('data-outcome')).toBe('blocked')
    expect(verdict.text()).toStartWith('Blocked for ChatGPT-User: ')
    expect(verdict.text()).not.toMatch(/not found|failure/i)
  })

  test('our own agent on the same site: reachable both ways', async () => {
    const { agent } = await compare({ intent: { id: 'find-pricing' }, domain: 'assistant-gated.test' })
    expect(agent.identity).toBe('self')
    expect(agent.insight.comparison).toMatchObject({
      finding: 'reachable',
      agent_outcome: 'success',
      browser_outcome: 'success',
    })
    expect(agent.agent_response).toContain('Source: https://assistant-gated.test/pricing')
  })

  test('a task the site does not offer is absent, not blocked, for the agent and the browser alike', async () => {
    const { agent } = await compare({ intent: { id: 'find-terms' }, domain: 'seat-saas.test', agent: 'claude-user' })
    expect(agent.insight.comparison).toMatchObject({
      finding: 'absent',
      agent_outcome: 'failure',
      browser_outcome: 'failure',
    })
    expect(
      load(await (await getPath(world.handle, `/journeys/${agent.id}`)).text())('#journey-verdict').text(),
    ).toStartWith('Not found: ')
    expect(agent.insight.related_checks.length).toBeGreaterThan(0)
    for (const id of agent.insight.related_checks) expect(catalog.has(id)).toBe(true)
  })

  test('robots.txt refusing Claude-User only: blocked for agents, reachable for browsers', async () => {
    const { agent } = await compare({
      intent: { id: 'find-pricing' },
      domain: 'robots-gated.test',
      agent: 'claude-user',
    })
    expect(agent.verdict.reason).toStartWith('robots.txt disallows https://robots-gated.test/pricing for Claude-User')
    expect(agent.insight.comparison).toMatchObject({
      finding: 'blocked_for_agents',
      agent_outcome: 'blocked',
      browser_outcome: 'success',
    })
  })

  test('the MCP journey tools offer every agent and a compare run, whose verdict reads blocked', async () => {
    const tool = async (name: string, args: Record<string, unknown>) => {
      const response = await world.handle.app.handle(
        request('/api/mcp', {
          method: 'POST',
          json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
          headers: {
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
            'x-forwarded-for': clientIp(),
          },
        }),
      )
      const { result } = (await response.json()) as { result: { isError?: boolean; structuredContent: Run } }
      expect(result.isError).toBeUndefined()
      return result.structuredContent
    }
    const { agents } = (await (await getPath(world.handle, '/api/journey/agents')).json()) as { agents: Run[] }
    expect((await tool('list_journey_intents', {})).agents).toEqual(agents)
    const started = await tool('start_journey_run', {
      intent_id: 'find-pricing',
      domain: 'assistant-gated.test',
      agent: 'chatgpt-user',
      compare: true,
    })
    expect(started.compare).toEqual({ run_id: expect.stringMatching(/^jr_/), role: 'agent' })
    await untilEnded(world.handle, started.id)
    await untilEnded(world.handle, started.compare.run_id)
    expect(await tool('get_journey_run', { id: started.id })).toMatchObject({
      identity: 'ChatGPT-User',
      verdict: { outcome: 'blocked' },
    })
  })

  test('a run without compare has no linked run and no comparison', async () => {
    const created = (await (
      await createRun(world.handle, {
        intent: { id: 'find-pricing' },
        domain: 'seat-saas.test',
        agent: 'perplexity-user',
      })
    ).json()) as Run
    const run = await untilEnded(world.handle, created.id)
    expect(run).toMatchObject({
      identity: 'Perplexity-User',
      compare: null,
      insight: { comparison: null, related_checks: [] },
      verdict: { outcome: 'success' },
    })
  })
})
