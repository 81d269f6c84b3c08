import { describe, expect, test } from 'bun:test'
import type { McpResource, McpTool } from '../collectors/mcp.ts'
import { classifyMcpServer, classifyUiMimeType, type McpServerEvidence, uiLink } from './mcp-app.ts'

const tool = (_meta?: Record<string, unknown>): McpTool => ({ name: 'show', ...(_meta ? { _meta } : {}), raw: {} })
const resource = (mimeType: string): McpResource => ({ uri: 'ui://app/page.html', mimeType, raw: {} })
const UI = 'io.modelcontextprotocol/ui'

describe('classifyMcpServer: the one MCP App rule of detection and fan-out', () => {
  const cases: [string, McpServerEvidence, 'mcp' | 'mcp-app'][] = [
    ['nothing read yet', {}, 'mcp'],
    ['the UI extension under extensions', { capabilities: { extensions: { [UI]: {} } } }, 'mcp-app'],
    [
      'the UI extension under experimental (servers before extensions existed)',
      { capabilities: { experimental: { [UI]: {} } } },
      'mcp-app',
    ],
    ['another extension only', { capabilities: { extensions: { 'io.example/other': {} } } }, 'mcp'],
    [
      'a tool linking _meta.ui.resourceUri',
      { tools: [tool({ ui: { resourceUri: 'ui://app/page.html' } })] },
      'mcp-app',
    ],
    [
      'a tool linking the legacy ui/resourceUri key',
      { tools: [tool({ 'ui/resourceUri': 'ui://app/page.html' })] },
      'mcp-app',
    ],
    [
      'a tool linking an OpenAI output template',
      { tools: [tool({ 'openai/outputTemplate': 'ui://app/page.html' })] },
      'mcp-app',
    ],
    ['tools without UI links', { tools: [tool(), tool({ other: 1 })] }, 'mcp'],
    ['a resource typed text/html;profile=mcp-app', { resources: [resource('text/html;profile=mcp-app')] }, 'mcp-app'],
    ['the same type in other case and spacing', { resources: [resource('Text/HTML; profile=mcp-app')] }, 'mcp-app'],
    ['plain HTML', { resources: [resource('text/html')] }, 'mcp'],
  ]
  for (const [name, evidence, kind] of cases) test(name, () => expect(classifyMcpServer(evidence)).toBe(kind))
})

describe('uiLink', () => {
  test.each([
    [{ ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://a' }, 'ui', 'ui://a', 0],
    [{ 'ui/resourceUri': 'ui://a' }, 'legacy', 'ui://a', 0],
    [{ 'openai/outputTemplate': 'ui://widget/a.html' }, 'skybridge', 'ui://widget/a.html', 0],
    [{ ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://old' }, 'ui', 'ui://a', 1],
  ] as const)('%j -> %s', (meta, source, uri, conflicts) => {
    const link = uiLink(tool(meta))
    expect(link).toMatchObject({ source, uri })
    expect(link!.conflicts).toHaveLength(conflicts)
  })

  test('no link without a string URI', () => {
    expect(uiLink(tool())).toBeNull()
    expect(uiLink(tool({ ui: { resourceUri: 42 } }))).toBeNull()
  })
})

describe('classifyUiMimeType', () => {
  test.each([
    ['text/html;profile=mcp-app', 'exact'],
    ['text/html; profile=mcp-app', 'variant'],
    ['text/html;profile="mcp-app"', 'variant'],
    ['text/html+skybridge', 'skybridge'],
    ['text/html', 'other'],
    [undefined, 'missing'],
  ] as const)('%s -> %s', (mimeType, verdict) => {
    expect(classifyUiMimeType(mimeType)).toBe(verdict)
  })
})
