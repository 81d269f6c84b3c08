import { describe, expect, test } from 'bun:test'
import { mcpContext, mcpList, mcpServer, tool } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-tools-list.ts'

const good = tool('search_anvils')
const nullSchema = tool('broken', { inputSchema: null })
const nameless = tool('', { inputSchema: { type: 'object' } })
const noTools = { declared: false, items: [] }

describe('mcp-tools-list', () => {
  test.each([
    ['declared, two well-formed tools', 'pass', mcpServer()],
    ['tools over three pages', 'pass', mcpServer({ tools: mcpList([good, tool('b'), tool('c')], { pages: 3 }) })],
    [
      'tools returned but the capability is undeclared',
      'warning',
      mcpServer({ tools: mcpList([good], { declared: false }) }),
    ],
    ['one malformed tool of two', 'warning', mcpServer({ tools: mcpList([good, nullSchema]) })],
    [
      'a later page errors',
      'warning',
      mcpServer({ tools: mcpList([good], { error: { code: -32602, message: 'Invalid cursor' } }) }),
    ],
    [
      'resources and prompts only',
      'warning',
      mcpServer({ tools: mcpList([], { ...noTools, error: { code: -32601, message: 'Method not found' } }) }),
    ],
    ['an empty list', 'fail', mcpServer({ tools: mcpList([]) })],
    [
      'a JSON-RPC error',
      'fail',
      mcpServer({ tools: mcpList([], { error: { code: -32603, message: 'Internal error' } }) }),
    ],
    [
      'an answer that is not a list',
      'fail',
      mcpServer({ tools: mcpList([], { error: 'the tools/list result has no tools array' }) }),
    ],
    ['every tool malformed', 'fail', mcpServer({ tools: mcpList([nullSchema, nameless]) })],
    [
      'nothing declared at all',
      'fail',
      mcpServer({ tools: mcpList([], noTools), resources: mcpList([], noTools), prompts: mcpList([], noTools) }),
    ],
    [
      'tools/list timed out',
      'error',
      mcpServer({
        tools: mcpList([], { error: 'TIMEOUT: https://mcp.acme.test/mcp: no complete response within 8000 ms' }),
      }),
    ],
    [
      'the SDK request timed out',
      'error',
      mcpServer({ tools: mcpList([], { error: { code: -32001, message: 'Request timed out' } }) }),
    ],
    [
      'page two timed out',
      'error',
      mcpServer({ tools: mcpList([good], { error: 'no complete answer within 8000 ms' }) }),
    ],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('names the malformed tools and counts every tool', () => {
    const outcome = check.run({ mcp: mcpServer({ tools: mcpList([good, nullSchema]) }) }, mcpContext)
    expect(outcome.details).toContain('broken has an inputSchema that is null')
    expect(outcome.recommendation).toContain('"broken"')
    expect(outcome.occurrences).toBe(2)
  })
})
