import { describe, expect, test } from 'bun:test'
import type { McpResource } from '../../core/engine/collectors/mcp.ts'
import { mcpContext, mcpList, mcpServer } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-resources-prompts-list.ts'

const resource = (uri: string, name?: string): McpResource => ({ uri, ...(name ? { name } : {}), raw: { uri, name } })
const undeclared = { declared: false, items: [] }

describe('mcp-resources-prompts-list', () => {
  test.each([
    ['both declared and listed', 'pass', mcpServer()],
    ['resources declared, empty list', 'pass', mcpServer({ resources: mcpList([]), prompts: mcpList([], undeclared) })],
    [
      'a resource without a name',
      'warning',
      mcpServer({ resources: mcpList([resource('acme://a', 'a'), resource('acme://b')]) }),
    ],
    [
      'prompts/list errors',
      'fail',
      mcpServer({ prompts: mcpList([], { error: { code: -32603, message: 'Internal error' } }) }),
    ],
    [
      'resources/list is not a list',
      'fail',
      mcpServer({ resources: mcpList([], { error: 'the resources/list result has no resources array' }) }),
    ],
    [
      'neither declared (undeclared -32601 is fine)',
      'na',
      mcpServer({
        resources: mcpList([], { ...undeclared, error: { code: -32601, message: 'Method not found' } }),
        prompts: mcpList([], undeclared),
      }),
    ],
    [
      'resources/list timed out',
      'error',
      mcpServer({ resources: mcpList([], { error: 'TIMEOUT: no complete response within 8000 ms' }) }),
    ],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('a declared list that errors fails even when the other one timed out', () => {
    const mcp = mcpServer({
      resources: mcpList([], { error: 'no complete answer within 8000 ms' }),
      prompts: mcpList([], { error: { code: -32603, message: 'Internal error' } }),
    })
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe('fail')
    expect(outcome.details).toContain('-32603')
    expect(outcome.recommendation).toContain('prompts/list')
  })
})
