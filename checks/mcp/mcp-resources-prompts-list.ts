// Each declared resources or prompts capability is backed by a working list call returning well-formed entries
// (resources[].uri and name, prompts[].name). Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/resources
import type { McpList } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { listFailure, MCP_SPEC, settle, text } from '../lib/mcp-checks.ts'

interface Listing {
  method: string
  list: McpList<{ uri?: string; name?: string }>
  /** The fields an entry must have. */
  fields: readonly ('uri' | 'name')[]
}

export default defineCheck({
  meta: {
    id: 'mcp-resources-prompts-list',
    name: 'Declared resources/prompts listable',
    description:
      'A declared capability is a promise: clients call resources/list and prompts/list because the server said they exist, and an error there breaks their context menus and attachments.',
    layer: 'discovery',
    applicability: 'mcp',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 4,
    specUrl: `${MCP_SPEC}/server/resources`,
    recommendation:
      'Answer resources/list and prompts/list for every capability you declare, with entries carrying uri and name (resources) or name (prompts).',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const listings: Listing[] = [
      { method: 'resources/list', list: mcp.resources, fields: ['uri', 'name'] },
      { method: 'prompts/list', list: mcp.prompts, fields: ['name'] },
    ]
    const declared = listings.filter((listing) => listing.list.declared)
    if (declared.length === 0) return na('The server declares neither the resources nor the prompts capability')

    const failures: string[] = []
    const problems: string[] = []
    const fixes: string[] = []
    const pending: string[] = []
    const working: string[] = []
    for (const { method, list, fields } of declared) {
      const failure = listFailure(list)
      if (failure?.kind === 'unfinished') {
        pending.push(method)
        continue
      }
      if (failure) {
        failures.push(
          `${method} failed with ${failure.detail}${list.items.length > 0 ? ` after ${list.items.length} entries` : ''}`,
        )
        fixes.push(
          `Make ${method} succeed (return an empty list if there is nothing yet), or stop declaring the ${method.split('/')[0]} capability.`,
        )
        continue
      }
      const malformed = list.items.filter((item) => fields.some((field) => !text(item[field])))
      if (malformed.length > 0) {
        const first = malformed[0]!
        problems.push(
          `${malformed.length} of ${list.items.length} ${method.split('/')[0]} lack ${fields.join(' or ')} (e.g. ${JSON.stringify(first.uri ?? first.name ?? null)})`,
        )
        fixes.push(`Give every entry of ${method} ${fields.map((field) => `a ${field}`).join(' and ')}.`)
      }
      working.push(`${method} returns ${list.items.length} entr${list.items.length === 1 ? 'y' : 'ies'}`)
    }
    const summary = working.join('; ')
    if (failures.length > 0)
      return settle(
        fail([...failures, ...problems].join('; ') + (summary ? `; ${summary}` : ''), fixes.join(' ')),
        pending,
      )
    const outcome =
      problems.length > 0 ? warn(`${summary}, but ${problems.join('; ')}`, fixes.join(' ')) : pass(summary)
    return settle(outcome, pending)
  },
})
