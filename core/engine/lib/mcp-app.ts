/**
 * Pure helpers for the MCP Apps extension (`io.modelcontextprotocol/ui`, stable 2026-01-26; checks.md §9): which
 * tools link a UI resource and under which key, tool visibility, the UI resource's `_meta.ui` and the external
 * origins its HTML reaches, so the checks can compare them with the declared CSP.
 */
import { loadBoundedHtml } from '../../parse/html.ts'
import type { McpResource, McpServerArtifact, McpTool } from '../collectors/mcp.ts'
import type { ScanKind } from '../check.ts'
import { isRecord, parseJson } from '../snapshot.ts'

export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui'
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app'
/** The OpenAI Apps SDK's template type, accepted for detection and judged as legacy. */
export const SKYBRIDGE_MIME_TYPE = 'text/html+skybridge'
export const MCP_APPS_SPEC_URL = 'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx'

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
  if (unknown.length > 0) problems.push(`unknown visibility value(s) ${unknown.map((value) => `"${value}"`).join(', ')}`)
  return { declared: true, values, problems, modelVisible: values.includes('model') }
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
// `_meta.ui` of a UI resource: CSP, permissions, domain, prefersBorder

export const CSP_DIRECTIVES = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const
export type CspDirective = (typeof CSP_DIRECTIVES)[number]
/** Host-specific CSP keys in use (ChatGPT's `redirectDomains` for openExternal targets): accepted, not judged. */
const HOST_CSP_KEYS = ['redirectDomains']
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite']
const UI_META_KEYS = ['csp', 'permissions', 'domain', 'prefersBorder']

export type DeclaredCsp = Partial<Record<CspDirective, string[]>>

export interface UiMetaReport {
  /** Wrong types: the host cannot use the field. */
  errors: string[]
  /** Unknown keys and entries that are not origins. */
  warnings: string[]
  /** The CSP lists with string entries, null when `csp` is absent or unusable. */
  csp: DeclaredCsp | null
}

/** An origin (scheme://host[:port]) with an optional `*.` wildcard label, as CSP host-sources without a path. */
const ORIGIN_ENTRY = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?\/?$/i

/** Validates `_meta.ui` of a UI resource (list entry or read content); `where` prefixes the messages. */
export function validateUiResourceMeta(ui: unknown, where: string): UiMetaReport {
  const errors: string[] = []
  const warnings: string[] = []
  if (!isRecord(ui)) return { errors: [`${where} is ${describeType(ui)}, not an object`], warnings, csp: null }
  const unknownKeys = Object.keys(ui).filter((key) => !UI_META_KEYS.includes(key))
  if (unknownKeys.length > 0) warnings.push(`${where} has unknown key(s) ${unknownKeys.join(', ')}`)
  let csp: DeclaredCsp | null = null
  if (ui.csp !== undefined) {
    if (!isRecord(ui.csp)) errors.push(`${where}.csp is ${describeType(ui.csp)}, not an object of origin lists`)
    else {
      csp = {}
      for (const [key, value] of Object.entries(ui.csp)) {
        const known = (CSP_DIRECTIVES as readonly string[]).includes(key)
        if (!known && !HOST_CSP_KEYS.includes(key)) {
          warnings.push(`${where}.csp has unknown key ${key}, which hosts ignore`)
          continue
        }
        if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
          errors.push(`${where}.csp.${key} is ${describeType(value)}, not an array of origin strings`)
          continue
        }
        const entries = value as string[]
        const notOrigins = entries.filter((entry) => !ORIGIN_ENTRY.test(entry))
        if (notOrigins.length > 0) warnings.push(`${where}.csp.${key} has entries that are not origins: ${notOrigins.slice(0, 3).map((entry) => `"${entry}"`).join(', ')}`)
        if (known) csp[key as CspDirective] = entries
      }
    }
  }
  if (ui.permissions !== undefined) {
    if (!isRecord(ui.permissions)) errors.push(`${where}.permissions is ${describeType(ui.permissions)}, not an object`)
    else {
      for (const [key, value] of Object.entries(ui.permissions)) {
        if (!PERMISSION_KEYS.includes(key)) warnings.push(`${where}.permissions has unknown permission ${key}`)
        else if (!isRecord(value)) errors.push(`${where}.permissions.${key} is ${describeType(value)}, not an object ({})`)
      }
    }
  }
  if (ui.domain !== undefined && typeof ui.domain !== 'string') errors.push(`${where}.domain is ${describeType(ui.domain)}, not a string`)
  if (ui.prefersBorder !== undefined && typeof ui.prefersBorder !== 'boolean') {
    errors.push(`${where}.prefersBorder is ${describeType(ui.prefersBorder)}, not a boolean`)
  }
  return { errors, warnings, csp }
}

/** The OpenAI Apps SDK's `_meta["openai/widgetCSP"]` ({connect_domains, resource_domains, frame_domains}), mapped to MCP Apps names. */
export function openaiWidgetCsp(meta: Record<string, unknown> | undefined): DeclaredCsp | null {
  const widget = meta?.['openai/widgetCSP']
  if (!isRecord(widget)) return null
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : undefined)
  const csp: DeclaredCsp = {}
  const pairs = [['connect_domains', 'connectDomains'], ['resource_domains', 'resourceDomains'], ['frame_domains', 'frameDomains']] as const
  for (const [from, to] of pairs) {
    const entries = strings(widget[from])
    if (entries) csp[to] = entries
  }
  return csp
}

function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `the string "${value.slice(0, 40)}"`
  return `a ${typeof value}`
}

// ---------------------------------------------------------------------------------------------------------
// External origins the HTML reaches, by the CSP list that must declare them

export interface ExternalReference {
  origin: string
  directive: CspDirective
  /** What reaches it, for details (`<script src>`, `fetch()`). */
  via: string
}

const RESOURCE_ELEMENTS: readonly (readonly [string, string])[] = [
  ['script[src]', 'src'],
  ['img[src]', 'src'],
  ['video[src]', 'src'],
  ['video[poster]', 'poster'],
  ['audio[src]', 'src'],
  ['source[src]', 'src'],
  ['track[src]', 'src'],
  ['input[type="image"][src]', 'src'],
]
const RESOURCE_LINK_RELS = /\b(stylesheet|icon|preload|modulepreload|apple-touch-icon)\b/i
const CSS_URL = /url\(\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi
const CSS_IMPORT = /@import\s+["']((?:https?:)?\/\/[^"']+)/gi
/** Network calls in inline scripts whose first argument is an absolute URL literal. */
const SCRIPT_CONNECT: readonly (readonly [RegExp, string])[] = [
  [/\bfetch\(\s*["'`]((?:https?:)?\/\/[^"'`\s]+)/g, 'fetch()'],
  [/\bnew\s+WebSocket\(\s*["'`](wss?:\/\/[^"'`\s]+)/g, 'WebSocket'],
  [/\bnew\s+EventSource\(\s*["'`]((?:https?:)?\/\/[^"'`\s]+)/g, 'EventSource'],
  [/\.open\(\s*["'`][A-Z]+["'`]\s*,\s*["'`]((?:https?:)?\/\/[^"'`\s]+)/g, 'XMLHttpRequest'],
  [/\bsendBeacon\(\s*["'`]((?:https?:)?\/\/[^"'`\s]+)/g, 'sendBeacon()'],
  [/\baxios(?:\.[a-z]+)?\(\s*["'`]((?:https?:)?\/\/[^"'`\s]+)/gi, 'axios'],
]
const SCRIPT_IMPORT = /\bimport\s*(?:\(\s*|[\w*{}\s,]+from\s*)["'`]((?:https?:)?\/\/[^"'`\s]+)/g

/** The origin of an absolute (or protocol-relative) http(s)/ws(s) URL; null for relative, data: and blob: URLs. */
function originOf(url: string): string | null {
  const value = url.trim()
  const absolute = value.startsWith('//') ? `https:${value}` : value
  if (!/^(https?|wss?):\/\//i.test(absolute)) return null
  try {
    return new URL(absolute).origin
  } catch {
    return null
  }
}

/**
 * External origins a UI template loads or connects to, judged statically: resource elements and stylesheet links,
 * iframes, `<base href>`, CSS `url()`/`@import`, and network calls or imports with literal URLs in inline scripts.
 * Anchors are left out: navigation goes through the host (`ui/open-link`), not the CSP.
 */
export function externalReferences(html: string): ExternalReference[] {
  const $ = loadBoundedHtml(html)
  const found: ExternalReference[] = []
  const add = (url: string | undefined, directive: CspDirective, via: string) => {
    const origin = url ? originOf(url) : null
    if (origin && !found.some((entry) => entry.origin === origin && entry.directive === directive)) found.push({ origin, directive, via })
  }
  for (const [selector, attribute] of RESOURCE_ELEMENTS) {
    $(selector).each((_, element) => add($(element).attr(attribute), 'resourceDomains', `<${selector.split('[')[0]} ${attribute}>`))
  }
  $('img[srcset], source[srcset]').each((_, element) => {
    for (const candidate of ($(element).attr('srcset') ?? '').split(',')) add(candidate.trim().split(/\s+/)[0], 'resourceDomains', '<img srcset>')
  })
  $('link[href]').each((_, element) => {
    if (RESOURCE_LINK_RELS.test($(element).attr('rel') ?? '')) add($(element).attr('href'), 'resourceDomains', '<link href>')
  })
  $('iframe[src], frame[src]').each((_, element) => add($(element).attr('src'), 'frameDomains', '<iframe src>'))
  $('base[href]').each((_, element) => add($(element).attr('href'), 'baseUriDomains', '<base href>'))
  const css = [...$('style').toArray().map((element) => $(element).text()), ...$('[style]').toArray().map((element) => $(element).attr('style') ?? '')]
  for (const text of css) {
    for (const match of text.matchAll(CSS_URL)) add(match[1], 'resourceDomains', 'CSS url()')
    for (const match of text.matchAll(CSS_IMPORT)) add(match[1], 'resourceDomains', 'CSS @import')
  }
  for (const element of $('script:not([src])').toArray()) {
    const code = $(element).text()
    for (const [pattern, via] of SCRIPT_CONNECT) for (const match of code.matchAll(pattern)) add(match[1], 'connectDomains', via)
    for (const match of code.matchAll(SCRIPT_IMPORT)) add(match[1], 'resourceDomains', 'import')
  }
  return found
}

/**
 * Whether one declared CSP entry lets the browser reach `origin`, as a CSP host-source would: exact origin, a
 * `*.` wildcard for subdomains, a scheme-less host (any secure scheme), and http(s) covering ws(s) (CSP 3).
 */
export function cspEntryCovers(entry: string, origin: string): boolean {
  const value = entry.trim().toLowerCase()
  if (value === '*') return true
  const target = URL.parse(origin)
  if (!target) return false
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?/.exec(value)
  if (!match) return false
  const [, scheme, wildcard, host, port] = match
  const targetScheme = target.protocol.slice(0, -1)
  const secure = targetScheme === 'https' || targetScheme === 'wss'
  // A scheme-less entry takes the (https) scheme of the sandboxed view; http and ws entries also allow the upgrade.
  const schemeOk = scheme
    ? scheme === targetScheme ||
      (scheme === 'https' && targetScheme === 'wss') ||
      (scheme === 'ws' && targetScheme === 'wss') ||
      (scheme === 'http' && (targetScheme === 'ws' || secure))
    : secure
  if (!schemeOk) return false
  const hostOk = wildcard ? target.hostname.endsWith(`.${host}`) : target.hostname === host
  if (!hostOk) return false
  if (port === '*') return true
  const defaultPort = secure ? '443' : '80'
  return (port ?? defaultPort) === (target.port || defaultPort)
}

/** The references no entry of their CSP list covers. */
export function undeclaredReferences(references: readonly ExternalReference[], csp: DeclaredCsp | null): ExternalReference[] {
  return references.filter((reference) => !(csp?.[reference.directive] ?? []).some((entry) => cspEntryCovers(entry, reference.origin)))
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
    return isRecord(capabilities) && isRecord(capabilities.extensions) && capabilities.extensions[UI_EXTENSION_ID] !== undefined
  })
}

/** Where the server declares the UI extension: `extensions` (SEP-1724), `experimental` (pre-extensions servers), or nowhere. */
export function declaredUiExtension(capabilities: Record<string, unknown> | undefined): { where: 'extensions' | 'experimental'; value: unknown } | null {
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

/** What the kind decision reads of a server: its capabilities and whichever of its lists have been read. */
export interface McpServerEvidence {
  capabilities?: Record<string, unknown> | undefined
  tools?: readonly McpTool[]
  resources?: readonly McpResource[]
}

/**
 * mcp or mcp-app (checks.md §0 step 3), the one rule for a server scanned directly (detection) and one found through
 * a domain (fan-out): the UI extension declared (under `extensions`, or `experimental` as servers did before
 * extensions existed), a tool linking a UI resource (by any key hosts read), or a resource typed as an MCP App page
 * (MIME types compare case-insensitively, RFC 9110 §8.3.1). Lenient on purpose: the kind picks the checks, and
 * only the mcp-app checks can tell such a server that its declaration or type is off.
 */
export function classifyMcpServer({ capabilities, tools = [], resources = [] }: McpServerEvidence): Extract<ScanKind, 'mcp' | 'mcp-app'> {
  const isApp =
    declaredUiExtension(capabilities) !== null ||
    uiLinks(tools).length > 0 ||
    resources.some((resource) => ['exact', 'variant'].includes(classifyUiMimeType(resource.mimeType)))
  return isApp ? 'mcp-app' : 'mcp'
}
