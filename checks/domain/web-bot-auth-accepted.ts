// A request signed with Web Bot Auth (RFC 9421) is served, and not treated worse than the same request unsigned.
// Spec: https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/ (-00, adopted 2026-09-01)
import type { AgentProbe } from '../../core/engine/collectors/agent-probes.ts'
import { refusalVerdict } from '../../core/engine/lib/agent-refusal.ts'
import { defineCheck, na, pass, warn } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import { isOk } from '../../core/engine/snapshot.ts'

export default defineCheck({
  meta: {
    id: 'web-bot-auth-accepted',
    name: 'Signed agent requests accepted',
    description:
      'Agents can prove who they are by signing requests (Web Bot Auth); a site that serves signed requests lets identified agents through instead of guessing from the User-Agent.',
    layer: 'accessibility',
    applicability: 'all',
    tier: 'emerging',
    maturity: 'emerging',
    draft: true,
    maxScore: 3,
    specUrl: 'https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/',
    recommendation:
      'Accept Web Bot Auth signed requests at your CDN or WAF (e.g. Cloudflare verified bots / signed agents) instead of challenging them.',
    needs: ['agentProbes'],
  },
  run({ agentProbes }, { target }) {
    const subject = target.kind === 'domain' ? 'the homepage' : 'the MCP endpoint'
    const find = (purpose: AgentProbe['purpose']) => agentProbes.probes.find((probe) => probe.purpose === purpose)
    const signed = find('scanner-signed')
    const unsigned = find('scanner-unsigned')
    const browser = find('browser') ?? null
    if (!signed) {
      const error = agentProbes.errors?.find((entry) => entry.purpose === 'scanner-signed')
      return unreachable(`The signed request to ${subject} did not complete${error ? `: ${error.error}` : ''}`)
    }
    if (!signed.signed) return na('The scanner has no signing key configured, so no signed request was sent')

    const judge = (probe: AgentProbe) => {
      const verdict = refusalVerdict(probe.response, browser?.response ?? null, target.kind)
      const served = verdict.kind === null && isOk(probe.response)
      return { served, text: `${probe.response.status}${verdict.reason ? ` (${verdict.reason})` : ''}` }
    }
    const signedResult = judge(signed)
    const unsignedResult = unsigned ? judge(unsigned) : null
    const comparison = unsignedResult ? `; the same request unsigned got ${unsignedResult.text}` : ''

    if (signedResult.served) {
      const lifted = unsignedResult && !unsignedResult.served ? ': the signature got it through' : ''
      return pass(`The signed request to ${subject} got ${signedResult.text}${comparison}${lifted}`)
    }
    if (unsignedResult?.served) {
      return warn(
        `The signed request to ${subject} got ${signedResult.text}, worse than the same request unsigned${comparison}`,
        `Stop treating Web Bot Auth signed requests worse than unsigned ones on ${subject}: a signature that verifies identifies the agent, so it should be let through (or at worst treated like any other request).`,
      )
    }
    return warn(
      `The signed request to ${subject} got ${signedResult.text}${comparison}: the signature does not get an identified agent through`,
      `Let requests with a valid Web Bot Auth signature through the bot protection on ${subject} (verify Signature-Agent against its key directory), so identified agents are not challenged like anonymous bots.`,
    )
  },
})
