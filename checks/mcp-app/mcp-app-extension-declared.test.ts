import { describe, expect, test } from 'bun:test'
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { checkMetaSchema, type Outcome } from '../../core/engine/check.ts'
import { UI_EXTENSION_ID } from '../../core/engine/lib/mcp-app.ts'
import { mcpAppContext, mcpAppServer } from '../../tests/support/mcp-app-artifacts.ts'
import { mcpServer, noResponse } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-app-extension-declared.ts'

const app = mcpAppServer()
const withCapabilities = (capabilities: Record<string, unknown>, base: McpServerArtifact = app): McpServerArtifact => ({
  ...base,
  handshake: { ...base.handshake!, capabilities },
})
const TOOLS = { tools: {} }

describe('mcp-app-extension-declared', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'discovery',
      tier: 'emerging',
      maturity: 'emerging',
      bonus: true,
      draft: false,
      maxScore: 2,
      applicability: 'mcp-app',
    })
    expect(check.meta.appliesTo).toEqual(['mcp-app'])
  })

  test.each([
    ['declared under extensions', app, 'pass'],
    [
      'declared as true instead of an object',
      withCapabilities({ ...TOOLS, extensions: { [UI_EXTENSION_ID]: true } }),
      'warning',
    ],
    ['declared under experimental', withCapabilities({ ...TOOLS, experimental: { [UI_EXTENSION_ID]: {} } }), 'warning'],
    ['advertised by the scanner but not declared', withCapabilities(TOOLS), 'fail'],
    ['not declared and the scanner did not advertise it', withCapabilities(TOOLS, mcpServer()), 'na'],
    ['no handshake', { ...app, handshake: null, initialize: noResponse('initialize') }, 'error'],
  ] satisfies [string, McpServerArtifact, Outcome['status']][])('%s -> %s', (_name, mcp, expected) => {
    const outcome = check.run({ mcp }, mcpAppContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toContain(UI_EXTENSION_ID)
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('a modern server is asked through server/discover', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'd1',
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/clientCapabilities': {
            extensions: { [UI_EXTENSION_ID]: { mimeTypes: ['text/html;profile=mcp-app'] } },
          },
        },
      },
    })
    const plain = withCapabilities(TOOLS, mcpServer())
    const modern = { ...plain, discover: { ...plain.discover, request: { ...plain.discover.request, body } } }
    expect(check.run({ mcp: modern }, mcpAppContext).status).toBe('fail')
  })
})
