import { isRecord } from '../../core/engine/snapshot.ts'
import { defineIntent, type FetchedPage } from '../types.ts'
import { answerFrom, completedPages, hasString, jsonObject, judgement, pathOf } from '../judging.ts'
import { AGENT_TOKEN } from '../identities.ts'

/** User agents of AI crawlers and assistants that robots.txt groups name when a site states an AI policy. */
const AI_AGENTS = new RegExp(
  `^(${[AGENT_TOKEN, 'GPTBot', 'ChatGPT-User', 'OAI-SearchBot', 'ClaudeBot', 'Claude-User', 'Claude-SearchBot', 'anthropic-ai', 'PerplexityBot', 'Perplexity-User', 'Google-Extended', 'Applebot-Extended', 'CCBot', 'Bytespider', 'Meta-ExternalAgent', 'Amazonbot', 'cohere-ai', 'MistralAI-User'].join('|')})$`,
  'i',
)

/** The AI agents robots.txt names in groups of their own: the site said what agents may do, not only what everyone may. */
function namedAgents(page: FetchedPage): string[] {
  if (pathOf(page) !== '/robots.txt' || /html/.test(page.contentType)) return []
  return page.text.split('\n').flatMap((line) => {
    const match = /^\s*user-agent\s*:\s*(\S+)/i.exec(line)
    return match !== null && AI_AGENTS.test(match[1]!) ? [match[1]!] : []
  })
}

const robotsWithAgentGroups = (page: FetchedPage) => namedAgents(page).length > 0

/** The endpoint an MCP server card names (its first remote, or `endpoint` / `url`). */
function mcpEndpoint(page: FetchedPage): string | null {
  const card = jsonObject(page)!
  const remote = Array.isArray(card.remotes)
    ? card.remotes.find((entry) => isRecord(entry) && typeof entry.url === 'string')
    : undefined
  if (isRecord(remote)) return remote.url as string
  return hasString(card, 'endpoint') ? (card.endpoint as string) : hasString(card, 'url') ? (card.url as string) : null
}

/** Every entry point the accepted pages give, each with where it is stated. */
function entryPoints(found: readonly FetchedPage[]): string {
  const parts = found.map((page) => {
    if (mcpCard(page)) return `MCP endpoint ${mcpEndpoint(page)} (server card ${page.finalUrl})`
    if (agentCard(page)) return `A2A agent card ${page.finalUrl}`
    if (llmsTxt(page)) return `llms.txt ${page.finalUrl}`
    return `robots.txt rules for ${[...new Set(namedAgents(page))].join(', ')} (${page.finalUrl})`
  })
  return `Agent entry points: ${parts.join('; ')}.`
}

/** An MCP server card (SEP-2127) naming a remote endpoint, or a legacy /.well-known/mcp.json with one. */
function mcpCard(page: FetchedPage): boolean {
  const card = jsonObject(page)
  if (!card || !/\/\.well-known\/mcp|\/mcp\/server-card/.test(pathOf(page))) return false
  const remotes =
    Array.isArray(card.remotes) && card.remotes.some((remote) => isRecord(remote) && typeof remote.url === 'string')
  return remotes || hasString(card, 'endpoint') || hasString(card, 'url')
}

/** An A2A agent card: a named agent with an interface to call or skills it offers. */
function agentCard(page: FetchedPage): boolean {
  const card = jsonObject(page)
  if (!card || !/\/\.well-known\/agent(-card)?\.json$/.test(pathOf(page))) return false
  return (
    hasString(card, 'name') &&
    (Array.isArray(card.supportedInterfaces) || hasString(card, 'url') || Array.isArray(card.skills))
  )
}

/** llms.txt as the convention has it: served as text, with an H1. */
function llmsTxt(page: FetchedPage): boolean {
  return pathOf(page) === '/llms.txt' && !/html/.test(page.contentType) && /^#\s+\S/m.test(page.text)
}

/**
 * Found when the site tells agents how to use it: an MCP server card, an A2A agent card, llms.txt, or robots.txt
 * rules written for named AI agents. A robots.txt with only a `*` group says nothing about agents.
 */
export default defineIntent({
  meta: {
    id: 'find-agent-access',
    title: 'Find how agents may access the site',
    prompt:
      'How can an AI agent use {domain}? Find what it publishes for agents: an MCP server, an agent card, llms.txt or robots.txt rules for AI agents.',
    layers: ['access', 'discovery'],
    keywords: ['mcp', 'agent', 'llms', 'a2a', 'server-card', 'ai-catalog'],
    paths: ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json', '/.well-known/agent-card.json', '/llms.txt'],
    relatedChecks: [
      'mcp-server-card',
      'a2a-agent-card',
      'llms-txt',
      'robots-ai-rules-explicit',
      'mcp-endpoint-advertised',
    ],
  },
  judge(_trajectory, evidence) {
    const published = completedPages(evidence).filter(
      (page) => mcpCard(page) || agentCard(page) || llmsTxt(page) || robotsWithAgentGroups(page),
    )
    // Entry points first: what the answer leads with and cites.
    const ordered = [
      ...published.filter((page) => !robotsWithAgentGroups(page)),
      ...published.filter(robotsWithAgentGroups),
    ]
    const judged = judgement(
      ordered,
      (page) => `${page.finalUrl} tells agents how to use the site.`,
      'Nothing the agent read (robots.txt, llms.txt, MCP or A2A cards) addresses agents.',
      (found) => answerFrom(found[0]!, entryPoints(found)),
    )
    // robots.txt rules say what agents may do, not where to start: an agent with pointers left looks for an entry point.
    return { ...judged, settled: published.some((page) => !robotsWithAgentGroups(page)) }
  },
})
