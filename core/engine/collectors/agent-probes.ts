import { CollectorError, type CollectorContext, defineCollector } from '../check.ts'
import { PROBED_AGENT_TOKENS, probedAgent } from '../lib/ai-agents.ts'
import { MCP_INITIALIZE_BODY } from '../lib/mcp-wire.ts'
import { nullOnCollectorError } from './lib/fetch.ts'
import { BROWSER_HEADERS, fetchSnapshot, type HttpSnapshot } from '../snapshot.ts'
import { SSE_ACCEPT, streamHead } from '../../mcp-client/sse.ts'
import type { McpExchange, McpServerArtifact } from './mcp.ts'

/** Why an agent fetches: policy checks never penalise blocking training crawlers (docs/checks.md §2). */
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
  /** Probes whose request did not complete (timeout, reset), kept apart: an error is not a block (docs/checks.md §0). */
  errors?: { agent: string; purpose: AgentPurpose; userAgent: string; error: string }[]
  /**
   * mcp kinds: what the scanner's own MCP client met on the same endpoint (the `mcp` artifact's exchanges and
   * tool results). Checks that serve every kind (rate-limit headers, x402) read MCP responses here, because a
   * check's needs are collected for every kind and the `mcp` artifact does not exist for domain targets. Absent
   * for domains and when the MCP collection failed.
   */
  mcpSession?: McpSessionEvidence
}

export interface McpSessionEvidence {
  /** Every exchange of the session, labelled by what was sent (`initialize`, `tools/call search`, `probe unknownMethod`). */
  exchanges: { label: string; exchange: McpExchange }[]
  /** The read-only tool calls and their results. */
  toolCalls: McpServerArtifact['toolCalls']
}

/** The session's exchanges in the order the collector made them, each labelled for details. */
export function mcpSessionEvidence(mcp: McpServerArtifact): McpSessionEvidence {
  const exchanges: McpSessionEvidence['exchanges'] = [
    { label: 'initialize', exchange: mcp.initialize },
    ...(mcp.initialized ? [{ label: 'notifications/initialized', exchange: mcp.initialized }] : []),
    { label: 'server/discover', exchange: mcp.discover },
    ...(mcp.ping ? [{ label: 'ping', exchange: mcp.ping }] : []),
    ...Object.entries(mcp.probes).flatMap(([name, exchange]) =>
      exchange ? [{ label: `probe ${name}`, exchange }] : [],
    ),
    ...mcp.uiResources.map((resource) => ({ label: `resources/read ${resource.uri}`, exchange: resource.read })),
    ...mcp.toolCalls.map((call) => ({ label: `tools/call ${call.name}`, exchange: call.exchange })),
  ]
  return { exchanges, toolCalls: mcp.toolCalls }
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
    {
      agent: 'browser',
      purpose: 'browser',
      userAgent: BROWSER_HEADERS['user-agent'],
      headers: { ...BROWSER_HEADERS },
      sign: false,
    },
    ...agents,
    {
      agent: 'scanner-signed',
      purpose: 'scanner-signed',
      userAgent: scannerUserAgent,
      headers: { accept: PAGE_ACCEPT },
      sign: true,
    },
    {
      agent: 'scanner-unsigned',
      purpose: 'scanner-unsigned',
      userAgent: scannerUserAgent,
      headers: { accept: PAGE_ACCEPT },
      sign: false,
    },
  ]
}

/** `sse`: the MCP endpoint speaks only HTTP+SSE, whose defined request is the GET that opens the stream. */
async function probe(ctx: CollectorContext, spec: ProbeSpec, sse: boolean): Promise<HttpSnapshot> {
  const { target } = ctx
  const isMcp = target.kind !== 'domain' && target.mcpUrl !== undefined
  if (isMcp && sse)
    return streamHead(
      ctx.http,
      target.mcpUrl!,
      { headers: { ...spec.headers, accept: SSE_ACCEPT }, sign: spec.sign },
      BODY_CAP,
    )
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
    : // No size option for the browser: the homepage collector's identical request is then answered from the session
      // memo. The other probes are requests of their own, and only their first BODY_CAP bytes are ever looked at.
      await fetchSnapshot(ctx.http, `${target.origin}/`, {
        headers: spec.headers,
        sign: spec.sign,
        ...(spec.agent === 'browser' ? {} : { maxBytes: BODY_CAP }),
      })
  return response.body.length > BODY_CAP
    ? { ...response, body: response.body.slice(0, BODY_CAP), truncated: true }
    : response
}

/**
 * Fetches the homepage (or, on an MCP endpoint, sends the request its transport defines: an initialize POST, or the
 * GET that opens an HTTP+SSE stream) as a browser, as AI agents of each purpose and as the scanner signed and
 * unsigned, so that challenge checks can compare what each was served (docs/checks.md §16).
 */
export const agentProbesCollector = defineCollector({
  key: 'agentProbes',
  async collect(ctx) {
    const signingConfigured = ctx.config.signingKey !== null
    const specs = probeSpecs(ctx.config.scanner.userAgent)
    // The session (every MCP check needs it anyway) says which transport the endpoint speaks, and so which request
    // each agent sends; a failed MCP collection only drops the evidence, and the probes POST initialize.
    const mcp =
      ctx.target.kind !== 'domain' && ctx.target.mcpUrl ? await ctx.get('mcp').catch(nullOnCollectorError) : null
    const settled = await Promise.allSettled(specs.map((spec) => probe(ctx, spec, mcp?.legacySseOnly === true)))
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
    return { probes, errors, ...(mcp ? { mcpSession: mcpSessionEvidence(mcp) } : {}) }
  },
})
