import { describe, expect, test } from 'bun:test'
import type { McpTool } from '../../core/engine/collectors/mcp.ts'
import { mcpContext, mcpList, mcpServer, tool } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-tool-input-schema.ts'

const withTools = (...tools: McpTool[]) => mcpServer({ tools: mcpList(tools) })
const schema = (name: string, inputSchema: unknown) => tool(name, { inputSchema })
const good = tool('search_anvils')

describe('mcp-tool-input-schema', () => {
  test.each([
    [
      'closed, typed object schemas',
      'pass',
      withTools(good, schema('reset', { type: 'object', additionalProperties: false })),
    ],
    [
      'draft-07 with $ref and a typed union',
      'pass',
      withTools(
        schema('order', {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          definitions: { size: { type: 'string', enum: ['s', 'm'] } },
          properties: { size: { $ref: '#/definitions/size' }, note: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
          required: ['size'],
        }),
      ),
    ],
    [
      '2020-12 $defs',
      'pass',
      withTools(
        schema('a', { type: 'object', $defs: { id: { type: 'integer' } }, properties: { id: { $ref: '#/$defs/id' } } }),
      ),
    ],
    [
      'an untyped property',
      'warning',
      withTools(good, schema('b', { type: 'object', properties: { anything: { description: 'Whatever' } } })),
    ],
    ['a no-argument schema left open', 'warning', withTools(schema('reset', { type: 'object', properties: {} }))],
    [
      'required names an undefined property',
      'warning',
      withTools(schema('b', { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] })),
    ],
    [
      'an unsupported $schema dialect',
      'warning',
      withTools(
        schema('b', { $schema: 'https://example.com/my-dialect', type: 'object', additionalProperties: false }),
      ),
    ],
    ['a null schema', 'fail', withTools(good, schema('broken', null))],
    ['type is not object', 'fail', withTools(schema('b', { type: 'string' }))],
    ['does not compile', 'fail', withTools(schema('b', { type: 'object', properties: { a: { type: 'strin' } } }))],
    [
      'a dangling $ref',
      'fail',
      withTools(schema('b', { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })),
    ],
    [
      'required but forbidden',
      'fail',
      withTools(schema('b', { type: 'object', properties: {}, required: ['id'], additionalProperties: false })),
    ],
    ['no tools', 'na', mcpServer({ tools: mcpList([]) })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('names the tool and the compile error', () => {
    const outcome = check.run(
      { mcp: withTools(good, schema('broken', { type: 'object', properties: { a: { type: 'strin' } } })) },
      mcpContext,
    )
    expect(outcome.details).toContain('"broken": does not compile')
    expect(outcome.recommendation).toContain('"broken"')
    expect(outcome.occurrences).toBe(2)
  })

  test('two tools reusing one $id with different schemas both compile', () => {
    const a = schema('a', { $id: 'https://acme.test/args', type: 'object', properties: { x: { type: 'string' } } })
    const b = schema('b', { $id: 'https://acme.test/args', type: 'object', properties: { y: { type: 'number' } } })
    expect(check.run({ mcp: withTools(a, b) }, mcpContext).status).toBe('pass')
  })
})
