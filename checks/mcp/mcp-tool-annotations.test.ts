import { describe, expect, test } from 'bun:test'
import type { McpTool } from '../../core/engine/collectors/mcp.ts'
import { mcpContext, mcpList, mcpServer, tool } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-tool-annotations.ts'

const withTools = (...tools: McpTool[]) => mcpServer({ tools: mcpList(tools) })
const reader = (name: string) => tool(name, { annotations: { readOnlyHint: true } })
const writer = (name: string, destructiveHint?: boolean) =>
  tool(name, {
    annotations: destructiveHint === undefined ? { readOnlyHint: false } : { readOnlyHint: false, destructiveHint },
  })
const plain = (name: string) => tool(name, { annotations: undefined })

describe('mcp-tool-annotations', () => {
  test.each([
    ['every tool annotated', 'pass', withTools(reader('search'), writer('delete', true), writer('tag', false))],
    [
      '4 of 5 read-only hints, no unmarked writer',
      'pass',
      withTools(
        reader('a'),
        reader('b'),
        reader('c'),
        reader('d'),
        tool('e', { annotations: { readOnlyHint: true, title: 'E' } }),
      ),
    ],
    ['a writer without destructiveHint', 'warning', withTools(reader('search'), writer('delete'))],
    ['some tools annotated', 'warning', withTools(reader('search'), plain('delete'), plain('update'))],
    [
      'a string hint does not count',
      'warning',
      withTools(reader('a'), tool('b', { annotations: { readOnlyHint: 'true' } })),
    ],
    ['no annotations', 'fail', withTools(plain('search'), plain('delete'))],
    ['only titles', 'fail', withTools(tool('search', { annotations: { title: 'Search' } }))],
    ['no tools', 'na', mcpServer({ tools: mcpList([]) })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('fraction is the share of fully annotated tools; names the tools to fix', () => {
    const outcome = check.run(
      { mcp: withTools(reader('search'), writer('delete'), plain('update'), writer('tag', false)) },
      mcpContext,
    )
    expect(outcome.fraction).toBeCloseTo(0.5)
    expect(outcome.occurrences).toBe(4)
    expect(outcome.recommendation).toContain('readOnlyHint on "update"')
    expect(outcome.recommendation).toContain('destructiveHint on "delete", "update"')
  })
})
