// Tools declare their behaviour: readOnlyHint set explicitly on most tools, and destructiveHint on every tool that
// is not read-only. Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
import type { McpTool } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { listedTools, MCP_SPEC, quoted, sentence } from '../lib/mcp-checks.ts'

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const
const READ_ONLY_SHARE = 0.8

const hint = (tool: McpTool, name: (typeof HINTS)[number]): boolean | undefined => {
  const value = tool.annotations?.[name]
  return typeof value === 'boolean' ? value : undefined
}

export default defineCheck({
  meta: {
    id: 'mcp-tool-annotations',
    name: 'Behaviour annotations present',
    description:
      'Without readOnlyHint and destructiveHint a client must treat every tool as destructive and ask the user each time; with them it can run safe tools freely and confirm only risky ones.',
    layer: 'usability',
    applicability: 'mcp',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 5,
    specUrl: `${MCP_SPEC}/server/tools#tool`,
    recommendation:
      'Set annotations.readOnlyHint on every tool, and destructiveHint (plus idempotentHint) on each tool that is not read-only.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const listed = listedTools(mcp)
    if ('outcome' in listed) return listed.outcome
    const { tools } = listed

    const withoutReadOnly = tools.filter((tool) => hint(tool, 'readOnlyHint') === undefined)
    // readOnlyHint defaults to false, so a tool without it is a writer too.
    const writersWithoutDestructive = tools.filter(
      (tool) => hint(tool, 'readOnlyHint') !== true && hint(tool, 'destructiveHint') === undefined,
    )
    const annotated = tools.filter((tool) => HINTS.some((name) => hint(tool, name) !== undefined))
    const complete = tools.filter((tool) => {
      const readOnly = hint(tool, 'readOnlyHint')
      return readOnly === true || (readOnly === false && hint(tool, 'destructiveHint') !== undefined)
    })
    const options = { fraction: complete.length / tools.length, occurrences: tools.length }
    const summary = `${tools.length - withoutReadOnly.length}/${tools.length} tools set readOnlyHint; ${writersWithoutDestructive.length} non-read-only tool(s) lack destructiveHint`

    if (annotated.length === 0) {
      return fail(
        `None of the ${tools.length} tools sets a behaviour hint (readOnlyHint, destructiveHint, idempotentHint, openWorldHint)`,
        `Add annotations to ${quoted(tools.map((tool) => tool.name))}: {"readOnlyHint": true} for tools that only read, {"readOnlyHint": false, "destructiveHint": true|false} for the others.`,
        { ...options, fraction: 0 },
      )
    }
    if (
      (tools.length - withoutReadOnly.length) / tools.length >= READ_ONLY_SHARE &&
      writersWithoutDestructive.length === 0
    )
      return pass(summary, options)
    const fixes = [
      withoutReadOnly.length > 0 &&
        `set annotations.readOnlyHint on ${quoted(withoutReadOnly.map((tool) => tool.name))}`,
      writersWithoutDestructive.length > 0 &&
        `set annotations.destructiveHint on ${quoted(writersWithoutDestructive.map((tool) => tool.name))} (true if it deletes or overwrites)`,
    ].filter((fix): fix is string => fix !== false)
    return warn(summary, sentence(fixes), options)
  },
})
