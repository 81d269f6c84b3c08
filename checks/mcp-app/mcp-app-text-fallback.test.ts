import { describe, expect, test } from 'bun:test'
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { checkMetaSchema, type Outcome } from '../../core/engine/check.ts'
import { mcpAppContext, mcpAppServer, toolCall, uiTool } from '../../tests/support/mcp-app-artifacts.ts'
import { mcpList, noResponse, tool } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-app-text-fallback.ts'

const STRUCTURED = { anvils: 3 }
const called = (...calls: McpServerArtifact['toolCalls']) => mcpAppServer({ toolCalls: calls })
const terse = mcpAppServer({ tools: mcpList([uiTool('show_dashboard', undefined, { description: 'Dashboard' })]) })

describe('mcp-app-text-fallback', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'usability',
      tier: 'recommended',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 3,
      deep: false,
    })
    expect(check.meta.appliesTo).toEqual(['mcp-app'])
  })

  test.each([
    ['described, not called', mcpAppServer(), 'pass'],
    [
      'called: text and structuredContent',
      called(
        toolCall('show_dashboard', {
          content: [{ type: 'text', text: '3 anvils in stock' }],
          structuredContent: STRUCTURED,
        }),
      ),
      'pass',
    ],
    ['a call of a non-UI tool is not evidence', called(toolCall('search_anvils', { content: [] })), 'pass'],
    [
      'a call that returned isError is not judged',
      called(toolCall('show_dashboard', { content: [], isError: true })),
      'pass',
    ],
    [
      'called: only structuredContent',
      called(toolCall('show_dashboard', { content: [], structuredContent: STRUCTURED })),
      'warning',
    ],
    [
      'called: only an image',
      called(toolCall('show_dashboard', { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] })),
      'warning',
    ],
    [
      'called: a blank text item',
      called(toolCall('show_dashboard', { content: [{ type: 'text', text: ' ' }], structuredContent: STRUCTURED })),
      'warning',
    ],
    ['a UI tool with a terse description', terse, 'warning'],
    ['called: nothing at all', called(toolCall('show_dashboard', { content: [] })), 'fail'],
    ['called: no content member', called(toolCall('show_dashboard', {})), 'fail'],
    ['no UI tool', mcpAppServer({ tools: mcpList([tool('search_anvils')]) }), 'na'],
    [
      'the call of the UI tool did not complete: its result is unknown',
      called({ name: 'show_dashboard', exchange: noResponse('tools/call') }),
      'error',
    ],
    [
      'a terse description (a warning) and a call that did not complete',
      mcpAppServer({ tools: terse.tools, toolCalls: [{ name: 'show_dashboard', exchange: noResponse('tools/call') }] }),
      'error',
    ],
    [
      'an empty result stays a failure though another call did not complete',
      mcpAppServer({
        tools: mcpList([uiTool('show_dashboard'), uiTool('show_orders', 'ui://acme/orders')]),
        toolCalls: [
          toolCall('show_dashboard', { content: [] }),
          { name: 'show_orders', exchange: noResponse('tools/call') },
        ],
      }),
      'fail',
    ],
  ] satisfies [string, McpServerArtifact, Outcome['status']][])('%s -> %s', (_name, mcp, expected) => {
    const outcome = check.run({ mcp }, mcpAppContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('details say whether the verdict rests on a call or on descriptions', () => {
    expect(check.run({ mcp: mcpAppServer() }, mcpAppContext).details).toContain('descriptions only')
    const outcome = check.run(
      { mcp: called(toolCall('show_dashboard', { content: [{ type: 'text', text: 'ok, 3 anvils' }] })) },
      mcpAppContext,
    )
    expect(outcome.details).toContain('"show_dashboard" returned text')
    expect(check.run({ mcp: terse }, mcpAppContext).recommendation).toContain('"show_dashboard"')
  })
})
