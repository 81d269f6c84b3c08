// Cursor pagination ends: every nextCursor chain stops within 20 pages without loops or repeated items, and an
// invalid cursor gets -32602 (or an empty page). Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
import type { McpList, McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import {
  describeExchange,
  errorCode,
  listFailure,
  MCP_SPEC,
  quoted,
  resultOf,
  sentence,
  settle,
  unfinished,
} from '../lib/mcp-checks.ts'

export default defineCheck({
  meta: {
    id: 'mcp-pagination',
    name: 'Cursor pagination correct',
    description:
      'Clients follow nextCursor until it disappears; a cursor that loops, repeats items or is rejected by the server that issued it traps them or hides tools.',
    layer: 'usability',
    applicability: 'mcp',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 2,
    specUrl: `${MCP_SPEC}/server/utilities/pagination`,
    recommendation:
      'Return nextCursor only while more items follow, never repeat a cursor or an item, accept the cursors you issue, and answer an unknown cursor with -32602.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const lists: [string, McpList<unknown>][] = [
      ['tools/list', mcp.tools],
      ['resources/list', mcp.resources],
      ['prompts/list', mcp.prompts],
    ]
    const failures: string[] = []
    const problems: string[] = []
    const fixes: string[] = []
    const pending: string[] = []
    for (const [method, list] of lists) {
      if (list.cursorLoop) {
        failures.push(
          `${method} hands out a nextCursor it already gave, so the chain loops (stopped after ${list.pages} pages)`,
        )
        fixes.push(`make every ${method} nextCursor new and drop it on the last page`)
      } else if (list.truncated) {
        problems.push(`${method} still returned a nextCursor after ${list.pages} pages`)
        fixes.push(`use larger ${method} pages, or check that nextCursor is dropped on the last page`)
      }
      if (list.duplicatesAcrossPages.length > 0) {
        problems.push(`${method} repeats ${quoted(list.duplicatesAcrossPages)} on more than one page`)
        fixes.push(
          `make ${method} cursors point past the items already returned (e.g. keyset cursors, not offsets into a changing list)`,
        )
      }
      const failure = listFailure(list)
      if (list.pages > 0 && failure) {
        if (failure.kind === 'unfinished') pending.push(`${method} page ${list.pages + 1}`)
        else {
          failures.push(`${method} rejects its own nextCursor: page ${list.pages + 1} failed with ${failure.detail}`)
          fixes.push(`accept on ${method} every nextCursor you issue`)
        }
      }
    }

    const probe = invalidCursor(mcp)
    if (probe.grade === 'unfinished') pending.push('tools/list with cursor "invalid!!"')
    else if (probe.grade === 'wrong') {
      problems.push(probe.detail)
      fixes.push('answer tools/list with an unknown cursor with JSON-RPC error -32602 (invalid params)')
    }

    const paged = lists.filter(([, list]) => list.pages > 1).map(([method, list]) => `${method} ${list.pages} pages`)
    const summary = paged.length > 0 ? `Pagination: ${paged.join(', ')}` : 'Every list fits on one page'
    if (failures.length > 0) return settle(fail([...failures, ...problems].join('; '), sentence(fixes)), pending)
    const outcome =
      problems.length > 0
        ? warn(`${summary}, but ${problems.join('; ')}`, sentence(fixes))
        : pass(`${summary}; ${probe.detail}`)
    return settle(outcome, pending)
  },
})

/**
 * tools/list with cursor "invalid!!": -32602 or an empty page is right. Returning the first page again matters only
 * for a server that paginates; one that never issues cursors may ignore the parameter.
 */
function invalidCursor(mcp: McpServerArtifact): { grade: 'ok' | 'wrong' | 'unfinished'; detail: string } {
  const exchange = mcp.probes.invalidCursor
  if (unfinished(exchange)) return { grade: 'unfinished', detail: '' }
  const seen = `an invalid cursor got ${describeExchange(exchange)}`
  const code = errorCode(exchange)
  if (code === -32602 || (code === -32601 && !mcp.tools.declared)) return { grade: 'ok', detail: seen }
  const result = resultOf(exchange)
  if (result && Array.isArray(result.tools)) {
    if (result.tools.length === 0) return { grade: 'ok', detail: 'an invalid cursor gets an empty page' }
    const paginates = [mcp.tools, mcp.resources, mcp.prompts].some((list) => list.pages > 1)
    return paginates
      ? {
          grade: 'wrong',
          detail: `an invalid cursor restarts tools/list from the beginning (${result.tools.length} tools)`,
        }
      : { grade: 'ok', detail: 'an invalid cursor is ignored, harmless as no list is paginated' }
  }
  return { grade: 'wrong', detail: seen }
}
