import { describe, expect, test } from 'bun:test'
import { mcpContext, mcpServer, modernServer, noResponse, rpcError } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-server-info.ts'

const INSTRUCTIONS = 'Search the catalogue first, then order with order_anvil.'
const withInfo = (serverInfo: Record<string, unknown>, instructions: unknown = INSTRUCTIONS) =>
  mcpServer({ handshake: { ...mcpServer().handshake!, serverInfo, instructions } })

describe('mcp-server-info', () => {
  test.each([
    ['name, version, title and instructions', 'pass', mcpServer()],
    ['a modern server with a description', 'pass', modernServer()],
    ['only name and version', 'warning', withInfo({ name: 'acme', version: '1.0.0' }, null)],
    ['short instructions', 'warning', withInfo({ name: 'acme', version: '1.0.0', title: 'Acme' }, 'Use tools.')],
    ['name without version', 'warning', withInfo({ name: 'acme', title: 'Acme' })],
    ['no name', 'fail', withInfo({ version: '1.0.0', title: 'Acme' })],
    ['no handshake', 'fail', mcpServer({ initialize: rpcError('initialize', -32603), handshake: null })],
    ['initialize timed out', 'error', mcpServer({ initialize: noResponse('initialize'), handshake: null })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('lists exactly what is missing', () => {
    const outcome = check.run({ mcp: withInfo({ name: 'acme', version: '1.0.0' }, null) }, mcpContext)
    expect(outcome.details).toContain('serverInfo.title or description')
    expect(outcome.details).toContain('instructions')
    expect(outcome.recommendation).toContain('"acme"')
  })
})
