// An MCP Server Card (SEP-2127) describes the server at <mcp-url>/server-card, an AI-catalog entry or /.well-known/mcp/server-card.json; legacy SEP-1649 shapes earn a warning.
// Spec: https://github.com/modelcontextprotocol/experimental-ext-server-card (docs/discovery.md, schema.json)
import { defineCheck, fail, pass, warn } from '../../core/engine/contract.ts'
import { classifyServerCard, listSome, MEDIA, pathOf, SERVER_CARD_SCHEMA, unreachable } from '../../core/engine/lib/discovery.ts'

const EXAMPLE = `{"$schema": "${SERVER_CARD_SCHEMA}", "name": "com.example/server", "version": "1.0.0", "description": "…", "remotes": [{"type": "streamable-http", "url": "https://example.com/mcp"}]}`

export default defineCheck({
  meta: {
    id: 'mcp-server-card',
    name: 'MCP Server Card (SEP-2127/1649)',
    description:
      'A server card tells a client what an MCP server is and how to connect before it opens a session; catalogs and registries index it.',
    layer: 'discovery',
    appliesTo: ['domain', 'mcp', 'mcp-app'],
    applicability: 'all',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: false,
    draft: true,
    beta: false,
    maxScore: 4,
    specUrl: 'https://github.com/modelcontextprotocol/experimental-ext-server-card',
    recommendation: `Serve a SEP-2127 server card as ${MEDIA.serverCard} with CORS, e.g. ${EXAMPLE}.`,
    needs: ['mcpServerCard'],
    deep: false,
  },
  run({ mcpServerCard }, { target }) {
    const { found, probes, runtime } = mcpServerCard
    const where = target.mcpUrl ? `${target.mcpUrl.replace(/\/+$/, '')}/server-card` : `${target.origin}/.well-known/mcp/server-card.json`
    const tried = probes.map((probe) => `${pathOf(probe.url)} → ${probe.response?.status ?? 'unreachable'}`)
    if (!found) {
      if (probes.length > 0 && probes.every((probe) => probe.response === null)) {
        return unreachable(`No server card location could be fetched: ${listSome(tried, 4)}`)
      }
      return fail(`No MCP server card found; tried ${listSome(tried, 4)}`, `Publish a server card at ${where}, e.g. ${EXAMPLE}.`)
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
    if (runtime && shape === 'sep-2127') {
      const nameMatches = name === runtime.name || name?.endsWith(`/${runtime.name}`)
      const versionMatches = !runtime.version || found.card.version === runtime.version
      if (!nameMatches || !versionMatches) {
        issues.push(`it says ${name}@${String(found.card.version)} while the server reports ${runtime.name}@${runtime.version ?? '?'}`)
        fixes.push('keep the card name and version in step with serverInfo')
      }
    }
    const summary = shape === 'sep-2127' ? `SEP-2127 server card "${name}" at ${at}` : `Server card at ${at}`
    if (issues.length > 0) return warn(`${summary}; but ${issues.join('; ')}`, `For the card at ${found.url}: ${fixes.join('; ')}.`)
    const runtimeNote = runtime ? ', matching the runtime serverInfo' : ''
    return pass(`Valid ${summary}, served as ${inline ? 'an AI-catalog entry' : MEDIA.serverCard} with CORS${runtimeNote}`)
  },
})
