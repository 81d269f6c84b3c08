import { isRecord } from '../../core/engine/snapshot.ts'
import { defineIntent, type FetchedPage } from '../contract.ts'
import { completedPages, hasString, jsonObject, judgement, pathOf } from '../judging.ts'
import { AGENT_TOKEN } from '../session.ts'

/** User agents of AI crawlers and assistants that robots.txt groups name when a site states an AI policy. */
const AI_AGENTS = new RegExp(
  `^(${[AGENT_TOKEN, 'GPTBot', 'ChatGPT-User', 'OAI-SearchBot', 'ClaudeBot', 'Claude-User', 'Claude-SearchBot', 'anthropic-ai', 'PerplexityBot', 'Perplexity-User', 'Google-Extended', 'Applebot-Extended', 'CCBot', 'Bytespider', 'Meta-ExternalAgent', 'Amazonbot', 'cohere-ai', 'MistralAI-User'].join('|')})$`,
  'i',
)

/** robots.txt with a group for a named AI agent: the site said what agents may do, not only what everyone may. */
function robotsWithAgentGroups(page: FetchedPage): boolean {
  if (pathOf(page) !== '/robots.txt' || /html/.test(page.contentType)) return false
  return page.text.split('\n').some((line) => {
    const match = /^\s*user-agent\s*:\s*(\S+)/i.exec(line)
    return match !== null && AI_AGENTS.test(match[1]!)
  })
}

/** An MCP server card (SEP-2127) naming a remote endpoint, or a legacy /.well-known/mcp.json with one. */
function mcpCard(page: FetchedPage): boolean {
  const card = jsonObject(page)
  if (!card || !/\/\.well-known\/mcp|\/mcp\/server-card/.test(pathOf(page))) return false
  const remotes = Array.isArray(card.remotes) && card.remotes.some((remote) => isRecord(remote) && typeof remote.url === 'string')
  return remotes || hasString(card, 'endpoint') || hasString(card, 'url')
}

/** An A2A agent card: a named agent with an interface to call or skills it offers. */
function agentCard(page: FetchedPage): boolean {
  const card = jsonObject(page)
  if (!card || !/\/\.well-known\/agent(-card)?\.json$/.test(pathOf(page))) return false
  return hasString(card, 'name') && (Array.isArray(card.supportedInterfaces) || hasString(card, 'url') || Array.isArray(card.skills))
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
    prompt: 'How can an AI agent use {domain}? Find what it publishes for agents: an MCP server, an agent card, llms.txt or robots.txt rules for AI agents.',
    layers: ['access', 'discovery'],
    keywords: ['mcp', 'agent', 'llms', 'a2a', 'server-card', 'ai-catalog'],
    paths: ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json', '/.well-known/agent-card.json', '/llms.txt'],
  },
  judge(_trajectory, evidence) {
    const published = completedPages(evidence).filter((page) => mcpCard(page) || agentCard(page) || llmsTxt(page) || robotsWithAgentGroups(page))
    return judgement(published, (page) => `${page.finalUrl} tells agents how to use the site.`, 'Nothing the agent read (robots.txt, llms.txt, MCP or A2A cards) addresses agents.')
  },
})
