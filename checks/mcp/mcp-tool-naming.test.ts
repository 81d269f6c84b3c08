import { describe, expect, test } from 'bun:test'
import { mcpContext, mcpList, mcpServer, tool } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-tool-naming.ts'

const withTools = (...names: string[]) => mcpServer({ tools: mcpList(names.map((name) => tool(name))) })

describe('mcp-tool-naming', () => {
  test.each([
    ['valid unique names', 'pass', withTools('search_anvils', 'order-anvil', 'admin.reset', 'v2')],
    ['a 128-character name', 'pass', withTools('a'.repeat(128))],
    ['a name with a space', 'warning', withTools('search_anvils', 'get weather')],
    ['a name with a comma and a slash', 'warning', withTools('a,b', 'files/read')],
    ['a name over 128 characters', 'warning', withTools('a'.repeat(129))],
    ['duplicate names', 'fail', withTools('search', 'search', 'order')],
    ['no tools', 'na', mcpServer({ tools: mcpList([]) })],
    [
      'tools/list timed out',
      'error',
      mcpServer({ tools: mcpList([], { error: 'no complete answer within 8000 ms' }) }),
    ],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('suggests a valid replacement for each bad name', () => {
    const outcome = check.run({ mcp: withTools('get weather', 'files/read') }, mcpContext)
    expect(outcome.details).toContain('"get weather" (contains whitespace)')
    expect(outcome.recommendation).toContain('"get weather" to "get_weather"')
    expect(outcome.recommendation).toContain('"files/read" to "files_read"')
    expect(outcome.occurrences).toBe(2)
  })

  test('a tool repeated verbatim across pages is a pagination fault, not a duplicate name', () => {
    const search = tool('search')
    const mcp = mcpServer({
      tools: mcpList([search, tool('order'), search], { pages: 2, duplicatesAcrossPages: ['search'] }),
    })
    expect(check.run({ mcp }, mcpContext).status).toBe('pass')
    const different = mcpServer({
      tools: mcpList([search, tool('search', { description: 'Another tool that searches something else entirely.' })], {
        pages: 2,
        duplicatesAcrossPages: ['search'],
      }),
    })
    expect(check.run({ mcp: different }, mcpContext).status).toBe('fail')
  })
})
