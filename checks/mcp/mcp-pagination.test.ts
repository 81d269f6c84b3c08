import { describe, expect, test } from 'bun:test'
import type { McpList, McpTool } from '../../core/engine/collectors/mcp.ts'
import {
  httpReply,
  mcpContext,
  mcpList,
  mcpServer,
  noResponse,
  rpcError,
  rpcResult,
  tool,
} from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-pagination.ts'

const server = mcpServer()
const tools = [tool('a'), tool('b'), tool('c')]
const paged = (overrides: Partial<McpList<McpTool>> = {}) => mcpList(tools, { pages: 3, ...overrides })
const restart = rpcResult('tools/list', { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'p2' })

describe('mcp-pagination', () => {
  test.each([
    ['single pages, invalid cursor -32602', 'pass', server],
    ['a three-page chain that ends', 'pass', mcpServer({ tools: paged() })],
    [
      'an invalid cursor gets an empty page',
      'pass',
      mcpServer({ tools: paged(), probes: { invalidCursor: rpcResult('tools/list', { tools: [] }) } }),
    ],
    [
      'an invalid cursor ignored by a server that never paginates',
      'pass',
      mcpServer({ probes: { invalidCursor: restart } }),
    ],
    [
      'an invalid cursor restarts a paginated list',
      'warning',
      mcpServer({ tools: paged(), probes: { invalidCursor: restart } }),
    ],
    [
      'an invalid cursor gets 500',
      'warning',
      mcpServer({ probes: { invalidCursor: httpReply('tools/list', 500, 'boom') } }),
    ],
    [
      'an invalid cursor gets -32603',
      'warning',
      mcpServer({ probes: { invalidCursor: rpcError('tools/list', -32603) } }),
    ],
    ['items repeated across pages', 'warning', mcpServer({ tools: paged({ duplicatesAcrossPages: ['b'] }) })],
    ['still a nextCursor after 20 pages', 'warning', mcpServer({ tools: paged({ pages: 20, truncated: true }) })],
    ['a cursor loop', 'fail', mcpServer({ tools: paged({ cursorLoop: true }) })],
    [
      'the server rejects its own cursor',
      'fail',
      mcpServer({ resources: mcpList(server.resources.items, { error: { code: -32602, message: 'Invalid cursor' } }) }),
    ],
    ['page two timed out', 'error', mcpServer({ tools: paged({ error: 'no complete answer within 8000 ms' }) })],
    ['the invalid-cursor probe timed out', 'error', mcpServer({ probes: { invalidCursor: noResponse('tools/list') } })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('names the list and the repeated items', () => {
    const outcome = check.run({ mcp: mcpServer({ tools: paged({ duplicatesAcrossPages: ['b'] }) }) }, mcpContext)
    expect(outcome.details).toContain('tools/list repeats "b"')
  })
})
