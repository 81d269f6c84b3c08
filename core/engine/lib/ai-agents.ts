/**
 * AI crawler and agent product tokens, grouped by why they fetch (docs/checks.md §2). The one place to update when
 * vendors add or rename bots: the robots policy checks and the agent probes both read it. Sources: the OpenAI
 * bots page, Anthropic's crawler article, the Perplexity docs, Google's common crawlers list, ai.robots.txt.
 */

/**
 * `user`: fetches on behalf of a person right now (blocking cuts the site off from live agent use);
 * `search`: builds an AI search index (blocking removes the site from AI answer citations);
 * `training`: collects training data. Blocking training is a legitimate policy and is never penalised.
 */
export type AiPurpose = 'user' | 'search' | 'training'

export interface AiAgent {
  /** The RFC 9309 product token, as the vendor writes it. */
  token: string
  purpose: AiPurpose
  vendor: string
  /** A realistic full User-Agent string, for the tokens the scanner impersonates (its probes, journey identities). */
  userAgent?: string
  /** A robots.txt token only: the vendor crawls under another name (Google-Extended is honoured by Googlebot). */
  tokenOnly?: boolean
  /** Superseded by a newer token, still seen in robots.txt files. */
  deprecated?: boolean
}

export const AI_AGENTS: readonly AiAgent[] = [
  {
    token: 'ChatGPT-User',
    purpose: 'user',
    vendor: 'OpenAI',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  },
  {
    token: 'Claude-User',
    purpose: 'user',
    vendor: 'Anthropic',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  },
  {
    token: 'Perplexity-User',
    purpose: 'user',
    vendor: 'Perplexity',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
  },
  {
    token: 'MistralAI-User',
    purpose: 'user',
    vendor: 'Mistral AI',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)',
  },
  { token: 'DuckAssistBot', purpose: 'user', vendor: 'DuckDuckGo' },
  { token: 'Google-Agent', purpose: 'user', vendor: 'Google' },
  { token: 'Meta-ExternalFetcher', purpose: 'user', vendor: 'Meta' },
  {
    token: 'OAI-SearchBot',
    purpose: 'search',
    vendor: 'OpenAI',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot',
  },
  { token: 'Claude-SearchBot', purpose: 'search', vendor: 'Anthropic' },
  {
    token: 'PerplexityBot',
    purpose: 'search',
    vendor: 'Perplexity',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  },
  { token: 'Applebot', purpose: 'search', vendor: 'Apple' },
  { token: 'Amzn-SearchBot', purpose: 'search', vendor: 'Amazon' },
  {
    token: 'GPTBot',
    purpose: 'training',
    vendor: 'OpenAI',
    userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot',
  },
  {
    token: 'ClaudeBot',
    purpose: 'training',
    vendor: 'Anthropic',
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  },
  { token: 'Google-Extended', purpose: 'training', vendor: 'Google', tokenOnly: true },
  { token: 'Applebot-Extended', purpose: 'training', vendor: 'Apple', tokenOnly: true },
  { token: 'CCBot', purpose: 'training', vendor: 'Common Crawl' },
  { token: 'meta-externalagent', purpose: 'training', vendor: 'Meta' },
  { token: 'Bytespider', purpose: 'training', vendor: 'ByteDance' },
  { token: 'Amazonbot', purpose: 'training', vendor: 'Amazon' },
  { token: 'cohere-training-data-crawler', purpose: 'training', vendor: 'Cohere' },
  { token: 'anthropic-ai', purpose: 'training', vendor: 'Anthropic', deprecated: true },
  { token: 'Claude-Web', purpose: 'training', vendor: 'Anthropic', deprecated: true },
  { token: 'Diffbot', purpose: 'training', vendor: 'Diffbot' },
  { token: 'omgili', purpose: 'training', vendor: 'Webz.io' },
]

/** The agents the homepage is fetched as (docs/checks.md §16): user agents, search bots and training crawlers. */
export const PROBED_AGENT_TOKENS = [
  'ChatGPT-User',
  'Claude-User',
  'PerplexityBot',
  'OAI-SearchBot',
  'ClaudeBot',
  'GPTBot',
] as const

export function agentsFor(purpose: AiPurpose): AiAgent[] {
  return AI_AGENTS.filter((agent) => agent.purpose === purpose)
}

/** The agent a robots.txt product token names (case-insensitive, as RFC 9309 matches), if it is an AI agent. */
export function findAiAgent(token: string): AiAgent | undefined {
  const wanted = token.trim().toLowerCase()
  return AI_AGENTS.find((agent) => agent.token.toLowerCase() === wanted)
}

/** A probed agent with its User-Agent string; throws for a token without one (a configuration mistake). */
export function probedAgent(token: (typeof PROBED_AGENT_TOKENS)[number]): AiAgent & { userAgent: string } {
  const agent = findAiAgent(token)
  if (!agent?.userAgent) throw new Error(`ai-agents: ${token} has no User-Agent string to probe with`)
  return { ...agent, userAgent: agent.userAgent }
}
