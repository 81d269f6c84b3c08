import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateText, type LanguageModel, type LanguageModelUsage, stepCountIs } from 'ai'
import type { Config } from '../../core/config.ts'
import { type AgentDefinition, defineAgent, type RunUsage } from '../types.ts'
import { SELF } from '../identities.ts'
import { DEFAULT_BUDGET } from '../session.ts'
import { journeyTools } from '../tools/index.ts'

type Llm = NonNullable<Config['llm']>

/**
 * Model calls one run may make: one per tool-using turn of the default budget, plus the answer. A model that keeps
 * calling tools which record no step (a page it already read, a malformed URL) is stopped here.
 */
const MAX_MODEL_STEPS = DEFAULT_BUDGET.maxSteps + 1
const MAX_OUTPUT_TOKENS = 1_024

const instructions = (domain: string) =>
  [
    `You are an AI agent visiting ${domain} to get a task done for a user, using only the tools you are given.`,
    `Stay on ${domain}: start from its home page or a well-known location, then follow what the site offers (links, llms.txt, sitemaps).`,
    'robots.txt is enforced for you: a URL it disallows comes back as an error, so do not retry it.',
    'Each tool call spends a step of a small budget: fetch what is likely to help, never the same URL twice.',
    "When the task is done, or the site does not let you do it, stop calling tools and answer in at most three sentences with what the task asks for (prices with their currency and period; the support address or form; the API reference and OpenAPI URLs; the terms and privacy URLs; the agent entry points; the OAuth endpoints; the payment protocol and its endpoint; or, for what the product is, two sentences from the site's own description).",
    'Quote only what the pages you fetched say. End with a line `Source: <URL>` naming the page that states the answer.',
  ].join('\n')

/**
 * A model-backed agent through the AI SDK: the configured model drives fetch_page and render_page (journeys/tools/),
 * so every call is a step of the trajectory exactly as the deterministic agent's are. Once the intent is satisfied
 * or the budget is spent, the tools are withdrawn and the model's next turn is its answer.
 */
export function createAiSdkAgent(llm: Llm): AgentDefinition {
  const model = languageModel(llm)
  return defineAgent({
    meta: {
      id: 'ai-sdk',
      harness: 'ai-sdk',
      model: llm.model,
      label: `${llm.model} (AI SDK)`,
      public: true,
      identity: SELF,
    },
    async run(run) {
      const usage: LanguageModelUsage[] = []
      run.say(`Task: ${run.prompt}`, 'Task')
      let text: string
      try {
        const result = await generateText({
          model,
          instructions: instructions(run.domain),
          prompt: run.prompt,
          tools: journeyTools(run),
          maxOutputTokens: MAX_OUTPUT_TOKENS,
          stopWhen: stepCountIs(MAX_MODEL_STEPS),
          prepareStep: () => {
            run.tools.nextTurn()
            return run.satisfied() || !run.hasBudget() ? { activeTools: [], toolChoice: 'none' as const } : {}
          },
          onStepEnd: (step) => void usage.push(step.usage),
          abortSignal: run.signal,
        })
        text = result.text.trim()
      } catch (error) {
        // A cancelled or timed-out run is judged on what was found; a failing model is the run's error, not the site's.
        if (!run.signal.aborted) throw error
        text = ''
      }
      if (text) run.say(text, 'Answer')
      return { response: text || null, usage: runUsage(usage, llm) }
    },
  })
}

/**
 * The outbound calls to the model use the SDK's own fetch: the endpoint is the operator's, not a scanned site.
 * An Anthropic LLM_BASE_URL names the host, as for the summaries (core/engine/summary.ts); the SDK wants its /v1.
 */
function languageModel(llm: Llm): LanguageModel {
  if (llm.provider === 'anthropic')
    return createAnthropic({
      apiKey: llm.apiKey,
      ...(llm.baseUrl ? { baseURL: `${llm.baseUrl.replace(/\/$/, '')}/v1` } : {}),
    })(llm.model)
  return createOpenAICompatible({
    name: 'openai',
    baseURL: llm.baseUrl ?? 'https://api.openai.com/v1',
    apiKey: llm.apiKey,
    includeUsage: true,
  })(llm.model)
}

/** Sums the model steps; a figure no step reported stays null. */
function runUsage(
  steps: readonly LanguageModelUsage[],
  llm: Pick<Llm, 'priceInputPerMTok' | 'priceOutputPerMTok'>,
): RunUsage {
  const sum = (read: (step: LanguageModelUsage) => number | undefined) =>
    steps.reduce<number | null>((total, step) => {
      const value = read(step)
      return value === undefined ? total : (total ?? 0) + value
    }, null)
  const input = sum((step) => step.inputTokens)
  const output = sum((step) => step.outputTokens)
  const priced = llm.priceInputPerMTok !== null && llm.priceOutputPerMTok !== null && input !== null && output !== null
  return {
    input_tokens: input,
    output_tokens: output,
    cache_read_tokens: sum((step) => step.inputTokenDetails.cacheReadTokens),
    cache_write_tokens: sum((step) => step.inputTokenDetails.cacheWriteTokens),
    // Cached input is priced as input: an upper bound when the provider discounts cache reads.
    cost_usd: priced ? (input * llm.priceInputPerMTok! + output * llm.priceOutputPerMTok!) / 1_000_000 : null,
  }
}
