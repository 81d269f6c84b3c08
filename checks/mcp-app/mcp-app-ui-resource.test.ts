import { describe, expect, test } from 'bun:test'
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { checkMetaSchema, type Outcome } from '../../core/engine/check.ts'
import {
  DASHBOARD_HTML,
  DASHBOARD_URI,
  mcpAppContext,
  mcpAppServer,
  uiResource,
  uiTool,
  unreadableUiResource,
} from '../../tests/support/mcp-app-artifacts.ts'
import { mcpList, noResponse, tool } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-app-ui-resource.ts'

const withResource = (resource: McpServerArtifact['uiResources'][number], extra: Partial<McpServerArtifact> = {}) =>
  mcpAppServer({ uiResources: [resource], ...extra })
const legacyOnly = (name: string, uri = DASHBOARD_URI) => tool(name, { _meta: { 'ui/resourceUri': uri } })
const skybridge = (name: string, uri = DASHBOARD_URI) => tool(name, { _meta: { 'openai/outputTemplate': uri } })
const base64 = (value: string) => Buffer.from(value).toString('base64')
const APPS = 'ext-apps specification/2026-01-26/apps.mdx'

describe('mcp-app-ui-resource', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'usability',
      tier: 'required',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 10,
    })
    expect(check.meta.appliesTo).toEqual(['mcp-app'])
  })

  test.each([
    ['a ui:// template read back as a complete document', mcpAppServer(), 'pass'],
    [
      'HTML in a base64 blob',
      withResource(uiResource(DASHBOARD_URI, { content: { text: undefined, blob: base64(DASHBOARD_HTML) } })),
      'pass',
    ],
    [
      'two tools sharing one template',
      mcpAppServer({ tools: mcpList([uiTool('show_dashboard'), uiTool('refresh_dashboard')]) }),
      'pass',
    ],
    [
      `${APPS} (severities per ext-apps#722): a view linked only through the flat ui/resourceUri key warns`,
      mcpAppServer({ tools: mcpList([legacyOnly('show_dashboard')]) }),
      'warning',
    ],
    [
      `${APPS} (UI Resource Format, MUST): a read mimeType of text/html+skybridge fails`,
      mcpAppServer({
        tools: mcpList([skybridge('show_dashboard')]),
        uiResources: [uiResource(DASHBOARD_URI, { content: { mimeType: 'text/html+skybridge' } })],
      }),
      'fail',
    ],
    [
      'no doctype',
      withResource(uiResource(DASHBOARD_URI, { html: '<html><body><div id="app"></div></body></html>' })),
      'warning',
    ],
    [
      'an HTML fragment',
      withResource(uiResource(DASHBOARD_URI, { html: '<div id="app"></div><script>render()</script>' })),
      'warning',
    ],
    [
      'the mimeType spelled with a space',
      withResource(uiResource(DASHBOARD_URI, { content: { mimeType: 'text/html; profile=mcp-app' } })),
      'warning',
    ],
    [
      'contents for another uri',
      withResource(uiResource(DASHBOARD_URI, { content: { uri: 'ui://acme/other' } })),
      'warning',
    ],
    [
      'link keys naming different templates',
      mcpAppServer({
        tools: mcpList([
          uiTool('show_dashboard', DASHBOARD_URI, {
            _meta: { ui: { resourceUri: DASHBOARD_URI }, 'ui/resourceUri': 'ui://acme/old' },
          }),
        ]),
      }),
      'warning',
    ],
    [
      'a plain text/html template',
      withResource(uiResource(DASHBOARD_URI, { content: { mimeType: 'text/html' } })),
      'fail',
    ],
    ['no mimeType', withResource(uiResource(DASHBOARD_URI, { content: { mimeType: undefined } })), 'fail'],
    [
      `${APPS} (the linked resource MUST exist): a referenced resource that does not exist (-32002) fails`,
      withResource(unreadableUiResource()),
      'fail',
    ],
    [
      `${APPS}: a resources/list mimeType of text/html with a correct read passes`,
      mcpAppServer({
        resources: mcpList([
          {
            uri: DASHBOARD_URI,
            name: 'dashboard',
            mimeType: 'text/html',
            raw: { uri: DASHBOARD_URI, name: 'dashboard', mimeType: 'text/html' },
          },
        ]),
      }),
      'pass',
    ],
    ['an empty template', withResource(uiResource(DASHBOARD_URI, { html: '   ' })), 'fail'],
    ['not HTML at all', withResource(uiResource(DASHBOARD_URI, { html: '{"view": "dashboard"}' })), 'fail'],
    [
      'an https template URI',
      mcpAppServer({ tools: mcpList([uiTool('show_dashboard', 'https://acme.test/dashboard.html')]), uiResources: [] }),
      'fail',
    ],
    ['no tool links a UI resource', mcpAppServer({ tools: mcpList([tool('search_anvils')]) }), 'fail'],
    ['the read did not complete', withResource(unreadableUiResource(DASHBOARD_URI, 'no-response')), 'error'],
    ['the scanner did not read the template', mcpAppServer({ uiResources: [] }), 'error'],
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

  test('a broken template fails even when another one could not be read', () => {
    const second = 'ui://acme/second'
    const mcp = mcpAppServer({
      tools: mcpList([uiTool('show_dashboard'), uiTool('show_second', second)]),
      uiResources: [
        uiResource(DASHBOARD_URI, { content: { mimeType: 'text/html' } }),
        unreadableUiResource(second, 'no-response'),
      ],
    })
    const outcome = check.run({ mcp }, mcpAppContext)
    expect(outcome.status).toBe('fail')
    expect(outcome.details).toContain('did not complete')
  })

  test("templates over the scanner's read limit are noted, not held against the server", () => {
    const mcp = mcpAppServer({ tools: mcpList([uiTool('show_dashboard'), uiTool('show_second', 'ui://acme/second')]) })
    const outcome = check.run({ mcp }, mcpAppContext)
    expect(outcome.status).toBe('pass')
    expect(outcome.details).toContain('not read by the scanner (over its limit): ui://acme/second')
  })

  test('details name the template, the tool and the fix', () => {
    const outcome = check.run(
      { mcp: withResource(uiResource(DASHBOARD_URI, { content: { mimeType: 'text/html' } })) },
      mcpAppContext,
    )
    expect(outcome.details).toContain(DASHBOARD_URI)
    expect(outcome.recommendation).toContain('text/html;profile=mcp-app')
    const legacy = check.run({ mcp: mcpAppServer({ tools: mcpList([legacyOnly('show_dashboard')]) }) }, mcpAppContext)
    expect(legacy.details).toContain('"show_dashboard"')
    expect(legacy.recommendation).toContain('_meta.ui.resourceUri')
  })

  test('templates listed but never linked are named', () => {
    const outcome = check.run({ mcp: mcpAppServer({ tools: mcpList([tool('search_anvils')]) }) }, mcpAppContext)
    expect(outcome.details).toContain(DASHBOARD_URI)
  })

  test('the unreadable template is reported when its read never came back', () => {
    const mcp = withResource({ ...unreadableUiResource(), read: noResponse('resources/read', 'connection reset') })
    expect(check.run({ mcp }, mcpAppContext).details).toContain('connection reset')
  })
})
