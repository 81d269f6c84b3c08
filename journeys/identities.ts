import { AI_AGENTS } from '../core/engine/lib/ai-agents.ts'
import { BROWSER_HEADERS } from '../core/engine/snapshot.ts'
import type { AgentIdentity } from './types.ts'

/** The product token robots.txt groups name our own agent by (it is in the scanner's User-Agent). */
export const AGENT_TOKEN = 'AgentReadiness'

/** Our own agent: the scanner's User-Agent (AgentReadiness), signed per Web Bot Auth, bound by robots.txt for AgentReadiness. */
export const SELF: AgentIdentity = {
  id: 'self',
  userAgent: null,
  robotsToken: AGENT_TOKEN,
  sign: true,
  publishedAt: null,
}

/**
 * A person's browser: the baseline of a compare run. Unsigned (a browser has no Web Bot Auth key) and not bound by
 * robots.txt, which governs automated agents, not a person clicking through a site.
 */
export const BROWSER: AgentIdentity = {
  id: 'browser',
  userAgent: BROWSER_HEADERS['user-agent'],
  robotsToken: null,
  sign: false,
  publishedAt: null,
}

/**
 * Where each vendor publishes the token of its user-triggered fetcher (the one an assistant sends when a person
 * asks it to read a page) and the User-Agent string it sends. core/engine/lib/ai-agents.ts holds the strings.
 */
const PUBLISHED_AT: Record<string, string> = {
  'ChatGPT-User': 'https://platform.openai.com/docs/bots',
  'Claude-User':
    'https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler',
  'Perplexity-User': 'https://docs.perplexity.ai/guides/bots',
  'MistralAI-User': 'https://docs.mistral.ai/robots/',
}

/**
 * One identity per AI assistant's user-triggered fetcher whose token and User-Agent string are published: the
 * request carries that exact User-Agent and robots.txt is obeyed for that token. Requests stay signed per Web Bot
 * Auth where a key is configured, so a site can still tell our agent from the vendor's by its signature.
 */
export const ASSISTANT_IDENTITIES: readonly AgentIdentity[] = AI_AGENTS.filter(
  (agent) => agent.purpose === 'user' && agent.userAgent !== undefined && PUBLISHED_AT[agent.token] !== undefined,
).map((agent) => ({
  id: agent.token,
  userAgent: agent.userAgent!,
  robotsToken: agent.token,
  sign: true,
  publishedAt: PUBLISHED_AT[agent.token]!,
}))

/** What robots.txt and the verdicts call the identity: its token, or the browser. */
export function identityName(identity: AgentIdentity): string {
  return identity.robotsToken ?? 'a browser'
}
