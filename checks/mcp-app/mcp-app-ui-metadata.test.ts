import { describe, expect, test } from 'bun:test'
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { checkMetaSchema, type Outcome } from '../../core/engine/check.ts'
import {
  DASHBOARD_CSP,
  DASHBOARD_URI,
  mcpAppContext,
  mcpAppServer,
  uiResource,
  unreadableUiResource,
} from '../../tests/support/mcp-app-artifacts.ts'
import { mcpList } from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-app-ui-metadata.ts'

const withUi = (ui: unknown, html?: string) =>
  mcpAppServer({ uiResources: [uiResource(DASHBOARD_URI, { ui, ...(html ? { html } : {}) })] })
const SELF_CONTAINED =
  '<!doctype html><html><body><div id="app"></div><script>document.getElementById("app").textContent = "hi"</script></body></html>'
const page = (body: string) => `<!doctype html><html><head></head><body>${body}</body></html>`

describe('mcp-app-ui-metadata', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'usability',
      tier: 'recommended',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 3,
    })
    expect(check.meta.appliesTo).toEqual(['mcp-app'])
  })

  test.each([
    ['every external origin declared', mcpAppServer(), 'pass'],
    ['a self-contained view without _meta.ui', withUi({}, SELF_CONTAINED), 'pass'],
    [
      'a wildcard resource domain',
      withUi({ csp: { ...DASHBOARD_CSP, resourceDomains: ['https://*.acme.test'] } }),
      'pass',
    ],
    [
      'permissions, domain and prefersBorder well-typed',
      withUi({
        csp: DASHBOARD_CSP,
        permissions: { camera: {}, clipboardWrite: {} },
        domain: 'acme.example',
        prefersBorder: false,
      }),
      'pass',
    ],
    [
      'csp only on the resources/list entry',
      mcpAppServer({
        resources: mcpList([
          {
            uri: DASHBOARD_URI,
            name: 'd',
            mimeType: 'text/html;profile=mcp-app',
            _meta: { ui: { csp: DASHBOARD_CSP } },
            raw: {},
          },
        ]),
        uiResources: [uiResource(DASHBOARD_URI, { content: { _meta: undefined } })],
      }),
      'pass',
    ],
    [
      'a WebSocket covered by its https origin',
      withUi(
        { csp: { connectDomains: ['https://live.acme.test'] } },
        page('<script>new WebSocket("wss://live.acme.test/feed")</script>'),
      ),
      'pass',
    ],
    [
      'ChatGPT redirectDomains',
      withUi({ csp: { ...DASHBOARD_CSP, redirectDomains: ['https://checkout.acme.test'] } }),
      'pass',
    ],
    ['an undeclared fetch origin', withUi({ csp: { resourceDomains: DASHBOARD_CSP.resourceDomains } }), 'warning'],
    ['no csp but a CDN script', withUi({ prefersBorder: true }), 'warning'],
    [
      'an iframe without frameDomains',
      withUi({ csp: DASHBOARD_CSP }, page('<iframe src="https://www.youtube.com/embed/x"></iframe>')),
      'warning',
    ],
    [
      'a stylesheet font from an undeclared CDN',
      withUi({ csp: DASHBOARD_CSP }, page('<style>@import "https://fonts.googleapis.com/css2?family=Inter";</style>')),
      'warning',
    ],
    [
      'declared only in openai/widgetCSP',
      mcpAppServer({
        uiResources: [
          uiResource(DASHBOARD_URI, {
            content: {
              _meta: {
                'openai/widgetCSP': {
                  connect_domains: ['https://api.acme.test'],
                  resource_domains: ['https://cdn.acme.test'],
                },
              },
            },
          }),
        ],
      }),
      'warning',
    ],
    [
      'a csp entry that is not an origin',
      withUi({ csp: { ...DASHBOARD_CSP, connectDomains: ['https://api.acme.test', 'api.acme.test/v1'] } }),
      'warning',
    ],
    ['an unknown csp key', withUi({ csp: { ...DASHBOARD_CSP, scriptDomains: ['https://cdn.acme.test'] } }), 'warning'],
    ['an unknown permission', withUi({ csp: DASHBOARD_CSP, permissions: { bluetooth: {} } }), 'warning'],
    ['an unknown _meta.ui key', withUi({ csp: DASHBOARD_CSP, border: true }), 'warning'],
    ['csp is a string', withUi({ csp: "default-src 'self'" }), 'fail'],
    [
      'a csp list is a string',
      withUi({ csp: { connectDomains: 'https://api.acme.test', resourceDomains: DASHBOARD_CSP.resourceDomains } }),
      'fail',
    ],
    ['prefersBorder is a string', withUi({ csp: DASHBOARD_CSP, prefersBorder: 'yes' }), 'fail'],
    ['permissions is an array', withUi({ csp: DASHBOARD_CSP, permissions: ['camera'] }), 'fail'],
    ['_meta.ui is a string', withUi('dashboard'), 'fail'],
    ['no template could be read', mcpAppServer({ uiResources: [unreadableUiResource()] }), 'na'],
    [
      'the only read did not complete: the probe failed, nothing is absent',
      mcpAppServer({ uiResources: [unreadableUiResource(DASHBOARD_URI, 'no-response')] }),
      'error',
    ],
    [
      'one read judged, another did not complete',
      mcpAppServer({ uiResources: [uiResource(), unreadableUiResource('ui://acme/other', 'no-response')] }),
      'error',
    ],
    [
      'one read fails its metadata, another did not complete',
      mcpAppServer({
        uiResources: [
          uiResource(DASHBOARD_URI, { ui: { csp: "default-src 'self'" } }),
          unreadableUiResource('ui://acme/other', 'no-response'),
        ],
      }),
      'fail',
    ],
    ['nothing linked', mcpAppServer({ uiResources: [] }), 'na'],
  ] satisfies [string, McpServerArtifact, Outcome['status']][])('%s -> %s', (_name, mcp, expected) => {
    const outcome = check.run({ mcp }, mcpAppContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('undeclared origins are named with what reaches them and the list to add them to', () => {
    const outcome = check.run(
      { mcp: withUi({ csp: { resourceDomains: DASHBOARD_CSP.resourceDomains } }) },
      mcpAppContext,
    )
    expect(outcome.details).toContain('https://api.acme.test (fetch())')
    expect(outcome.recommendation).toContain('connectDomains: https://api.acme.test')
  })

  test('wrong types are named by path', () => {
    expect(check.run({ mcp: withUi({ csp: DASHBOARD_CSP, prefersBorder: 'yes' }) }, mcpAppContext).details).toContain(
      'read _meta.ui.prefersBorder',
    )
  })
})
