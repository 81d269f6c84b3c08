/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, stable 2026-01-26; docs/checks.md §9) as the engine recognises
 * it: which tools link a UI resource and under which key, the UI MIME type, the declared extension, and the one
 * rule that makes a server an mcp-app. The checks' own MCP Apps helpers are in checks/lib/mcp-app-*.ts.
 */
import type { McpResource, McpTool } from '../collectors/mcp.ts'
import type { ScanKind } from '../check.ts'
import { isRecord } from '../snapshot.ts'

export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui'
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app'
/** The OpenAI Apps SDK's template type: accepted for detection, but a UI resource read back with it fails (hosts do not render it). */
export const SKYBRIDGE_MIME_TYPE = 'text/html+skybridge'

// ---------------------------------------------------------------------------------------------------------
// Tool → UI resource links

/** `ui`: `_meta.ui.resourceUri`; `legacy`: the deprecated flat `_meta["ui/resourceUri"]`; `skybridge`: `_meta["openai/outputTemplate"]`. */
export type UiLinkSource = 'ui' | 'legacy' | 'skybridge'

export interface UiToolLink {
  tool: McpTool
  uri: string
  source: UiLinkSource
  /** Other link keys of the same tool that name a different URI (hosts disagree on which one they render). */
  conflicts: { source: UiLinkSource; uri: string }[]
}

const LINK_KEYS: readonly (readonly [UiLinkSource, (meta: Record<string, unknown>) => unknown])[] = [
  ['ui', (meta) => (isRecord(meta.ui) ? meta.ui.resourceUri : undefined)],
  ['legacy', (meta) => meta['ui/resourceUri']],
  ['skybridge', (meta) => meta['openai/outputTemplate']],
]

/** The UI resource a tool renders with, by key precedence (current key, then the deprecated and OpenAI aliases). */
export function uiLink(tool: McpTool): UiToolLink | null {
  const meta = tool._meta
  if (!isRecord(meta)) return null
  const found = LINK_KEYS.flatMap(([source, read]) => {
    const value = read(meta)
    return typeof value === 'string' && value !== '' ? [{ source, uri: value }] : []
  })
  const [first, ...others] = found
  if (!first) return null
  return { tool, uri: first.uri, source: first.source, conflicts: others.filter((other) => other.uri !== first.uri) }
}

export function uiLinks(tools: readonly McpTool[]): UiToolLink[] {
  return tools.flatMap((tool) => {
    const link = uiLink(tool)
    return link ? [link] : []
  })
}

// ---------------------------------------------------------------------------------------------------------
// UI resource content

export type UiMimeVerdict = 'exact' | 'variant' | 'skybridge' | 'other' | 'missing'

/**
 * `exact`: `text/html;profile=mcp-app` as the spec writes it; `variant`: the same media type spelled differently
 * (a space, quotes, case), which hosts comparing strings may not recognise.
 */
export function classifyUiMimeType(mimeType: string | undefined): UiMimeVerdict {
  if (mimeType === undefined || mimeType.trim() === '') return 'missing'
  if (mimeType === MCP_APP_MIME_TYPE) return 'exact'
  const normalised = mimeType.toLowerCase().replace(/\s+/g, '').replace(/"/g, '')
  if (normalised === MCP_APP_MIME_TYPE) return 'variant'
  if (normalised === SKYBRIDGE_MIME_TYPE) return 'skybridge'
  return 'other'
}

/** Where the server declares the UI extension: `extensions` (SEP-1724), `experimental` (pre-extensions servers), or nowhere. */
export function declaredUiExtension(
  capabilities: Record<string, unknown> | undefined,
): { where: 'extensions' | 'experimental'; value: unknown } | null {
  for (const where of ['extensions', 'experimental'] as const) {
    const group = capabilities?.[where]
    if (isRecord(group) && group[UI_EXTENSION_ID] !== undefined) return { where, value: group[UI_EXTENSION_ID] }
  }
  return null
}

/** What the kind decision reads of a server: its capabilities and whichever of its lists have been read. */
export interface McpServerEvidence {
  capabilities?: Record<string, unknown> | undefined
  tools?: readonly McpTool[]
  resources?: readonly McpResource[]
}

/**
 * mcp or mcp-app (docs/checks.md §0 step 3), the one rule for a server scanned directly (detection) and one found through
 * a domain (fan-out): the UI extension declared (under `extensions`, or `experimental` as servers did before
 * extensions existed), a tool linking a UI resource (by any key hosts read), or a resource typed as an MCP App page
 * (MIME types compare case-insensitively, RFC 9110 §8.3.1). Lenient on purpose: the kind picks the checks, and
 * only the mcp-app checks can tell such a server that its declaration or type is off.
 */
export function classifyMcpServer({
  capabilities,
  tools = [],
  resources = [],
}: McpServerEvidence): Extract<ScanKind, 'mcp' | 'mcp-app'> {
  const isApp =
    declaredUiExtension(capabilities) !== null ||
    uiLinks(tools).length > 0 ||
    resources.some((resource) => ['exact', 'variant'].includes(classifyUiMimeType(resource.mimeType)))
  return isApp ? 'mcp-app' : 'mcp'
}
