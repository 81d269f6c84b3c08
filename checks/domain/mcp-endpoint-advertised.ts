// The domain tells agents where its MCP server is (server card, AI catalog, API catalog, Link header, llms.txt, homepage) and that URL answers initialize.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports (discovery: docs/checks.md §7)
import type { McpEndpointProbe, McpEndpointSource } from '../../core/engine/collectors/mcp-endpoints.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { type McpEndpointsEvidence, mcpEndpointsEvidence } from '../../core/engine/evidence.ts'
import { listSome } from '../../core/engine/lib/describe.ts'
import { unreachable } from '../lib/outcomes.ts'

const MENTION_SOURCES = new Set<McpEndpointSource>(['homepage', 'llms-txt'])
const responds = (probe: McpEndpointProbe): boolean => probe.answered || probe.authRequired

const endpointsOf = (probes: McpEndpointProbe[]): McpEndpointsEvidence => ({
  mcpEndpoints: probes.map(({ url, source }) => ({ url, source })),
})

function describe(probe: McpEndpointProbe): string {
  if (probe.answered)
    return `${probe.url} (via ${probe.source}) answers initialize${probe.serverName ? ` as "${probe.serverName}"` : ''}`
  if (probe.authRequired) return `${probe.url} (via ${probe.source}) answers ${probe.status} with an auth challenge`
  if (probe.status === null)
    return `${probe.url} (via ${probe.source}) could not be reached (${probe.error ?? 'no response'})`
  return `${probe.url} (via ${probe.source}) answers ${probe.status}${probe.contentType ? ` ${probe.contentType}` : ''}, not JSON-RPC`
}

export default defineCheck({
  meta: {
    id: 'mcp-endpoint-advertised',
    name: 'MCP server advertised by the domain',
    description:
      'An agent that lands on a site should find its MCP server from the site itself (server card, catalogs, Link header, llms.txt) rather than by guessing. A bonus: the scanner cannot tell a site with no MCP server from one that hides it, so advertising one raises the score and not advertising one never lowers it.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 8,
    bonus: true,
    specUrl: 'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
    recommendation:
      'Advertise your MCP endpoint: an entry in /.well-known/ai-catalog.json pointing at its server card (served at <mcp-url>/server-card, with remotes[].url), or a link in llms.txt.',
    needs: ['mcpEndpoints'],
    agentEntryPoint: true,
    surface: 'mcp',
    siteTypeRole: 'mcp-entry-point',
  },
  evidence: mcpEndpointsEvidence,
  run({ mcpEndpoints }, { target }) {
    const { probes } = mcpEndpoints
    // A URL merely written on a page (homepage, llms.txt) that answers with HTML is a page about MCP, not an
    // endpoint claim; declarations (cards, catalogs, Link headers) always count.
    const advertised = probes.filter(
      (probe) =>
        probe.source !== 'blind-probe' &&
        (responds(probe) || !MENTION_SOURCES.has(probe.source) || probe.contentType !== 'text/html'),
    )
    const blind = probes.filter((probe) => probe.source === 'blind-probe')
    const working = advertised.filter(responds)
    if (working.length > 0) {
      const others = advertised.length - working.length
      return pass(
        `${listSome(working.map(describe), 2)}${others > 0 ? `; ${others} other advertised URL(s) did not answer` : ''}`,
        {
          evidence: endpointsOf(working),
        },
      )
    }
    const blindHit = blind.find(responds)
    if (blindHit) {
      const broken = advertised.length > 0 ? `; the advertised ${listSome(advertised.map(describe), 2)}` : ''
      return warn(
        `An MCP server answers at ${blindHit.url}, but only a blind probe found it: nothing on the site advertises it${broken}`,
        `Advertise ${blindHit.url}: serve its server card at ${blindHit.url.replace(/\/+$/, '')}/server-card with remotes: [{"type": "streamable-http", "url": "${blindHit.url}"}], list that card in /.well-known/ai-catalog.json, and link it from llms.txt.`,
        { evidence: endpointsOf([blindHit]) },
      )
    }
    if (advertised.length > 0) {
      return warn(
        `MCP endpoint(s) advertised but not answering initialize: ${listSome(advertised.map(describe), 3)}`,
        `Make ${advertised[0]!.url} answer an MCP initialize POST (Streamable HTTP, JSON or SSE), or fix the advertised URL.`,
      )
    }
    if (probes.length > 0 && probes.every((probe) => probe.status === null)) {
      return unreachable(`No MCP probe could be sent: ${listSome(probes.map(describe), 3)}`)
    }
    const pages = probes.filter((probe) => probe.source !== 'blind-probe' && !responds(probe))
    const tried = listSome(
      [...pages, ...blind].map((probe) => `${probe.url} → ${probe.status ?? 'unreachable'}`),
      4,
    )
    return fail(
      `No MCP endpoint is advertised and none answers at /mcp or /api/mcp${tried ? ` (${tried})` : ''}`,
      `If you run an MCP server, advertise it from ${target.origin}: an /.well-known/ai-catalog.json entry pointing at its server card (<mcp-url>/server-card, with remotes[].url), or an llms.txt link.`,
    )
  },
})
