import { describe, expect, test } from 'bun:test'
import type { McpTool } from '../../core/engine/collectors/mcp.ts'
import { mcpContext, mcpList, mcpServer, tool } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-tool-descriptions.ts'

const withTools = (...tools: McpTool[]) => mcpServer({ tools: mcpList(tools) })
const described = (name: string) => tool(name)
const bare = (name: string, description?: string) => tool(name, { description })
const undescribedParams = (name: string) =>
  tool(name, {
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      additionalProperties: false,
    },
  })

describe('mcp-tool-descriptions', () => {
  test.each([
    ['every tool and property described', 'pass', withTools(described('a'), described('b'))],
    [
      'tools without properties',
      'pass',
      withTools(tool('ping_server', { inputSchema: { type: 'object', additionalProperties: false } })),
    ],
    [
      '9 of 10 properties described',
      'pass',
      withTools(
        ...Array.from({ length: 9 }, (_, i) => described(`t${i}`)),
        tool('t9', { inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }),
      ),
    ],
    ['every tool described, few properties', 'warning', withTools(described('a'), undescribedParams('b'))],
    [
      '8 of 10 tools described',
      'warning',
      withTools(...Array.from({ length: 8 }, (_, i) => described(`t${i}`)), bare('x'), bare('y', 'Short')),
    ],
    ['half the tools undescribed', 'fail', withTools(described('a'), bare('b'))],
    [
      'descriptions that repeat the name',
      'fail',
      withTools(bare('search_anvils', 'Search anvils'), bare('order_anvil', 'order_anvil')),
    ],
    ['no tools', 'na', mcpServer({ tools: mcpList([]) })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('scores the mean of the tool and property shares and names what to describe', () => {
    const outcome = check.run({ mcp: withTools(described('a'), undescribedParams('b')) }, mcpContext)
    // tools 2/2; properties 1/3 -> (1 + 1/3) / 2
    expect(outcome.fraction).toBeCloseTo(2 / 3)
    expect(outcome.occurrences).toBe(2)
    expect(outcome.recommendation).toContain('b.a, b.b')
  })

  test('names the tools whose description is missing or short', () => {
    const outcome = check.run({ mcp: withTools(described('a'), bare('b'), bare('c', 'Does c')) }, mcpContext)
    expect(outcome.recommendation).toContain('"b" (no description)')
    expect(outcome.recommendation).toContain('"c" ("Does c" is only 6 characters)')
  })
})
