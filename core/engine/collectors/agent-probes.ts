import { CollectorError, type CollectorContext, defineCollector } from '../contract.ts'
import { PROBED_AGENT_TOKENS, probedAgent } from '../lib/ai-agents.ts'
import { MCP_INITIALIZE_BODY } from '../lib/discovery.ts'
import { BROWSER_HEADERS, fetchSnapshot, type HttpSnapshot } from '../snapshot.ts'

/** Why an agent fetches: policy checks never penalise blocking training crawlers (checks.md §2). */
export type AgentPurpose = 'browser' | 'user' | 'search' | 'training' | 'scanner-signed' | 'scanner-unsigned'

export interface AgentProbe {
  /** Product token or probe name (`ChatGPT-User`, `browser`, `scanner-signed`). */
  agent: string
  purpose: AgentPurpose
  userAgent: string
  /** The homepage (or MCP endpoint) as this agent got it; the body is capped at 64 KiB. */
  response: HttpSnapshot
  /** The request carried the scanner's Web Bot Auth signature (only `scanner-signed`, and only with a SIGNING_KEY). */
  signed?: boolean
}

export interface AgentProbes {
  probes: AgentProbe[]
  /** Probes whose request did not complete (timeout, reset), kept apart: an error is not a block (checks.md §0). */
  errors?: { agent: string; purpose: AgentPurpose; userAgent: string; error: string }[]
}

/** Enough to recognise a challenge page; nobody needs the rest of the homepage eight times over. */
const BODY_CAP = 64 * 1024
const PAGE_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

interface ProbeSpec {
  agent: string
  purpose: AgentPurpose
  userAgent: string
  headers: Record<string, string>
  sign: boolean
}

function probeSpecs(scannerUserAgent: string): ProbeSpec[] {
  // Impersonating probes are unsigned: a real ChatGPT-User request does not carry the scanner's key.
  const agents = PROBED_AGENT_TOKENS.map((token): ProbeSpec => {
    const agent = probedAgent(token)
    return {
      agent: agent.token,
      purpose: agent.purpose,
      userAgent: agent.userAgent,
      headers: { 'user-agent': agent.userAgent, accept: PAGE_ACCEPT },
      sign: false,
    }
  })
  return [
    { agent: 'browser', purpose: 'browser', userAgent: BROWSER_HEADERS['user-agent'], headers: { ...BROWSER_HEADERS }, sign: false },
    ...agents,
    { agent: 'scanner-signed', purpose: 'scanner-signed', userAgent: scannerUserAgent, headers: { accept: PAGE_ACCEPT }, sign: true },
    { agent: 'scanner-unsigned', purpose: 'scanner-unsigned', userAgent: scannerUserAgent, headers: { accept: PAGE_ACCEPT }, sign: false },
  ]
}

async function probe(ctx: CollectorContext, spec: ProbeSpec): Promise<HttpSnapshot> {
  const { target } = ctx
  const isMcp = target.kind !== 'domain' && target.mcpUrl !== undefined
  const response = isMcp
    ? await fetchSnapshot(ctx.http, target.mcpUrl!, {
        method: 'POST',
        headers: {
          ...spec.headers,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        body: MCP_INITIALIZE_BODY,
        sign: spec.sign,
        maxBytes: BODY_CAP,
      })
    : // No size option here: the homepage collector's identical request is then answered from the session memo.
      await fetchSnapshot(ctx.http, `${target.origin}/`, { headers: spec.headers, sign: spec.sign })
  return response.body.length > BODY_CAP ? { ...response, body: response.body.slice(0, BODY_CAP), truncated: true } : response
}

/**
 * Fetches the homepage (or POSTs initialize to the MCP endpoint) as a browser, as AI agents of each purpose and
 * as the scanner signed and unsigned, so that challenge checks can compare what each was served (checks.md §16).
 */
export const agentProbesCollector = defineCollector({
  key: 'agentProbes',
  async collect(ctx) {
    const signingConfigured = ctx.config.signingKey !== null
    const specs = probeSpecs(ctx.config.scanner.userAgent)
    const settled = await Promise.allSettled(specs.map((spec) => probe(ctx, spec)))
    const probes: AgentProbe[] = []
    const errors: NonNullable<AgentProbes['errors']> = []
    settled.forEach((result, index) => {
      const spec = specs[index]!
      if (result.status === 'fulfilled') {
        probes.push({
          agent: spec.agent,
          purpose: spec.purpose,
          userAgent: spec.userAgent,
          response: result.value,
          signed: spec.sign && signingConfigured,
        })
        return
      }
      if (!(result.reason instanceof CollectorError)) throw result.reason
      if (spec.purpose === 'browser') throw result.reason
      errors.push({ agent: spec.agent, purpose: spec.purpose, userAgent: spec.userAgent, error: result.reason.message })
    })
    return { probes, errors }
  },
})
