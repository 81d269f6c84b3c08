// tools/list works: the tools capability is declared and the list (followed through nextCursor) returns tools that
// each have a name and an object inputSchema. Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import { listFailure, MCP_SPEC, quoted, settle, text } from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

export default defineCheck({
  meta: {
    id: 'mcp-tools-list',
    name: 'Tools listable',
    description:
      'Tools are how an agent acts through an MCP server; it learns them only from tools/list, so a failing, empty or malformed list leaves it nothing to call.',
    layer: 'discovery',
    applicability: 'mcp',
    tier: 'required',
    maturity: 'verified',
    maxScore: 10,
    specUrl: `${MCP_SPEC}/server/tools#listing-tools`,
    recommendation:
      'Declare capabilities.tools and answer tools/list with tools that each have a name and an inputSchema object.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const list = mcp.tools
    const { items } = list
    const failure = listFailure(list)
    if (items.length === 0) {
      if (failure?.kind === 'unfinished') return unreachable(`tools/list did not complete: ${failure.detail}`)
      const others = [mcp.resources.declared && 'resources', mcp.prompts.declared && 'prompts'].filter(
        (name): name is string => name !== false,
      )
      const notFound = failure?.kind === 'rpc' && typeof list.error === 'object' && list.error.code === -32601
      if (!list.declared && others.length > 0 && (!failure || notFound)) {
        return warn(
          `The server offers no tools: it declares only ${others.join(' and ')}${failure ? ` (tools/list answers ${failure.detail})` : ''}`,
          'If agents should act through this server, expose tools (declare capabilities.tools and answer tools/list); resources and prompts alone only feed context.',
        )
      }
      if (failure) {
        return fail(
          `tools/list failed: ${failure.detail}`,
          list.declared
            ? 'Make tools/list return {"tools": [...]} as the declared tools capability promises.'
            : 'Declare capabilities.tools and answer tools/list with {"tools": [...]}.',
        )
      }
      return fail(
        'tools/list returned an empty list',
        'Register at least one tool, with a name, a description and an inputSchema.',
      )
    }

    const malformed = items
      .map((tool, index) => ({
        label: text(tool.name) || `tool #${index + 1}`,
        problem: toolProblem(tool.name, tool.inputSchema),
      }))
      .filter((entry): entry is { label: string; problem: string } => entry.problem !== null)
    const options = { occurrences: items.length }
    const pages = list.pages > 1 ? ` over ${list.pages} pages` : ''
    if (malformed.length === items.length) {
      return fail(
        `All ${items.length} tool(s) are malformed: ${malformed
          .slice(0, 3)
          .map((entry) => `${entry.label} ${entry.problem}`)
          .join('; ')}`,
        'Give every tool a string name and an inputSchema object (at least {"type": "object", "additionalProperties": false}).',
        options,
      )
    }
    const problems: string[] = []
    const fixes: string[] = []
    if (!list.declared) {
      problems.push('the tools capability is not declared')
      fixes.push('Declare "capabilities": {"tools": {}} in the handshake result, or clients will not ask for tools.')
    }
    if (malformed.length > 0) {
      problems.push(
        `${malformed.length} tool(s) are malformed: ${malformed
          .slice(0, 3)
          .map((entry) => `${entry.label} ${entry.problem}`)
          .join('; ')}`,
      )
      fixes.push(
        `Fix ${quoted(malformed.map((entry) => entry.label))}: each needs a string name and an inputSchema object.`,
      )
    }
    const pending: string[] = []
    if (failure?.kind === 'unfinished') pending.push(`tools/list page ${list.pages + 1}`)
    else if (failure) {
      problems.push(`page ${list.pages + 1} failed with ${failure.detail}, so the list is incomplete`)
      fixes.push('Accept the nextCursor values you hand out (mcp-pagination has the detail).')
    }
    const summary = `tools/list returned ${items.length} tool(s)${pages}`
    const outcome =
      problems.length === 0
        ? pass(`${summary}, each with a name and an inputSchema object`, options)
        : warn(`${summary}, but ${problems.join('; ')}`, fixes.join(' '), options)
    return settle(outcome, pending)
  },
})

function toolProblem(name: unknown, inputSchema: unknown): string | null {
  if (!text(name)) return 'has no name'
  if (inputSchema === undefined) return 'has no inputSchema'
  if (!isRecord(inputSchema))
    return `has an inputSchema that is ${inputSchema === null ? 'null' : Array.isArray(inputSchema) ? 'an array' : `a ${typeof inputSchema}`}, not an object`
  return null
}
