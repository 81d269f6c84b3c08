/**
 * A UI resource's declared content security policy (`_meta.ui`, and OpenAI's `openai/widgetCSP`) and the external
 * origins its HTML reaches, so the checks can compare the two (MCP Apps, docs/checks.md §9).
 */
import { loadBoundedHtml } from '../../core/parse/html.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

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
        if (notOrigins.length > 0)
          warnings.push(
            `${where}.csp.${key} has entries that are not origins: ${notOrigins
              .slice(0, 3)
              .map((entry) => `"${entry}"`)
              .join(', ')}`,
          )
        if (known) csp[key as CspDirective] = entries
      }
    }
  }
  if (ui.permissions !== undefined) {
    if (!isRecord(ui.permissions)) errors.push(`${where}.permissions is ${describeType(ui.permissions)}, not an object`)
    else {
      for (const [key, value] of Object.entries(ui.permissions)) {
        if (!PERMISSION_KEYS.includes(key)) warnings.push(`${where}.permissions has unknown permission ${key}`)
        else if (!isRecord(value))
          errors.push(`${where}.permissions.${key} is ${describeType(value)}, not an object ({})`)
      }
    }
  }
  if (ui.domain !== undefined && typeof ui.domain !== 'string')
    errors.push(`${where}.domain is ${describeType(ui.domain)}, not a string`)
  if (ui.prefersBorder !== undefined && typeof ui.prefersBorder !== 'boolean') {
    errors.push(`${where}.prefersBorder is ${describeType(ui.prefersBorder)}, not a boolean`)
  }
  return { errors, warnings, csp }
}

/** The OpenAI Apps SDK's `_meta["openai/widgetCSP"]` ({connect_domains, resource_domains, frame_domains}), mapped to MCP Apps names. */
export function openaiWidgetCsp(meta: Record<string, unknown> | undefined): DeclaredCsp | null {
  const widget = meta?.['openai/widgetCSP']
  if (!isRecord(widget)) return null
  const strings = (value: unknown) =>
    Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : undefined
  const csp: DeclaredCsp = {}
  const pairs = [
    ['connect_domains', 'connectDomains'],
    ['resource_domains', 'resourceDomains'],
    ['frame_domains', 'frameDomains'],
  ] as const
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
    if (origin && !found.some((entry) => entry.origin === origin && entry.directive === directive))
      found.push({ origin, directive, via })
  }
  for (const [selector, attribute] of RESOURCE_ELEMENTS) {
    $(selector).each((_, element) =>
      add($(element).attr(attribute), 'resourceDomains', `<${selector.split('[')[0]} ${attribute}>`),
    )
  }
  $('img[srcset], source[srcset]').each((_, element) => {
    for (const candidate of ($(element).attr('srcset') ?? '').split(','))
      add(candidate.trim().split(/\s+/)[0], 'resourceDomains', '<img srcset>')
  })
  $('link[href]').each((_, element) => {
    if (RESOURCE_LINK_RELS.test($(element).attr('rel') ?? ''))
      add($(element).attr('href'), 'resourceDomains', '<link href>')
  })
  $('iframe[src], frame[src]').each((_, element) => add($(element).attr('src'), 'frameDomains', '<iframe src>'))
  $('base[href]').each((_, element) => add($(element).attr('href'), 'baseUriDomains', '<base href>'))
  const css = [
    ...$('style')
      .toArray()
      .map((element) => $(element).text()),
    ...$('[style]')
      .toArray()
      .map((element) => $(element).attr('style') ?? ''),
  ]
  for (const text of css) {
    for (const match of text.matchAll(CSS_URL)) add(match[1], 'resourceDomains', 'CSS url()')
    for (const match of text.matchAll(CSS_IMPORT)) add(match[1], 'resourceDomains', 'CSS @import')
  }
  for (const element of $('script:not([src])').toArray()) {
    const code = $(element).text()
    for (const [pattern, via] of SCRIPT_CONNECT)
      for (const match of code.matchAll(pattern)) add(match[1], 'connectDomains', via)
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
export function undeclaredReferences(
  references: readonly ExternalReference[],
  csp: DeclaredCsp | null,
): ExternalReference[] {
  return references.filter(
    (reference) => !(csp?.[reference.directive] ?? []).some((entry) => cspEntryCovers(entry, reference.origin)),
  )
}
