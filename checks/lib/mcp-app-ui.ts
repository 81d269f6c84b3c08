/**
 * Checks' helpers for MCP Apps (`io.modelcontextprotocol/ui`, docs/checks.md §9): links grouped by resource, tool
 * visibility, the shape of a UI resource's HTML, what the scanner advertised, and fix sentences.
 */
import type { McpServerArtifact, McpTool } from '../../core/engine/collectors/mcp.ts'
import { UI_EXTENSION_ID, type UiLinkSource, type UiToolLink } from '../../core/engine/lib/mcp-app.ts'
import { isRecord, parseJson } from '../../core/engine/snapshot.ts'

export const MCP_APPS_SPEC_URL =
  'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx'

/** Links grouped by resource URI, in first-seen order. */
export function linksByUri(links: readonly UiToolLink[]): Map<string, UiToolLink[]> {
  const grouped = new Map<string, UiToolLink[]>()
  for (const link of links) grouped.set(link.uri, [...(grouped.get(link.uri) ?? []), link])
  return grouped
}

/** Labels a link source for details: where the URI was found. */
export function describeLinkSource(source: UiLinkSource): string {
  if (source === 'ui') return '_meta.ui.resourceUri'
  if (source === 'legacy') return 'the deprecated _meta["ui/resourceUri"]'
  return 'the OpenAI Apps SDK _meta["openai/outputTemplate"]'
}

// ---------------------------------------------------------------------------------------------------------
// Visibility

export const VISIBILITY_VALUES = ['model', 'app'] as const

export interface ToolVisibility {
  /** `_meta.ui.visibility` is present. */
  declared: boolean
  /** The values as the host will read them (the default `["model","app"]` when not declared or unusable). */
  values: string[]
  /** Deviations from the spec: not an array, empty, unknown values. */
  problems: string[]
  modelVisible: boolean
}

/** `_meta.ui.visibility` (default `["model","app"]`); a bare string is read as a one-item list, as `includes` would. */
export function toolVisibility(tool: McpTool): ToolVisibility {
  const ui = isRecord(tool._meta) && isRecord(tool._meta.ui) ? tool._meta.ui : null
  const raw = ui?.visibility
  if (raw === undefined) return { declared: false, values: [...VISIBILITY_VALUES], problems: [], modelVisible: true }
  const problems: string[] = []
  let values: string[]
  if (typeof raw === 'string') {
    problems.push(`visibility is the string "${raw}", not an array`)
    values = [raw]
  } else if (Array.isArray(raw)) {
    values = raw.filter((value): value is string => typeof value === 'string')
    if (values.length !== raw.length) problems.push('visibility holds values that are not strings')
    if (raw.length === 0) problems.push('visibility is empty, so neither the model nor the app may call the tool')
  } else {
    problems.push(`visibility is ${JSON.stringify(raw)}, not an array; hosts fall back to ["model","app"] or reject it`)
    values = [...VISIBILITY_VALUES]
  }
  const unknown = values.filter((value) => !(VISIBILITY_VALUES as readonly string[]).includes(value))
  if (unknown.length > 0)
    problems.push(`unknown visibility value(s) ${unknown.map((value) => `"${value}"`).join(', ')}`)
  return { declared: true, values, problems, modelVisible: values.includes('model') }
}

/** The HTML of one `resources/read` content: `text`, or the base64 `blob` decoded as UTF-8; null when neither. */
export function uiContentHtml(content: { text?: string; blob?: string }): string | null {
  if (typeof content.text === 'string') return content.text
  if (typeof content.blob === 'string') return Buffer.from(content.blob, 'base64').toString('utf8')
  return null
}

export interface HtmlShape {
  empty: boolean
  /** Contains markup at all (a tag). */
  markup: boolean
  htmlElement: boolean
  doctype: boolean
}

export function htmlShape(html: string): HtmlShape {
  return {
    empty: html.trim() === '',
    markup: /<[a-z!][^>]*>/i.test(html),
    htmlElement: /<html[\s>]/i.test(html),
    doctype: /^\s*(<!--[\s\S]*?-->\s*)*<!doctype html/i.test(html),
  }
}

// ---------------------------------------------------------------------------------------------------------
// Capability negotiation

/** Whether the scanner's initialize (or, for a modern server, server/discover) request advertised the UI extension. */
export function scannerAdvertisedUi(mcp: Pick<McpServerArtifact, 'initialize' | 'discover'>): boolean {
  const capabilitiesIn = (body: string | undefined): unknown => {
    const message = body ? parseJson(body) : undefined
    const params = isRecord(message) && isRecord(message.params) ? message.params : null
    if (!params) return undefined
    const meta = isRecord(params._meta) ? params._meta : null
    return params.capabilities ?? meta?.['io.modelcontextprotocol/clientCapabilities']
  }
  return [mcp.initialize.request.body, mcp.discover.request.body].some((body) => {
    const capabilities = capabilitiesIn(body)
    return (
      isRecord(capabilities) &&
      isRecord(capabilities.extensions) &&
      capabilities.extensions[UI_EXTENSION_ID] !== undefined
    )
  })
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

/** Fix clauses as one recommendation sentence: unique, joined with semicolons, capitalised, with a full stop. */
export function fixSentence(fixes: readonly string[]): string {
  const text = [...new Set(fixes)].join('; ')
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
}
