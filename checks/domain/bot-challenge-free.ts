// Declared AI agents and the signed scanner get the homepage (or MCP endpoint) without a bot challenge or block.
// Spec: https://developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response/
import type { AgentProbe } from '../../core/engine/collectors/agent-probes.ts'
import { refusalVerdict } from '../../core/engine/lib/agent-refusal.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { BLOCKED_FACTOR, BLOCKED_NOTE } from '../../core/engine/scoring.ts'
import { readJsonRpcResponse } from '../../core/engine/lib/mcp-wire.ts'
import { percent, STOPS_AGENTS_SHARE, weighRefusal } from '../../core/engine/lib/agent-traffic.ts'
import { unreachable } from '../lib/outcomes.ts'
import { captchaOnForm, type ChallengeVerdict, detectChallenge } from '../../core/engine/lib/challenge.ts'
import { type HttpSnapshot, isOk } from '../../core/engine/snapshot.ts'

type Judged = { probe: AgentProbe; verdict: ChallengeVerdict }

const listed = (judged: readonly Judged[]) =>
  judged.map(({ probe, verdict }) => `${probe.agent} (${verdict.reason})`).join(', ')

/** The signed scanner is held to the user-agent standard only when it really signed (a SIGNING_KEY is set). */
const mustPass = (probe: AgentProbe) =>
  probe.purpose === 'user' || (probe.purpose === 'scanner-signed' && probe.signed === true)

export default defineCheck({
  meta: {
    id: 'bot-challenge-free',
    name: 'No bot challenge for declared agents',
    description: `AI agents acting for a person, AI search bots and signed agents must get the real page or endpoint, not a CAPTCHA, an interstitial or a 403 that a browser would not see. Challenging agents that carry ${percent(STOPS_AGENTS_SHARE)} or more of assistant fetches (each of ChatGPT-User, Perplexity-User and Claude-User alone does; each agent weighed by its share of real traffic, the same rule as a robots.txt refusal), or signed requests, stops agents outright: while it lasts the score is multiplied by ${BLOCKED_FACTOR} (no grade above C). A smaller refusal costs points by the traffic it turns away.`,
    layer: 'accessibility',
    applicability: 'all',
    tier: 'required',
    maturity: 'verified',
    maxScore: 10,
    specUrl: 'https://developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response/',
    recommendation:
      'Exempt declared AI agents (ChatGPT-User, Claude-User, PerplexityBot…) and Web Bot Auth signed requests from bot challenges at your CDN or WAF.',
    needs: ['agentProbes'],
    essentialsAccess: 'unchallenged',
    stopsAgents: true,
  },
  run({ agentProbes }, { target }) {
    const subject = target.kind === 'domain' ? 'the homepage' : 'the MCP endpoint'
    const browser = agentProbes.probes.find((probe) => probe.purpose === 'browser')
    if (!browser) return unreachable(`No browser baseline for ${subject}; challenges cannot be told apart`)
    const judged: Judged[] = agentProbes.probes
      .filter((probe) => probe.purpose !== 'browser')
      .map((probe) => ({ probe, verdict: refusalVerdict(probe.response, browser.response, target.kind) }))
    const hit = (filter: (probe: AgentProbe) => boolean) =>
      judged.filter(({ probe, verdict }) => verdict.kind !== null && filter(probe))
    const userRefused = hit((probe) => probe.purpose === 'user')
    const signedRefused = hit((probe) => probe.purpose === 'scanner-signed' && mustPass(probe))
    // Search crawlers index pages; they never call an MCP endpoint, so refusing them there is noted, not penalised.
    const searchMatters = target.kind === 'domain'
    const search = searchMatters ? hit((probe) => probe.purpose === 'search') : []
    const refusal = weighRefusal(
      [...userRefused, ...search].map(({ probe }) => ({
        token: probe.agent,
        purpose: probe.purpose as 'user' | 'search',
      })),
    )
    const notes: string[] = []
    const mcpSearch = searchMatters ? [] : hit((probe) => probe.purpose === 'search')
    if (mcpSearch.length)
      notes.push(`AI search crawlers refused (${listed(mcpSearch)}): they do not call MCP endpoints, not penalised`)
    const training = hit((probe) => probe.purpose === 'training')
    if (training.length)
      notes.push(`training crawlers refused at the edge (${listed(training)}): a policy choice, not penalised`)
    const otherScanner = hit((probe) => probe.purpose.startsWith('scanner') && !mustPass(probe))
    if (otherScanner.length) notes.push(`unsigned scanner request refused (${listed(otherScanner)})`)
    const note = notes.length ? `; ${notes.join('; ')}` : ''

    const userShare = userRefused.length ? ` (about ${percent(refusal.userShare)} of assistant fetches)` : ''
    if (refusal.stopsAgents || signedRefused.length) {
      const failing = [...userRefused, ...signedRefused]
      return fail(
        `${subject} challenges or blocks agents acting for a person: ${listed(failing)}${userShare}${search.length ? `; AI search bots too: ${listed(search)}` : ''}${note}`,
        `Exempt ${failing.map(({ probe }) => probe.agent).join(', ')} from bot challenges on ${subject} (a WAF skip rule for verified AI agents${signedRefused.length ? ', and accept requests carrying a valid Web Bot Auth signature' : ''}); people using AI assistants are sent away otherwise. ${BLOCKED_NOTE}`,
      )
    }

    const unfinished = (agentProbes.errors ?? []).filter(
      (error) => error.purpose === 'user' || error.purpose === 'scanner-signed',
    )
    if (unfinished.length) {
      return unreachable(
        `Could not finish the probes of ${subject} as ${unfinished.map((error) => `${error.agent} (${error.error})`).join(', ')}`,
      )
    }
    const browserVerdict = detectChallenge(browser.response, null)
    // An MCP endpoint that answers JSON-RPC served the agent, whatever the status: a 2026-07-28 server rejects the
    // probes' legacy initialize with 400 and -32022 for everyone, which is no block.
    const answered = (response: HttpSnapshot) =>
      isOk(response) || (target.kind !== 'domain' && readJsonRpcResponse(response) !== null)
    const anyServed = judged.some(({ probe }) => mustPass(probe) && answered(probe.response))
    if (!answered(browser.response) && browserVerdict.kind === null && !anyServed) {
      return unreachable(
        `${subject} answered ${browser.response.status} to a browser as well, so a block aimed at agents cannot be told from an outage or a network-wide block`,
      )
    }

    // A refusal too small to stop agents costs points by the traffic it turns away (the rule robots.txt refusals follow).
    if (userRefused.length || search.length) {
      const refused = [...userRefused, ...search]
      const parts = [
        ...(userRefused.length
          ? [
              `agents acting for a person that carry too small a share of assistant fetches to stop agents are challenged or blocked: ${listed(userRefused)}${userShare}`,
            ]
          : []),
        ...(search.length ? [`AI search bots are challenged or blocked: ${listed(search)}`] : []),
      ]
      return warn(
        `${userRefused.length ? 'Most' : 'All'} agents acting for a person get ${subject}, but ${parts.join('; ')}${note}`,
        `Exempt ${refused.map(({ probe }) => probe.agent).join(', ')} from bot challenges, or ${userRefused.length ? 'the people using those assistants are sent away' : 'the site drops out of AI answers and citations'}.`,
        { fraction: refusal.fraction },
      )
    }
    const captcha = target.kind === 'domain' ? captchaOnForm(browser.response.body) : null
    if (captcha) {
      return warn(
        `No agent is challenged, but a ${captcha} widget sits on a form of ${subject}, which agents cannot complete${note}`,
        `Offer agents a way around the ${captcha} on that form (an API, an MCP tool, or accepting Web Bot Auth signed requests in place of the CAPTCHA).`,
      )
    }
    const served = judged
      .filter(({ verdict }) => verdict.kind === null)
      .map(({ probe }) => `${probe.agent} ${probe.response.status}`)
    return pass(
      `${subject} serves every user-initiated and AI search agent without a challenge (${served.join(', ')}; browser ${browser.response.status})${note}`,
    )
  },
})
