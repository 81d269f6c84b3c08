// Tool names are 1-128 characters of A-Z a-z 0-9 _ - . and unique within the server (SEP-986).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names
import type { McpTool } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { clip, listSome } from '../../core/engine/lib/describe.ts'
import { listedTools, MCP_SPEC, quoted } from '../lib/mcp-checks.ts'

const NAME = /^[A-Za-z0-9_.-]{1,128}$/

export default defineCheck({
  meta: {
    id: 'mcp-tool-naming',
    name: 'Tool names valid and unique',
    description:
      'Agents and model APIs address tools by name, and many reject names with spaces, commas or other characters; two tools with one name make one of them unreachable.',
    layer: 'usability',
    applicability: 'mcp',
    tier: 'required',
    maturity: 'verified',
    maxScore: 4,
    specUrl: `${MCP_SPEC}/server/tools#tool-names`,
    recommendation:
      'Name every tool with 1-128 characters from A-Z, a-z, 0-9, _, - and . (e.g. "search_orders"), each name unique.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const listed = listedTools(mcp)
    if ('outcome' in listed) return listed.outcome
    const { tools } = listed
    const options = { occurrences: tools.length }

    const invalid = [...new Set(tools.map((tool) => tool.name).filter((name) => !NAME.test(name)))]
    const invalidDetails = `${invalid.length} tool name(s) break ^[A-Za-z0-9_.-]{1,128}$: ${listSome(invalid.map((name) => `"${clip(name, 60)}" (${flaw(name)})`))}`
    const renames = `Rename ${listSome(invalid.map((name) => `"${clip(name, 60)}" to "${suggest(name)}"`))}: use only letters, digits, _, - and ., at most 128 characters.`

    const duplicates = duplicateNames(tools, new Set(mcp.tools.duplicatesAcrossPages))
    if (duplicates.length > 0) {
      return fail(
        `${duplicates.length} tool name(s) are used more than once: ${listSome(duplicates.map(([name, count]) => `"${clip(name, 60)}" (${count} tools)`))}${invalid.length > 0 ? `; ${invalidDetails}` : ''}`,
        `Rename the tools sharing ${quoted(duplicates.map(([name]) => name))} so that every name is unique; clients can reach only one of them.${invalid.length > 0 ? ` ${renames}` : ''}`,
        options,
      )
    }
    if (invalid.length > 0) return warn(invalidDetails, renames, options)
    return pass(`All ${tools.length} tool names are unique and match ^[A-Za-z0-9_.-]{1,128}$`, options)
  },
})

/**
 * Names carried by more than one tool. A tool repeated verbatim on two pages is a pagination fault (mcp-pagination
 * reports it), not a second tool with the same name.
 */
function duplicateNames(tools: McpTool[], repeatedAcrossPages: Set<string>): [string, number][] {
  const byName = new Map<string, string[]>()
  for (const tool of tools) byName.set(tool.name, [...(byName.get(tool.name) ?? []), JSON.stringify(tool.raw)])
  return [...byName]
    .filter(([name, entries]) => entries.length > 1 && !(repeatedAcrossPages.has(name) && new Set(entries).size === 1))
    .map(([name, entries]) => [name, entries.length])
}

function flaw(name: string): string {
  if (name.length === 0) return 'empty'
  if (name.length > 128) return `${name.length} characters`
  if (/\s/.test(name)) return 'contains whitespace'
  if (name.includes(',')) return 'contains a comma'
  const other = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ''))].slice(0, 3).join(' ')
  return `contains ${other}`
}

function suggest(name: string): string {
  const cleaned = name
    .trim()
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 128)
  return cleaned || 'tool'
}
