// AI agents that fetch for a person or for AI search are not blocked by robots.txt on / and the key paths (RFC 9309).
// Spec: https://www.rfc-editor.org/rfc/rfc9309 (tokens: docs/checks.md §2)
import type { RobotsArtifact } from '../../core/engine/collectors/robots.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { BLOCKED_FACTOR, BLOCKED_NOTE } from '../../core/engine/scoring.ts'
import { type AiAgent, agentsFor } from '../../core/engine/lib/ai-agents.ts'
import { percent, STOPS_AGENTS_SHARE, weighRefusal } from '../../core/engine/lib/agent-traffic.ts'
import { isOk, looksLikeHtml } from '../../core/engine/snapshot.ts'

/** A Crawl-delay this long throttles live agent use to a crawl (docs/checks.md §2). */
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
    description: `Agents fetching for a person (ChatGPT-User, Claude-User…) and AI search crawlers must be allowed by robots.txt, or the site disappears from live agent use and AI answers. Disallowing, on the homepage, agents that carry ${percent(STOPS_AGENTS_SHARE)} or more of assistant fetches (each of ChatGPT-User, Perplexity-User and Claude-User alone does; each agent weighed by its share of real traffic, the same rule as an edge challenge) stops agents outright: while it lasts the score is multiplied by ${BLOCKED_FACTOR} (no grade above C). A smaller refusal costs points by the traffic it turns away. Blocking training crawlers is a policy choice and is not penalised.`,
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
      return pass(
        `No robots.txt (${robots.isHtml ? 'an HTML page' : `status ${status}`}): under RFC 9309 every agent may fetch everything`,
      )
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
      .filter(
        (entry): entry is { agent: AiAgent; delay: number } =>
          entry.delay !== undefined && entry.delay >= SLOW_CRAWL_DELAY_S,
      )
    const trainingBlocked = agentsFor('training').filter((agent) => !robots.isAllowed(agent.token, '/'))
    const trainingNote = trainingBlocked.length
      ? `; training crawlers disallowed (${tokens(trainingBlocked)}): a policy choice, not penalised`
      : ''
    const scope =
      keyPaths.length > 1
        ? `/ and ${keyPaths.length - 1} key path(s) (${keyPaths.slice(1).join(', ')})`
        : '/ (no other key path found)'

    const atRoot = weighRefusal(userBlockedAtRoot)
    if (atRoot.stopsAgents) {
      const wildcard = robots.isAllowed('*', '/') ? '' : ' (a wildcard "Disallow: /" with no override for them)'
      const searchAtRoot = search.filter((agent) => !robots.isAllowed(agent.token, '/'))
      const searchNote = searchAtRoot.length ? `; AI search crawlers too: ${tokens(searchAtRoot)}` : ''
      const named = governingGroup(robots, userBlockedAtRoot[0]!.token) !== 'the "User-agent: *" group'
      const fix = named
        ? `Remove ${tokens(userBlockedAtRoot)} from the robots.txt group that disallows them (or give them a group of their own with "Allow: /")`
        : `Add a group to robots.txt with the lines "User-agent: ChatGPT-User", "User-agent: Claude-User", "User-agent: Perplexity-User" and "Allow: /" before the rules in ${governingGroup(robots, 'ChatGPT-User')}`
      return fail(
        `User-initiated AI agents carrying about ${percent(atRoot.userShare)} of assistant fetches are disallowed on /${wildcard}: ${tokens(userBlockedAtRoot)}${searchNote}${trainingNote}`,
        `${fix}, so agents acting for a person can read the site. ${BLOCKED_NOTE}`,
      )
    }

    const problems: string[] = []
    if (userBlocked.length) {
      problems.push(
        `user-initiated agents disallowed: ${userBlocked.map((agent) => `${agent.token} on ${blockedOn(agent).join(', ')}`).join('; ')}`,
      )
    }
    if (searchBlocked.length) {
      problems.push(
        `AI search crawlers disallowed: ${searchBlocked.map((agent) => `${agent.token} on ${blockedOn(agent).join(', ')}`).join('; ')}`,
      )
    }
    if (slow.length)
      problems.push(
        `Crawl-delay ≥ ${SLOW_CRAWL_DELAY_S} s for ${slow.map(({ agent, delay }) => `${agent.token} (${delay} s)`).join(', ')}`,
      )
    if (problems.length) {
      const fixes: string[] = []
      const blocked = [...userBlocked, ...searchBlocked]
      if (blocked.length) {
        fixes.push(
          `allow ${tokens(blocked)} on ${keyPaths.join(', ')} (the rules come from ${governingGroup(robots, blocked[0]!.token)}); e.g. add "User-agent: ${blocked[0]!.token}" with "Allow: /"`,
        )
      }
      if (slow.length) fixes.push(`lower or drop the Crawl-delay for ${tokens(slow.map(({ agent }) => agent))}`)
      // What is turned away costs points by its share of the traffic; a slow Crawl-delay alone costs the default half.
      const refusal = weighRefusal(blocked)
      const share = blocked.length
        ? ` (about ${percent(refusal.userShare)} of assistant fetches and ${percent(refusal.searchShare)} of AI search crawling)`
        : ''
      return warn(`${problems.join('; ')}${share}${trainingNote}`, `In robots.txt, ${fixes.join('; and ')}.`, {
        fraction: Math.min(blocked.length ? refusal.fraction : 1, slow.length ? 0.5 : 1),
      })
    }
    return pass(`All user-initiated and AI search agents are allowed on ${scope}${trainingNote}`)
  },
})
