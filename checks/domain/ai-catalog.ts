// /.well-known/ai-catalog.json is an AI Catalog / ARD manifest: a valid root, valid entries anchored at this host, and artefacts that resolve.
// Spec: https://github.com/Agent-Card/ai-catalog (specification/ai-catalog.md); ARD v0.9 https://agenticresourcediscovery.io/spec/
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { type CatalogEntry, catalogEntries, isHostOrParent, urnPublisher } from '../../core/engine/lib/ai-catalog.ts'
import { listSome, pathOf } from '../../core/engine/lib/describe.ts'
import { describeJsonProblem, readJsonObject } from '../../core/engine/lib/json-document.ts'
import { MEDIA } from '../../core/engine/lib/media-types.ts'
import { serverCardEndpoints } from '../../core/engine/lib/server-card.ts'
import { isRecord } from '../../core/engine/snapshot.ts'
import { isLocalHost } from '../../core/engine/target.ts'

/** A detached compact JWS: `<protected header>..<signature>` (empty payload, RFC 7515 Appendix F). */
const DETACHED_JWS = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/

export default defineCheck({
  meta: {
    id: 'ai-catalog',
    name: 'AI Catalog / ARD manifest',
    description:
      'An AI catalog lists the agents, MCP servers and skills a host offers, with stable identifiers, so agents can discover them in one fetch.',
    layer: 'discovery',
    applicability: 'all',
    tier: 'emerging',
    maturity: 'emerging',
    draft: true,
    maxScore: 4,
    bonus: true,
    specUrl: 'https://github.com/Agent-Card/ai-catalog',
    recommendation:
      'Serve /.well-known/ai-catalog.json as application/ai-catalog+json: {"specVersion": "1.0", "entries": [{"identifier": "urn:air:<your-host>:…", "type": "application/mcp-server-card+json", "url": "…"}]}.',
    needs: ['aiCatalog'],
    agentEntryPoint: true,
  },
  run({ aiCatalog }, { target }) {
    const { response } = aiCatalog
    const where = pathOf(response.url)
    const host = new URL(response.url).hostname
    // For mcp kinds the catalog is the MCP URL's origin's, and the entry it needs is this server's card.
    const mcpUrl = target.kind === 'domain' ? undefined : target.mcpUrl
    const cardUrl = mcpUrl ? `${mcpUrl.replace(/\/+$/, '')}/server-card` : '…'
    const entryExample = `{"identifier": "urn:air:${host}:mcp:main", "type": "${MEDIA.serverCard}", "url": "${cardUrl}"}`
    const example = `{"specVersion": "1.0", "entries": [${entryExample}]}`
    const document = readJsonObject(response)
    if (document.state !== 'ok') {
      return fail(
        `${describeJsonProblem(response, document)}: no AI catalog`,
        `Publish ${new URL(response.url).origin}/.well-known/ai-catalog.json, e.g. ${example}.`,
      )
    }
    const root = document.value
    const rootProblems: string[] = []
    if (typeof root.specVersion !== 'string' || !/^\d+\.\d+$/.test(root.specVersion))
      rootProblems.push('specVersion is not "Major.Minor"')
    if (root.host !== undefined && !isRecord(root.host)) rootProblems.push('host is not an object')
    const entries = catalogEntries(root, response.url)
    if (!entries) rootProblems.push('no entries array')
    if (!entries || rootProblems.length > 0) {
      return fail(
        `${where} is not a valid AI catalog: ${rootProblems.join('; ')}`,
        `Fix ${where} to the AI Catalog shape, e.g. ${example}.`,
      )
    }
    const invalid = entries.filter((entry) => entry.problems.length > 0)
    if (entries.length > 0 && invalid.length === entries.length) {
      const first = invalid[0]!
      return fail(
        `None of the ${entries.length} entries in ${where} is valid; entries[${first.index}]: ${first.problems.join(', ')}`,
        'Give every entry an identifier, a type and exactly one of url or data.',
      )
    }

    const issues: string[] = []
    const fixes: string[] = []
    if (entries.length === 0) {
      issues.push('it lists no entries')
      fixes.push('add an entry for each agent, MCP server or skill you publish')
    }
    if (invalid.length > 0) {
      issues.push(
        `${invalid.length} of ${entries.length} entries are invalid (entries[${invalid[0]!.index}]: ${invalid[0]!.problems.join(', ')})`,
      )
      fixes.push('give every entry an identifier, a type and exactly one of url or data')
    }
    // ADR 0014 of the server-card extension renamed the entry's `mediaType` to `type`, which an entry MUST contain.
    const renamed = entries.filter((entry) => entry.mediaTypeKey && entry.problems.length === 0)
    if (renamed.length > 0) {
      issues.push(
        `${renamed.length} entr${renamed.length === 1 ? 'y spells' : 'ies spell'} its media type "mediaType", the old name of "type" (entries[${renamed[0]!.index}])`,
      )
      fixes.push('rename "mediaType" to "type" in every entry')
    }
    if (response.contentType !== MEDIA.aiCatalog) {
      issues.push(`it is served as ${response.contentType || 'no Content-Type'}, not ${MEDIA.aiCatalog}`)
      fixes.push(`serve it as ${MEDIA.aiCatalog}`)
    }
    const identified = entries.filter((entry) => entry.identifier)
    const nonUrn = identified.filter((entry) => urnPublisher(entry.identifier!) === null)
    if (nonUrn.length > 0) {
      issues.push(`${nonUrn.length} identifier(s) are not urn:air URNs (e.g. "${nonUrn[0]!.identifier}")`)
      fixes.push(`use identifiers of the form urn:air:${host}:<namespace>:<name>`)
    }
    // A catalog served from a local address (a developer's machine, a test rig) names the domain it is published under.
    const foreign = isLocalHost(host)
      ? []
      : identified.filter((entry) => {
          const publisher = urnPublisher(entry.identifier!)
          return publisher !== null && !isHostOrParent(host, publisher)
        })
    if (foreign.length > 0) {
      issues.push(`${foreign.length} URN(s) name a publisher other than ${host} (e.g. "${foreign[0]!.identifier}")`)
      fixes.push(`anchor identifiers at ${host} or a parent domain`)
    }
    const unresolved = aiCatalog.referenced.filter(
      (ref) => ref.status !== null && (ref.status < 200 || ref.status >= 300),
    )
    if (unresolved.length > 0) {
      issues.push(
        `referenced artefact(s) do not resolve: ${listSome(unresolved.map((ref) => `${pathOf(ref.url)} (${ref.status})`))}`,
      )
      fixes.push('fix or remove entries whose url does not answer 2xx')
    }
    const badSignatures = entries.filter((entry) => {
      const signature = isRecord(entry.trustManifest) ? entry.trustManifest.signature : undefined
      return signature !== undefined && (typeof signature !== 'string' || !DETACHED_JWS.test(signature))
    })
    if (badSignatures.length > 0) {
      issues.push(`${badSignatures.length} trustManifest.signature value(s) are not a detached JWS`)
      fixes.push('sign the JCS-canonical trust manifest as a detached compact JWS (header..signature)')
    }

    if (mcpUrl && !listsServer(entries, mcpUrl, response.url)) {
      issues.push(
        `no entry points to the MCP server ${mcpUrl} or to a server card, so an agent reading the catalog does not find it`,
      )
      fixes.push(`add an entry for it, e.g. ${entryExample}`)
    }

    const via = aiCatalog.via && aiCatalog.via !== 'well-known' ? ` (found through ${aiCatalog.via})` : ''
    const types = [...new Set(entries.flatMap((entry) => (entry.type ? [entry.type] : [])))]
    const summary = `AI catalog ${where}${via} with ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}${types.length > 0 ? ` (${listSome(types)})` : ''}`
    if (issues.length > 0) return warn(`${summary}; but ${issues.join('; ')}`, `In ${where}: ${fixes.join('; ')}.`)
    const checked = aiCatalog.referenced.filter((ref) => ref.status !== null).length
    const anchored = isLocalHost(host) ? '' : `, identifiers anchored at ${host}`
    return pass(`Valid ${summary}${anchored}${checked > 0 ? `, ${checked} referenced artefact(s) resolve` : ''}`)
  },
})

/** `url` is the MCP endpoint or a path under it (`<mcp-url>/server-card`). */
function isUnder(url: string, mcpUrl: string): boolean {
  const base = mcpUrl.replace(/\/+$/, '')
  return url === base || url.startsWith(`${base}/`)
}

/**
 * Whether some valid entry can lead an agent to the scanned MCP server: an entry under its URL, a server card
 * elsewhere (it may describe this server; mcp-server-card compares identities), or an inline card whose remotes
 * name it (or name no endpoint at all).
 */
function listsServer(entries: readonly CatalogEntry[], mcpUrl: string, catalogUrl: string): boolean {
  return entries.some((entry) => {
    if (entry.problems.length > 0) return false
    if (entry.url && isUnder(entry.url, mcpUrl)) return true
    if (entry.type !== MEDIA.serverCard) return false
    if (entry.url) return true
    const endpoints = serverCardEndpoints(entry.data, catalogUrl)
    return endpoints.length === 0 || endpoints.some((endpoint) => isUnder(endpoint, mcpUrl))
  })
}
