import { describe, expect, test } from 'bun:test'
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { checkMetaSchema, type Outcome } from '../../core/engine/check.ts'
import { mcpAppContext, mcpAppServer, uiTool } from '../../tests/support/mcp-app-artifacts.ts'
import { mcpList, tool } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-app-tool-visibility.ts'

const withTools = (...tools: ReturnType<typeof tool>[]): McpServerArtifact => mcpAppServer({ tools: mcpList(tools) })
const visible = (name: string, visibility: unknown) => uiTool(name, undefined, { ui: { visibility } })

describe('mcp-app-tool-visibility', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'usability',
      tier: 'recommended',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 2,
    })
    expect(check.meta.appliesTo).toEqual(['mcp-app'])
  })

  test.each([
    ['visibility omitted (the default, both)', withTools(uiTool('show_dashboard')), 'pass'],
    [
      'model and app, plus an app-only helper',
      withTools(visible('show_dashboard', ['model', 'app']), visible('refresh_dashboard', ['app'])),
      'pass',
    ],
    ['model only', withTools(visible('show_dashboard', ['model'])), 'pass'],
    ['an unknown value', withTools(visible('show_dashboard', ['model', 'user'])), 'warning'],
    ['a bare string', withTools(visible('show_dashboard', 'model')), 'warning'],
    ['an empty list on a helper', withTools(uiTool('show_dashboard'), visible('refresh_dashboard', [])), 'warning'],
    [
      'a non-UI tool with a bad visibility',
      withTools(uiTool('show_dashboard'), tool('search_anvils', { _meta: { ui: { visibility: ['agent'] } } })),
      'warning',
    ],
    [
      'every UI tool app-only',
      withTools(visible('show_dashboard', ['app']), visible('refresh_dashboard', ['app'])),
      'fail',
    ],
    ['the only UI tool visible to nobody', withTools(visible('show_dashboard', [])), 'fail'],
    ['no UI tool', withTools(tool('search_anvils')), 'na'],
    [
      'tools/list did not complete',
      mcpAppServer({ tools: mcpList([], { error: 'timed out after 10000 ms' }) }),
      'error',
    ],
  ] satisfies [string, McpServerArtifact, Outcome['status']][])('%s -> %s', (_name, mcp, expected) => {
    const outcome = check.run({ mcp }, mcpAppContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('details say which tools are app-only', () => {
    const outcome = check.run({ mcp: withTools(visible('show_dashboard', ['app'])) }, mcpAppContext)
    expect(outcome.details).toContain('"show_dashboard"')
    expect(outcome.recommendation).toContain('["model","app"]')
  })
})
