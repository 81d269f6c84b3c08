// An MCP Server Card (SEP-2127) describes the server at <mcp-url>/server-card (the reserved location) or wherever an
// AI-catalog entry points; a card only under /.well-known (not recommended), at the legacy /.well-known/mcp.json or in
// the legacy SEP-1649 shape earns a warning; a date-versioned $schema fails.
// Spec: https://github.com/modelcontextprotocol/experimental-ext-server-card (its docs: discovery.md, schema.json)
import type { McpServerCardArtifact } from '../../core/engine/collectors/mcp-server-card.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { listSome, pathOf } from '../../core/engine/lib/describe.ts'
import { MEDIA } from '../../core/engine/lib/media-types.ts'
import { classifyServerCard, SERVER_CARD_SCHEMA, serverCardEndpoints } from '../../core/engine/lib/server-card.ts'
import { noProbeAnswered, unreachable } from '../lib/outcomes.ts'
import { isRecord } from '../../core/engine/snapshot.ts'
import { isLocalHost } from '../../core/engine/target.ts'

const EXAMPLE = `{"$schema": "${SERVER_CARD_SCHEMA}", "name": "com.example/server", "version": "1.0.0", "description": "…", "remotes": [{"type": "streamable-http", "url": "https://example.com/mcp"}]}`

export default defineCheck({
  meta: {
    id: 'mcp-server-card',
    name: 'MCP Server Card (SEP-2127/1649)',
    description:
      'A server card tells a client what an MCP server is and how to connect before it opens a session; catalogs and registries index it.',
    layer: 'discovery',
    applicability: 'all',
    tier: 'emerging',
    maturity: 'emerging',
    draft: true,
    maxScore: 4,
    bonus: true,
    specUrl: 'https://github.com/modelcontextprotocol/experimental-ext-server-card',
    recommendation: `Serve a SEP-2127 server card as ${MEDIA.serverCard} with CORS at <mcp-url>/server-card, or list its URL in /.well-known/ai-catalog.json, e.g. ${EXAMPLE}.`,
    needs: ['mcpServerCard'],
    agentEntryPoint: true,
    surface: 'mcp',
  },
  run({ mcpServerCard }, { target }) {
    const { found, probes, runtime } = mcpServerCard
    const where = target.mcpUrl
      ? `${target.mcpUrl.replace(/\/+$/, '')}/server-card`
      : `${target.origin}/.well-known/mcp/server-card.json`
    const tried = probes.map((probe) => `${pathOf(probe.url)} → ${probe.response?.status ?? 'unreachable'}`)
    if (!found) {
      if (noProbeAnswered(probes)) {
        return unreachable(`No server card location could be fetched: ${listSome(tried, 4)}`)
      }
      return fail(
        `No MCP server card found; tried ${listSome(tried, 4)}`,
        `Publish a server card at ${where}, e.g. ${EXAMPLE}.`,
      )
    }
    const at = `${pathOf(found.url)} (via ${found.via})`
    const { shape, problems } = classifyServerCard(found.card)
    if (shape === 'invalid') {
      return fail(
        `The server card at ${at} fails the SEP-2127 schema: ${listSome(problems, 4)}`,
        `Fix the card at ${pathOf(found.url)}: ${listSome(problems, 4)}; see ${SERVER_CARD_SCHEMA}.`,
      )
    }
    const issues: string[] = []
    const fixes: string[] = []
    const reserved = target.mcpUrl ? `${target.mcpUrl.replace(/\/+$/, '')}/server-card` : '<mcp-url>/server-card'
    if (found.via === 'well-known') {
      // discovery.md, "Alternatives considered": .well-known is for site-wide metadata, a card is per server.
      issues.push(
        'it is found only under /.well-known/mcp/server-card.json, a location the server-card extension does not recommend',
      )
      fixes.push(`serve it at ${reserved} (the reserved location) or anywhere an AI-catalog entry points to`)
    } else if (found.via === 'well-known-legacy') {
      issues.push('it is found only at the legacy /.well-known/mcp.json')
      fixes.push(`move it to ${reserved} and list it in /.well-known/ai-catalog.json`)
    }
    if (shape === 'legacy') {
      issues.push('it uses the legacy SEP-1649 shape (serverInfo/transport)')
      fixes.push(`migrate to the SEP-2127 card (${SERVER_CARD_SCHEMA}), e.g. ${EXAMPLE}`)
    }
    const inline = found.inline === true
    if (!inline && found.response.contentType !== MEDIA.serverCard) {
      issues.push(`it is served as ${found.response.contentType || 'no Content-Type'}`)
      fixes.push(`serve it as ${MEDIA.serverCard}`)
    }
    if (!found.response.headers['access-control-allow-origin']) {
      issues.push('it has no CORS header')
      fixes.push('send Access-Control-Allow-Origin: * (and Allow-Methods: GET) so browser-based clients can read it')
    }
    const name = typeof found.card.name === 'string' ? found.card.name : undefined
    if (runtime) {
      const mismatches = runtimeMismatches(found.card, found.url, runtime, target.mcpUrl)
      issues.push(...mismatches.issues)
      fixes.push(...mismatches.fixes)
    }
    const summary = shape === 'sep-2127' ? `SEP-2127 server card "${name}" at ${at}` : `Server card at ${at}`
    if (issues.length > 0)
      return warn(`${summary}; but ${issues.join('; ')}`, `For the card at ${found.url}: ${fixes.join('; ')}.`)
    const runtimeNote = runtime
      ? ', matching the runtime serverInfo'
      : target.kind !== 'domain'
        ? ' (the server’s runtime identity was not available to compare with)'
        : ''
    return pass(
      `Valid ${summary}, served as ${inline ? 'an AI-catalog entry' : MEDIA.serverCard} with CORS${runtimeNote}`,
    )
  },
})

/** The name and version a card states: SEP-2127 top-level fields, or the legacy serverInfo. */
function cardIdentity(card: Record<string, unknown>): { name?: string; version?: string } {
  const source = isRecord(card.serverInfo) && card.$schema !== SERVER_CARD_SCHEMA ? card.serverInfo : card
  return {
    ...(typeof source.name === 'string' ? { name: source.name } : {}),
    ...(typeof source.version === 'string' ? { version: source.version } : {}),
  }
}

/** Endpoint URLs compared after URL normalisation (case of scheme and host), ignoring a trailing slash. */
function sameEndpoint(a: string, b: string): boolean {
  const normal = (value: string) => {
    const url = URL.parse(value)
    return url ? `${url.origin}${url.pathname.replace(/\/+$/, '')}${url.search}` : value
  }
  return normal(a) === normal(b)
}

/**
 * Where the card disagrees with the server it describes (docs/checks.md §7): serverInfo name and version, the
 * scanned endpoint among its remotes, and the negotiated protocol version among that remote's supported ones.
 */
function runtimeMismatches(
  card: Record<string, unknown>,
  cardUrl: string,
  runtime: NonNullable<McpServerCardArtifact['runtime']>,
  mcpUrl: string | undefined,
): { issues: string[]; fixes: string[] } {
  const issues: string[] = []
  const fixes: string[] = []
  const { name, version } = cardIdentity(card)
  // A SEP-2127 name is namespaced ("com.example/weather"); serverInfo usually carries the bare name.
  const nameMatches = name === runtime.name || name?.endsWith(`/${runtime.name}`) === true
  const versionMatches = !runtime.version || version === runtime.version
  if (!nameMatches || !versionMatches) {
    issues.push(
      `it says ${name ?? '(no name)'}@${version ?? '?'} while the server reports ${runtime.name}@${runtime.version ?? '?'}`,
    )
    fixes.push('keep the card name and version in step with serverInfo')
  }
  if (!mcpUrl) return { issues, fixes }
  const remotes = Array.isArray(card.remotes) ? card.remotes.filter(isRecord) : []
  const templated = remotes.some((remote) => typeof remote.url === 'string' && remote.url.includes('{'))
  const endpoints = serverCardEndpoints(card, cardUrl)
  // A server scanned at a local address (a developer's machine, a test rig) has a card naming where it is deployed.
  const local = isLocalHost(new URL(mcpUrl).hostname)
  if (endpoints.length > 0 && !templated && !local && !endpoints.some((endpoint) => sameEndpoint(endpoint, mcpUrl))) {
    issues.push(`its endpoints (${listSome(endpoints)}) do not include the scanned server ${mcpUrl}`)
    fixes.push(`list ${mcpUrl} in remotes (type streamable-http)`)
  }
  const remote = remotes.find((entry) => typeof entry.url === 'string' && sameEndpoint(entry.url, mcpUrl))
  const supported = remote?.supportedProtocolVersions
  if (runtime.protocolVersion && Array.isArray(supported) && !supported.includes(runtime.protocolVersion)) {
    issues.push(
      `its supportedProtocolVersions (${supported.map(String).join(', ')}) leave out ${runtime.protocolVersion}, which the server negotiated`,
    )
    fixes.push(`add ${runtime.protocolVersion} to supportedProtocolVersions`)
  }
  return { issues, fixes }
}
