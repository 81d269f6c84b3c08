// AI agents that fetch for a person or for AI search are not blocked by robots.txt on / and the key paths (RFC 9309).
// Spec: https://www.rfc-editor.org/rfc/rfc9309 (tokens: checks.md §2)
import type { RobotsArtifact } from '../../core/engine/collectors/robots.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { BLOCKED_FACTOR, BLOCKED_NOTE } from '../../core/engine/scoring.ts'
import { type AiAgent, agentsFor } from '../../core/engine/lib/ai-agents.ts'
import { isOk, looksLikeHtml } from '../../core/engine/snapshot.ts'

/** A Crawl-delay this long throttles live agent use to a crawl (checks.md §2). */
const SLOW_CRAWL_DELAY_S = 30

/** The group that governs a token: the one naming it, else `*`; described for recommendations. */
function governingGroup(robots: RobotsArtifact, token: string): string {
  const wanted = token.toLowerCase()
  const named = robots.groups.find((group) => group.agents.some((agent) => agent.toLowerCase() === wanted))
  return named ? `the "User-agent: ${token}" group` : 'the "User-agent: *" group'
}

const tokens = (agents: readonly AiAgent[]) => agents.map((agent) => agent.token).join(', ')

export default defineCheck({
  meta: {
    id: 'robots-ai-agents-allowed',
    name: 'AI agents not blocked by robots.txt',
    description:
      `Agents fetching for a person (ChatGPT-User, Claude-User…) and AI search crawlers must be allowed by robots.txt, or the site disappears from live agent use and AI answers. Disallowing every agent acting for a person stops them outright: while it lasts the score is multiplied by ${BLOCKED_FACTOR} (no grade above C). Blocking training crawlers is a policy choice and is not penalised.`,
    layer: 'accessibility',
    applicability: 'domain-only',
    tier: 'required',
    maturity: 'verified',
    maxScore: 10,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc9309',
    recommendation:
      'Allow user-initiated agents (ChatGPT-User, Claude-User, Perplexity-User…) and AI search bots (OAI-SearchBot, Claude-SearchBot, PerplexityBot…) in robots.txt; block training crawlers only if that is your policy.',
    needs: ['robots', 'llmsTxt', 'docsPage', 'commerceSignals'],
    essentialsExcluded: true,
    essentialsAccess: 'agentsAllowed',
    stopsAgents: true,
  },
  run({ robots, llmsTxt, docsPage, commerceSignals }, { target }) {
    const { status } = robots.response
    if (status >= 500) {
      return fail(
        `/robots.txt answered ${status}: under RFC 9309 a 5xx means every crawler and agent must assume "disallow everything"`,
        `Fix the server error on /robots.txt so that it answers 200 with your rules (or 404 for no restrictions). ${BLOCKED_NOTE}`,
      )
    }
    if (!robots.found) {
      return pass(`No robots.txt (${robots.isHtml ? 'an HTML page' : `status ${status}`}): under RFC 9309 every agent may fetch everything`)
    }

    // Key paths the scan found, on this origin (robots.txt governs only its own scheme, host and port).
    const paths = ['/']
    const sameOrigin = (url: string) => URL.parse(url)?.origin === target.origin
    if (isOk(llmsTxt) && !looksLikeHtml(llmsTxt.body)) paths.push('/llms.txt')
    if (docsPage && sameOrigin(docsPage.url)) paths.push(new URL(docsPage.url).pathname)
    const product = commerceSignals.productUrls.find(sameOrigin)
    if (product) paths.push(new URL(product).pathname)
    const keyPaths = [...new Set(paths)].slice(0, 4)

    const blockedOn = (agent: AiAgent) => keyPaths.filter((path) => !robots.isAllowed(agent.token, path))
    const user = agentsFor('user')
    const search = agentsFor('search')
    const userBlockedAtRoot = user.filter((agent) => !robots.isAllowed(agent.token, '/'))
    const userBlocked = user.filter((agent) => blockedOn(agent).length > 0)
    const searchBlocked = search.filter((agent) => blockedOn(agent).length > 0)
    const slow = [...user, ...search]
      .map((agent) => ({ agent, delay: robots.crawlDelay(agent.token) }))
      .filter((entry): entry is { agent: AiAgent; delay: number } => entry.delay !== undefined && entry.delay >= SLOW_CRAWL_DELAY_S)
    const trainingBlocked = agentsFor('training').filter((agent) => !robots.isAllowed(agent.token, '/'))
    const trainingNote = trainingBlocked.length
      ? `; training crawlers disallowed (${tokens(trainingBlocked)}): a policy choice, not penalised`
      : ''
    const scope = keyPaths.length > 1 ? `/ and ${keyPaths.length - 1} key path(s) (${keyPaths.slice(1).join(', ')})` : '/ (no other key path found)'

    if (userBlockedAtRoot.length === user.length) {
      const wildcard = robots.isAllowed('*', '/') ? '' : ' (a wildcard "Disallow: /" with no override for them)'
      return fail(
        `Every user-initiated AI agent is disallowed on /${wildcard}: ${tokens(user)}${trainingNote}`,
        `Add a group to robots.txt with the lines "User-agent: ChatGPT-User", "User-agent: Claude-User", "User-agent: Perplexity-User" and "Allow: /" before the rules in ${governingGroup(robots, 'ChatGPT-User')}, so agents acting for a person can read the site. ${BLOCKED_NOTE}`,
      )
    }

    const problems: string[] = []
    if (userBlocked.length) {
      problems.push(`user-initiated agents disallowed: ${userBlocked.map((agent) => `${agent.token} on ${blockedOn(agent).join(', ')}`).join('; ')}`)
    }
    if (searchBlocked.length) {
      problems.push(`AI search crawlers disallowed: ${searchBlocked.map((agent) => `${agent.token} on ${blockedOn(agent).join(', ')}`).join('; ')}`)
    }
    if (slow.length) problems.push(`Crawl-delay ≥ ${SLOW_CRAWL_DELAY_S} s for ${slow.map(({ agent, delay }) => `${agent.token} (${delay} s)`).join(', ')}`)
    if (problems.length) {
      const fixes: string[] = []
      const blocked = [...userBlocked, ...searchBlocked]
      if (blocked.length) {
        fixes.push(
          `allow ${tokens(blocked)} on ${keyPaths.join(', ')} (the rules come from ${governingGroup(robots, blocked[0]!.token)}); e.g. add "User-agent: ${blocked[0]!.token}" with "Allow: /"`,
        )
      }
      if (slow.length) fixes.push(`lower or drop the Crawl-delay for ${tokens(slow.map(({ agent }) => agent))}`)
      return warn(`${problems.join('; ')}${trainingNote}`, `In robots.txt, ${fixes.join('; and ')}.`)
    }
    return pass(`All user-initiated and AI search agents are allowed on ${scope}${trainingNote}`)
  },
})
