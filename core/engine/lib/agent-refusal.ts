import type { ScanKind } from '../check.ts'
import { type HttpSnapshot, looksLikeHtml } from '../snapshot.ts'
import { BLOCK_STATUSES, type ChallengeVerdict, detectChallenge } from './challenge.ts'

/**
 * The one rule for "an agent was turned away", shared by the scan's bot-challenge check (its probes of the homepage
 * or MCP endpoint) and the journeys (every page a run fetches): a challenge page, or a plain 403/429/503 while a
 * browser got a 2xx from the same URL. A scan that flags a site and a journey on that site that calls the same answer
 * a mere failure would tell a site owner two different stories.
 */

const isHtml = (response: HttpSnapshot) => response.contentType === 'text/html' || looksLikeHtml(response.body)

/**
 * Judges what an agent got against what a browser got from the same URL (`browser`: null when there is no browser
 * copy, which leaves only the challenge markers). On an MCP endpoint an HTML page where the browser got the JSON-RPC
 * answer is an interstitial too, even when it carries no vendor marker: an agent cannot use it.
 */
export function refusalVerdict(response: HttpSnapshot, browser: HttpSnapshot | null, kind: ScanKind): ChallengeVerdict {
  const verdict = detectChallenge(response, browser)
  if (verdict.kind !== null || kind === 'domain' || browser === null) return verdict
  if (isHtml(response) && !isHtml(browser)) {
    return {
      kind: 'challenge',
      reason: `${response.status} with an HTML page instead of the JSON-RPC answer a browser got`,
    }
  }
  return verdict
}

/**
 * Whether the answer can be judged only beside a browser's copy: a 403/429/503 without challenge markers is a block
 * when a browser is served, and an outage or a site closed to everyone when it is not.
 */
export function needsBrowserCopy(response: HttpSnapshot): boolean {
  return BLOCK_STATUSES.has(response.status) && detectChallenge(response, null).kind === null
}
