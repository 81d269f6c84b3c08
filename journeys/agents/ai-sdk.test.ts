/**
 * The model-backed agent end to end: the real AI SDK client talks to a scripted OpenAI-compatible model on loopback
 * while the tools fetch a fixture site through the scanner's session, and runJourney judges what was found.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../core/config.ts'
import { createEngine } from '../../app/engine.ts'
import { intentPrompt } from '../types.ts'
import findPricing from '../intents/find-pricing.ts'
import { runJourney } from '../runner.ts'
import type { JourneyBudget } from '../session.ts'
import { type ScriptedReply, startScriptedModel } from '../../tests/fixtures/llm/scripted.ts'
import { type FixtureSite, startFixtureSite } from '../../tests/fixtures/sites/server.ts'
import { createAiSdkAgent } from './ai-sdk.ts'
import { availableAgents } from './index.ts'
import { SELF } from '../identities.ts'

let site: FixtureSite

beforeAll(async () => {
  site = await startFixtureSite('store')
})

afterAll(async () => {
  await site.stop()
})

function configFor(baseUrl: string, prices: Record<string, string>) {
  return loadConfig({
    SCANNER_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'silent',
    SCANNER_RESOLVE: site.resolveRule,
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: baseUrl,
    LLM_API_KEY: 'test',
    LLM_MODEL: 'scripted-1',
    ...prices,
  })
}

async function journeyWith(script: readonly ScriptedReply[], prices: Record<string, string>, budget?: JourneyBudget) {
  const model = startScriptedModel(script)
  try {
    const config = configFor(model.baseUrl, prices)
    const outcome = await runJourney({
      agent: createAiSdkAgent(config.llm!),
      intent: findPricing,
      prompt: intentPrompt(findPricing.meta, site.host),
      domain: site.host,
      deps: createEngine(config, { browser: null }),
      budget,
    })
    return { outcome, requests: model.requests }
  } finally {
    await model.stop()
  }
}

const PRICES = { LLM_PRICE_INPUT_PER_MTOK: '3', LLM_PRICE_OUTPUT_PER_MTOK: '15' }
const USAGE = { prompt_tokens: 100, completion_tokens: 10 }
const ANSWER = 'Prices are listed at https://store.test/pages/pricing.'

describe('ai-sdk agent', () => {
  test('finds pricing through the tools the model called, and accounts for every model step', async () => {
    const { outcome, requests } = await journeyWith(
      [
        {
          toolCalls: [{ name: 'fetch_page', arguments: { url: 'https://store.test/' } }],
          usage: { prompt_tokens: 1_000, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 200 } },
        },
        {
          toolCalls: [{ name: 'fetch_page', arguments: { url: '/pages/pricing' } }],
          usage: { prompt_tokens: 2_500, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 800 } },
        },
        { text: ANSWER, usage: { prompt_tokens: 4_000, completion_tokens: 60 } },
      ],
      PRICES,
    )

    expect(outcome.verdict.outcome).toBe('success')
    const tools = outcome.steps.filter((step) => step.type === 'tool')
    expect(tools.map((step) => [step.tool, step.url, step.source, step.http_status])).toEqual([
      ['fetch_page', 'https://store.test/robots.txt', 'robots', 200],
      ['fetch_page', 'https://store.test/', 'start', 200],
      ['fetch_page', 'https://store.test/pages/pricing', 'link', 200],
    ])
    // The model copied the URL from the home page's links: the step says so.
    expect(tools[2]!.parent_id).toBe(tools[1]!.id)
    expect(outcome.verdict.evidence_step_ids).toEqual([tools[2]!.id])
    expect(outcome.agent_response).toBe(ANSWER)
    expect(outcome.steps.at(-1)).toMatchObject({ type: 'text', label: 'Answer', text: ANSWER })

    expect(outcome.usage).toEqual({
      input_tokens: 7_500,
      output_tokens: 130,
      cache_read_tokens: 1_000,
      cache_write_tokens: null,
      cost_usd: (7_500 * 3 + 130 * 15) / 1_000_000,
    })
    expect(outcome.usage.cost_usd).toBe(0.02445)

    expect(requests).toHaveLength(3)
    const [first, second, third] = requests
    expect(first!.headers.authorization).toBe('Bearer test')
    // The model endpoint is the operator's: reached by the SDK's own fetch, not the scanner's signed client.
    expect(first!.headers['user-agent'] ?? '').not.toContain('AgentReadiness')
    expect(first!.body.model).toBe('scripted-1')
    expect(first!.body.stream).toBeUndefined()
    expect(first!.body.tools?.map((tool) => tool.function.name)).toEqual(['fetch_page', 'render_page'])
    expect(JSON.stringify(first!.body.messages)).toContain('How much does store.test cost?')

    // What the session read of the home page went back to the model as the tool result of its call.
    const homeResult = second!.body.messages.find((message) => message.role === 'tool')!
    expect(homeResult.tool_call_id).toBe('call_1_1')
    const home = JSON.parse(homeResult.content as string)
    expect(home).toMatchObject({ url: 'https://store.test/', status: 200, content_type: 'text/html' })
    expect(home.links).toContainEqual(expect.objectContaining({ url: 'https://store.test/pages/pricing' }))

    const pricingResult = third!.body.messages.filter((message) => message.role === 'tool').at(-1)!
    expect(pricingResult.tool_call_id).toBe('call_2_1')
    expect(JSON.parse(pricingResult.content as string)).toMatchObject({
      url: 'https://store.test/pages/pricing',
      status: 200,
    })
    // Satisfied after the second call: the tools are withdrawn and the model's next turn is its answer.
    expect(second!.body.tools).toHaveLength(2)
    expect(third!.body.tools).toBeUndefined()
  })

  test('the judge checks the answer against what was fetched: a price no page states is not a success', async () => {
    const visit = [
      { toolCalls: [{ name: 'fetch_page', arguments: { url: 'https://store.test/' } }], usage: USAGE },
      { toolCalls: [{ name: 'fetch_page', arguments: { url: '/pages/pricing' } }], usage: USAGE },
    ]
    const invented = await journeyWith(
      [...visit, { text: 'The backpack costs $5 per month.\nSource: https://store.test/pages/pricing', usage: USAGE }],
      PRICES,
    )
    expect(invented.outcome.verdict).toEqual({
      outcome: 'failure',
      reason: 'The answer states 5 USD, which no page the agent read states.',
      evidence_step_ids: [],
    })
    const uncited = await journeyWith([...visit, { text: 'The backpack costs $89.00.', usage: USAGE }], PRICES)
    expect(uncited.outcome.verdict).toMatchObject({
      outcome: 'failure',
      reason: 'The answer does not cite a page that shows it.',
    })
    const supported = await journeyWith(
      [
        ...visit,
        { text: 'The Trail Backpack 28 L costs $89.00.\nSource: https://store.test/pages/pricing', usage: USAGE },
      ],
      PRICES,
    )
    expect(supported.outcome.verdict.outcome).toBe('success')
    // The model was asked for the same shape as the built-in agent's answer.
    expect(JSON.stringify(supported.requests[0]!.body.messages)).toContain('Source: <URL>')
  })

  test('once the step budget is spent, the tools are withdrawn and the model answers', async () => {
    const { outcome, requests } = await journeyWith(
      [
        {
          toolCalls: [{ name: 'fetch_page', arguments: { url: 'https://store.test/' } }],
          usage: { prompt_tokens: 1_000, completion_tokens: 20 },
        },
        { text: 'I ran out of steps before finding prices.', usage: { prompt_tokens: 2_000, completion_tokens: 15 } },
      ],
      PRICES,
      { maxSteps: 2, maxMs: 60_000 },
    )
    expect(outcome.steps.filter((step) => step.type === 'tool').map((step) => step.url_path)).toEqual([
      '/robots.txt',
      '/',
    ])
    expect(requests[1]!.body.tools).toBeUndefined()
    expect(outcome.verdict.outcome).toBe('failure')
    expect(outcome.agent_response).toBe('I ran out of steps before finding prices.')
  })

  test('cost is null when the prices are not configured', async () => {
    const { outcome } = await journeyWith(
      [{ text: 'I did not look.', usage: { prompt_tokens: 900, completion_tokens: 10 } }],
      {},
    )
    expect(outcome.verdict.outcome).toBe('failure')
    expect(outcome.agent_response).toBe('I did not look.')
    expect(outcome.usage).toMatchObject({ input_tokens: 900, output_tokens: 10, cost_usd: null })
  })

  test('a cancelled run stops waiting for the model and is judged on what was found', async () => {
    let release = () => {}
    const hanging = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Promise<Response>((resolve) => (release = () => resolve(new Response(null, { status: 503 })))),
    })
    try {
      const config = configFor(`http://127.0.0.1:${hanging.port}/v1`, PRICES)
      const started = performance.now()
      const outcome = await runJourney({
        agent: createAiSdkAgent(config.llm!),
        intent: findPricing,
        prompt: 'p',
        domain: site.host,
        deps: createEngine(config, { browser: null }),
        signal: AbortSignal.timeout(200),
      })
      expect(performance.now() - started).toBeLessThan(5_000)
      expect(outcome.agent_response).toBeNull()
      expect(outcome.verdict.outcome).toBe('failure')
      expect(outcome.usage).toMatchObject({ input_tokens: null, cost_usd: null })
    } finally {
      release()
      await hanging.stop(true)
    }
  })

  test('anthropic: the Messages API under LLM_BASE_URL, as the summaries call it, with its cache figures', async () => {
    const received: { path: string; key: string | null }[] = []
    const anthropic = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch(request) {
        received.push({ path: new URL(request.url).pathname, key: request.headers.get('x-api-key') })
        return Response.json({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'scripted-claude',
          content: [{ type: 'text', text: 'No prices checked.' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: 8, cache_creation_input_tokens: 50, cache_read_input_tokens: 30 },
        })
      },
    })
    try {
      const config = loadConfig({
        LLM_PROVIDER: 'anthropic',
        LLM_BASE_URL: `http://127.0.0.1:${anthropic.port}`,
        LLM_API_KEY: 'test',
        LLM_MODEL: 'scripted-claude',
        SCANNER_ALLOW_PRIVATE: 'true',
        SCANNER_RESOLVE: site.resolveRule,
        LOG_LEVEL: 'silent',
        ...PRICES,
      })
      const outcome = await runJourney({
        agent: createAiSdkAgent(config.llm!),
        intent: findPricing,
        prompt: 'p',
        domain: site.host,
        deps: createEngine(config, { browser: null }),
      })
      expect(received).toEqual([{ path: '/v1/messages', key: 'test' }])
      expect(outcome.agent_response).toBe('No prices checked.')
      expect(outcome.usage).toMatchObject({ cache_read_tokens: 30, cache_write_tokens: 50, output_tokens: 8 })
    } finally {
      await anthropic.stop(true)
    }
  })
})

describe('availableAgents', () => {
  const ASSISTANTS = ['chatgpt-user', 'claude-user', 'perplexity-user', 'mistralai-user']
  test('without LLM configuration: the deterministic agent, then the same agent under each assistant identity, then the browser baseline', () => {
    expect(availableAgents(loadConfig({})).map((agent) => agent.meta.id)).toEqual([
      'deterministic',
      ...ASSISTANTS,
      'browser',
    ])
  })
  test('adds the model agent after the assistant identities when LLM_* is set', () => {
    const agents = availableAgents(configFor('http://127.0.0.1:9/v1', {}))
    expect(agents.map((agent) => agent.meta.id)).toEqual(['deterministic', ...ASSISTANTS, 'ai-sdk', 'browser'])
    // A copy: bun's matchers may write an asymmetric matcher into the object they are given.
    expect({ ...agents.find((agent) => agent.meta.id === 'ai-sdk')!.meta }).toEqual({
      id: 'ai-sdk',
      harness: 'ai-sdk',
      model: 'scripted-1',
      label: 'scripted-1 (AI SDK)',
      public: true,
      identity: SELF,
    })
  })
})
