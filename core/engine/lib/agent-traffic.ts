/**
 * How much of the traffic AI assistants send each agent carries, and the one rule that says when refusing some of
 * them stops agents outright. `robots-ai-agents-allowed` (robots.txt) and `bot-challenge-free` (the edge) both
 * judge a refusal here, so a robots.txt rule and an edge challenge of the same agents weigh the same.
 *
 * The shares are rounded estimates of each agent's part of its purpose's traffic, from public measurements:
 * - Cloudflare Radar, AI Insights (radar.cloudflare.com/ai-insights): AI bot traffic by crawl purpose (training,
 *   search, user action) and by user agent; its 2025 Year in Review (radar.cloudflare.com/year-in-review/2025)
 *   measured "user action" fetching growing more than 15-fold during 2025;
 * - Cloudflare, "From Googlebot to GPTBot: who's crawling your site in 2025" (blog.cloudflare.com, 2025-07-01):
 *   ChatGPT-User requests up 2,825 % from May 2024 to May 2025, PerplexityBot up 157,490 % from a small base;
 * - Cloudflare, "A deeper look at AI crawlers: breaking down traffic by purpose and industry" (blog.cloudflare.com,
 *   2025-08-28): ChatGPT-User carries a significant share of all AI crawling, user-initiated as it is;
 * - audience: ChatGPT about 800 million weekly users (OpenAI, October 2025), far more than Perplexity or Claude;
 *   industry trackers put ChatGPT at about four fifths of the referrals AI platforms sent sites in 2025.
 * Vendors do not publish per-agent request counts, so a share is an estimate to a few points, not a measurement;
 * what the rule depends on is the order (ChatGPT-User alone carries the majority of assistant fetches, Perplexity-User
 * and Claude-User come next, each above a tenth), which the sources above point to. Revisit the shares with each
 * Year in Review.
 */
import type { AiAgent, AiPurpose } from './ai-agents.ts'

/** Share of the fetches AI assistants make on a person's behalf (purpose `user`); sums to 1. */
const USER_SHARE: Record<string, number> = {
  'ChatGPT-User': 0.6,
  'Perplexity-User': 0.13,
  'Claude-User': 0.12,
  'Google-Agent': 0.07,
  'Meta-ExternalFetcher': 0.04,
  'MistralAI-User': 0.02,
  DuckAssistBot: 0.02,
}

/** Share of AI search crawling (purpose `search`): the indexes assistants answer from; sums to 1. */
const SEARCH_SHARE: Record<string, number> = {
  'OAI-SearchBot': 0.4,
  Applebot: 0.25,
  PerplexityBot: 0.2,
  'Claude-SearchBot': 0.1,
  'Amzn-SearchBot': 0.05,
}

const SHARES: Record<Exclude<AiPurpose, 'training'>, Record<string, number>> = {
  user: USER_SHARE,
  search: SEARCH_SHARE,
}

/**
 * Refusing agents that carry at least this share of assistant fetches stops agents outright: one person in ten or
 * more who asks an assistant about the site gets nothing. Each of the main assistants (ChatGPT-User, Perplexity-User,
 * Claude-User) reaches it alone, which keeps the edge rule the scanner always had (a challenge of ChatGPT-User or of
 * Claude-User blocks); a smaller one (DuckAssistBot, MistralAI-User) alone does not, and costs points instead.
 */
export const STOPS_AGENTS_SHARE = 0.1

/** An agent's share of its purpose's traffic; training crawlers carry none that matters here. */
export function trafficShare(agent: Pick<AiAgent, 'token' | 'purpose'>): number {
  if (agent.purpose === 'training') return 0
  return SHARES[agent.purpose][agent.token] ?? 0
}

export interface Refusal {
  /** Share of assistant fetches (purpose `user`) refused, 0..1. */
  userShare: number
  /** Share of AI search crawling refused, 0..1. */
  searchShare: number
  /** The refusal stops agents outright: the check fails and the score takes the block factor. */
  stopsAgents: boolean
  /**
   * The share of the check's points kept when it does not stop agents: refused assistant fetches and refused
   * search crawling weigh half each, so a site that refuses DuckAssistBot alone keeps 99 % and one that refuses every
   * AI search bot keeps half.
   */
  fraction: number
}

/** Weighs the refused agents (tokens of any purpose; training tokens weigh nothing) by the one rule. */
export function weighRefusal(refused: readonly Pick<AiAgent, 'token' | 'purpose'>[]): Refusal {
  const sum = (purpose: AiPurpose) =>
    refused.filter((agent) => agent.purpose === purpose).reduce((total, agent) => total + trafficShare(agent), 0)
  const userShare = Math.min(1, sum('user'))
  const searchShare = Math.min(1, sum('search'))
  return {
    userShare,
    searchShare,
    stopsAgents: userShare >= STOPS_AGENTS_SHARE,
    fraction: 1 - (userShare + searchShare) / 2,
  }
}

/** "about 60 % of assistant fetches", for details. */
export const percent = (share: number): string => `${Math.round(share * 100)} %`
