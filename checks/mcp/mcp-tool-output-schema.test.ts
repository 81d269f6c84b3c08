import { describe, expect, test } from 'bun:test'
import type { McpServerArtifact, McpTool } from '../../core/engine/collectors/mcp.ts'
import {
  mcpContext,
  mcpList,
  mcpServer,
  noResponse,
  rpcResult,
  SEARCH_OUTPUT,
  tool,
} from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-tool-output-schema.ts'

const withTools = (...tools: McpTool[]) => mcpServer({ tools: mcpList(tools) })
const typed = (name: string) => tool(name, { outputSchema: SEARCH_OUTPUT })
const untyped = (name: string) => tool(name)
const call = (name: string, structuredContent: unknown, isError?: boolean): McpServerArtifact['toolCalls'][number] => {
  const result = {
    content: [{ type: 'text', text: 'ok' }],
    ...(structuredContent === undefined ? {} : { structuredContent }),
    ...(isError === undefined ? {} : { isError }),
  }
  return { name, exchange: rpcResult('tools/call', result), result }
}
const deep = (...calls: McpServerArtifact['toolCalls']) =>
  mcpServer({ tools: mcpList([typed('search'), untyped('order')]), toolCalls: calls })

describe('mcp-tool-output-schema', () => {
  test.each([
    ['every tool declares one', 'pass', mcpServer()],
    ['half the tools declare one', 'pass', withTools(typed('search'), untyped('order'))],
    ['deep mode: conforming structuredContent', 'pass', deep(call('search', { anvils: ['a'] }))],
    ['deep mode: an isError result is not validated', 'pass', deep(call('search', undefined, true))],
    [
      'deep mode: a call that timed out is skipped',
      'pass',
      mcpServer({ toolCalls: [{ name: 'search_anvils', exchange: noResponse('tools/call') }] }),
    ],
    ['one of three declares one', 'warning', withTools(typed('search'), untyped('order'), untyped('cancel'))],
    [
      'a declared schema that is not an object',
      'warning',
      withTools(typed('search'), tool('order', { outputSchema: { type: 'array' } })),
    ],
    [
      'a declared schema that does not compile',
      'warning',
      withTools(
        typed('search'),
        tool('order', { outputSchema: { type: 'object', properties: { a: { type: 'nope' } } } }),
      ),
    ],
    ['deep mode: non-conforming structuredContent', 'warning', deep(call('search', { anvils: 'a' }))],
    ['deep mode: no structuredContent', 'warning', deep(call('search', undefined))],
    ['none declared', 'fail', withTools(untyped('search'), untyped('order'))],
    ['no tools', 'na', mcpServer({ tools: mcpList([]) })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('names the tool whose structuredContent does not match, and why', () => {
    const outcome = check.run({ mcp: deep(call('search', { anvils: 'a' })) }, mcpContext)
    expect(outcome.details).toContain('"search" (/anvils must be array)')
    expect(outcome.occurrences).toBe(2)
  })

  test('names the tools without a schema', () => {
    expect(check.run({ mcp: withTools(untyped('search'), untyped('order')) }, mcpContext).recommendation).toContain(
      '"search", "order"',
    )
  })
})
