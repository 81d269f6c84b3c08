/**
 * Pure helpers shared by the discovery collectors and checks: media types and Accept headers (kept identical
 * across collectors so the per-scan memo fetches a URL once), JSON document reading, light structural
 * validation, markdown/SSE/frontmatter parsing and the shapes of the agent-discovery documents (AI catalog,
 * MCP server card, agent skills index).
 */
import { createHash } from 'node:crypto'
import { parseBoundedYaml } from '../../parse/bounded.ts'
import { CollectorError, type Outcome } from '../check.ts'
import { type HttpSnapshot, isOk, isRecord, looksLikeHtml, parseJson } from '../snapshot.ts'
import type { WebLink } from './links.ts'

export const MEDIA = {
  linkset: 'application/linkset+json',
  aiCatalog: 'application/ai-catalog+json',
  serverCard: 'application/mcp-server-card+json',
} as const

/**
 * Accept headers. The scan session memoises a GET by its headers, so collectors fetching the same document use
 * the same ones (for typed JSON documents: `acceptFor(type)`).
 */
export const ACCEPT = {
  json: 'application/json, */*;q=0.1',
  xml: 'application/xml, text/xml;q=0.9, */*;q=0.1',
  markdown: 'text/markdown, text/plain;q=0.9, */*;q=0.1',
  graphql: 'application/graphql-response+json, application/json',
  mcp: 'application/json, text/event-stream',
} as const

/** The Origin sent with public metadata fetches, so that servers with dynamic CORS show their headers. */
const PROBE_ORIGIN = 'https://agent.example'

/** Accept header for a JSON document of a given media type, falling back to plain JSON. */
export function acceptFor(type: string | undefined): string {
  if (!type || type === 'application/json') return ACCEPT.json
  return `${type}, application/json;q=0.9, */*;q=0.1`
}

/** Request headers for a discovery document of a given media type. */
export function discoveryHeaders(type: string | undefined): Record<string, string> {
  return { accept: acceptFor(type), origin: PROBE_ORIGIN }
}

/** For `.catch()` on optional fetches and artifacts: a CollectorError becomes null, anything else is a bug. */
export function nullOnCollectorError(error: unknown): null {
  if (error instanceof CollectorError) return null
  throw error
}

export type Settled = { response: HttpSnapshot; error?: undefined } | { response: null; error: string }

/** Awaits an optional fetch: a CollectorError (DNS, timeout, refused) is recorded as `error`, not thrown. */
export async function settle(pending: Promise<HttpSnapshot>): Promise<Settled> {
  try {
    return { response: await pending }
  } catch (error) {
    if (error instanceof CollectorError) return { response: null, error: error.message }
    throw error
  }
}

/** An outcome for a probe that could not finish: left out of scoring, retryable. */
export function unreachable(details: string): Outcome {
  return { status: 'error', details }
}

/** True when probes were sent and none got any response: the resource is unknown, not absent. */
export function noProbeAnswered(probes: readonly { response?: unknown }[]): boolean {
  return probes.length > 0 && probes.every((probe) => !probe.response)
}

/** The path (and query) of a URL, for details; the URL itself when it does not parse. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return url
  }
}

/** "404", "200 (text/html)": what a response was, in a few characters. */
export function statusOf(snapshot: Pick<HttpSnapshot, 'status' | 'contentType'>): string {
  return snapshot.contentType ? `${snapshot.status} (${snapshot.contentType})` : String(snapshot.status)
}

export type JsonDocument =
  | { state: 'ok'; value: Record<string, unknown> }
  | { state: 'missing' | 'html' | 'not-json' | 'not-object'; value?: undefined }

/** Reads a 2xx response as a JSON object, saying why not when it is not one. */
export function readJsonObject(snapshot: HttpSnapshot): JsonDocument {
  if (!isOk(snapshot)) return { state: 'missing' }
  if (looksLikeHtml(snapshot.body)) return { state: 'html' }
  const value = parseJson(snapshot.body)
  if (value === undefined) return { state: 'not-json' }
  return isRecord(value) ? { state: 'ok', value } : { state: 'not-object' }
}

/** Why a response is not a usable JSON document, for details. */
export function describeJsonProblem(snapshot: HttpSnapshot, document: JsonDocument): string {
  const path = pathOf(snapshot.url)
  switch (document.state) {
    case 'missing':
      return `${path} answered ${snapshot.status}`
    case 'html':
      return `${path} answered ${snapshot.status} with an HTML page, not JSON`
    case 'not-json':
      return `${path} answered ${statusOf(snapshot)} but the body is not valid JSON`
    case 'not-object':
      return `${path} answered JSON that is not an object`
    case 'ok':
      return `${path} is a JSON object`
  }
}

export type FieldKind = 'string' | 'object' | 'array' | 'non-empty-array'

/** Reads a dotted path (`info.title`) from a JSON object. */
export function valueAt(record: Record<string, unknown>, path: string): unknown {
  let current: unknown = record
  for (const key of path.split('.')) {
    if (!isRecord(current)) return undefined
    current = current[key]
  }
  return current
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string' && value.trim() !== ''
    case 'object':
      return isRecord(value)
    case 'array':
      return Array.isArray(value)
    case 'non-empty-array':
      return Array.isArray(value) && value.length > 0
  }
}

/** The fields (dotted paths) that are absent or of the wrong kind. */
export function missingFields(record: Record<string, unknown>, fields: Record<string, FieldKind>): string[] {
  return Object.entries(fields)
    .filter(([path, kind]) => !hasKind(valueAt(record, path), kind))
    .map(([path]) => path)
}

/** "a, b and 3 more": a short list for details. */
export function listSome(items: readonly string[], max = 3): string {
  if (items.length <= max) return items.join(', ')
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`
}

// ---------------------------------------------------------------------------------------------------------
// Link relations (RFC 8288)

/** Relations that tell an agent where machine-readable resources are (checks.md §14.1). */
const DISCOVERY_RELATIONS = [
  'api-catalog',
  'service-desc',
  'service-doc',
  'service-meta',
  'status',
  'describedby',
  'ai-catalog',
  'sitemap',
] as const

/** Resource hints: a Link header carrying only these says nothing to an agent. */
export const RESOURCE_HINT_RELATIONS = new Set(['preload', 'preconnect', 'dns-prefetch', 'prefetch', 'modulepreload', 'prerender'])

/** The discovery relations a link carries (`alternate` counts only for markdown). */
export function discoveryRelations(link: WebLink): string[] {
  const relations: string[] = link.rel.filter((rel) => (DISCOVERY_RELATIONS as readonly string[]).includes(rel))
  if (link.rel.includes('alternate') && link.type?.startsWith('text/markdown')) relations.push('alternate (text/markdown)')
  return relations
}

// ---------------------------------------------------------------------------------------------------------
// Markdown (llms.txt)

export interface MarkdownOutline {
  /** The first non-blank line is a level-1 heading. */
  startsWithH1: boolean
  /** Text of the first H1 anywhere outside code blocks. */
  h1: string | null
  /** A `>` blockquote outside code blocks. */
  blockquote: boolean
  /** `[text](url)` links outside code blocks, with the H2 they sit under. */
  links: { text: string; url: string; section: string | null }[]
  /** H2 sections and how many list items with a link each holds. */
  sections: { title: string; linkItems: number }[]
}

const MARKDOWN_LINK = /\[([^\]]+)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g
/** Characters of a markdown document outlined (llms.txt is judged over 1 MiB anyway); the rest is not read. */
export const MAX_MARKDOWN_CHARS = 1024 * 1024
/** Links and sections an outline keeps. */
export const MAX_MARKDOWN_LINKS = 10_000

/**
 * Outlines a markdown document the way llmstxt.org describes llms.txt (H1, blockquote, H2 link lists), over its
 * first MAX_MARKDOWN_CHARS characters, keeping at most MAX_MARKDOWN_LINKS links and as many sections.
 */
export function outlineMarkdown(body: string): MarkdownOutline {
  const outline: MarkdownOutline = { startsWithH1: false, h1: null, blockquote: false, links: [], sections: [] }
  let inFence = false
  let seenContent = false
  let section: MarkdownOutline['sections'][number] | null = null
  for (const rawLine of body.slice(0, MAX_MARKDOWN_CHARS).split(/\r\n|\r|\n/)) {
    const line = rawLine.trim()
    if (/^(```|~~~)/.test(line)) {
      inFence = !inFence
      seenContent = true
      continue
    }
    if (inFence || line === '') continue
    const h1 = /^#\s+(.+?)\s*#*$/.exec(line)
    if (!seenContent) outline.startsWithH1 = h1 !== null
    seenContent = true
    if (h1) {
      outline.h1 ??= h1[1]!
      continue
    }
    const h2 = /^##\s+(.+?)\s*#*$/.exec(line)
    if (h2) {
      section = { title: h2[1]!, linkItems: 0 }
      if (outline.sections.length < MAX_MARKDOWN_LINKS) outline.sections.push(section)
      continue
    }
    if (line.startsWith('>')) outline.blockquote = true
    let found = false
    for (const match of line.matchAll(MARKDOWN_LINK)) {
      if (outline.links.length < MAX_MARKDOWN_LINKS) outline.links.push({ text: match[1]!, url: match[2]!, section: section?.title ?? null })
      found = true
    }
    if (found && section && /^([-*+]|\d+\.)\s/.test(line)) section.linkItems += 1
  }
  return outline
}

/** Absolute http(s) URLs written anywhere in a text (code blocks and JSON configuration included), the first `limit`. */
export function absoluteUrlsIn(text: string, limit = MAX_MARKDOWN_LINKS): string[] {
  const urls: string[] = []
  for (const match of text.matchAll(/https?:\/\/[^\s"'`<>()[\]{},\\]+/g)) {
    if (urls.length === limit) break
    urls.push(match[0].replace(/[.;:!?]+$/, ''))
  }
  return urls
}

/**
 * YAML frontmatter (`---` … `---` at the very start), parsed within the YAML bounds; null when there is none, it is
 * not a mapping, or it is over a bound.
 */
export function parseFrontmatter(body: string): Record<string, unknown> | null {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(\r?\n|$)/.exec(body)
  if (!match) return null
  try {
    const value: unknown = parseBoundedYaml(match[1]!)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

// ---------------------------------------------------------------------------------------------------------
// Server-sent events and JSON-RPC (MCP initialize answers, NLWeb streams)

/** The `data` of each SSE event, parsed as JSON where it is JSON (other events are skipped). */
function parseSseJson(body: string): unknown[] {
  const messages: unknown[] = []
  let data: string[] = []
  const flush = (): void => {
    if (data.length > 0) {
      const value = parseJson(data.join('\n'))
      if (value !== undefined) messages.push(value)
    }
    data = []
  }
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (line === '') flush()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  flush()
  return messages
}

/** The JSON values a response carries: the body itself, or every SSE event. */
export function jsonMessages(snapshot: HttpSnapshot): unknown[] {
  if (snapshot.contentType === 'text/event-stream') return parseSseJson(snapshot.body)
  const value = parseJson(snapshot.body)
  return value === undefined ? [] : [value]
}

/** The first JSON-RPC 2.0 response (a result or an error) in a JSON or SSE body; null when there is none. */
/**
 * The MCP initialize request (legacy era, checks.md §6.3) every probe of an MCP endpoint sends: kind detection,
 * endpoint discovery and the agent probes, so that they all meet the endpoint the same way. It advertises the MCP
 * Apps extension (§9) as a UI-capable host does, because servers may register UI tools only for such clients.
 */
export const MCP_INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } },
    clientInfo: { name: 'agent-readiness', version: '1.0.0' },
  },
})

export function readJsonRpcResponse(snapshot: HttpSnapshot): Record<string, unknown> | null {
  for (const message of jsonMessages(snapshot)) {
    const candidates = Array.isArray(message) ? message : [message]
    for (const candidate of candidates) {
      if (isRecord(candidate) && candidate.jsonrpc === '2.0' && ('result' in candidate || 'error' in candidate)) return candidate
    }
  }
  return null
}

/** A `WWW-Authenticate` header carrying a Bearer challenge. */
export function isBearerChallenge(header: string | undefined): boolean {
  return header !== undefined && /(^|,)\s*bearer(\s|,|$)/i.test(header)
}

/** A URL whose path ends in /mcp or /sse: how sites link their MCP endpoints (checks.md §0, kind detection). */
export function isMcpLikeUrl(url: string): boolean {
  try {
    return /\/(mcp|sse)\/?$/i.test(new URL(url).pathname)
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------------------
// AI Catalog / ARD (checks.md §15.1)

export interface CatalogEntry {
  index: number
  identifier?: string
  displayName?: string
  /** `type` (ARD) or `mediaType` (AI Catalog). */
  type?: string
  /** Absolute, resolved against the catalog URL. */
  url?: string
  data?: unknown
  trustManifest?: unknown
  problems: string[]
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined)

/** The catalog's entries with their structural problems; null when the document has no `entries` array. */
export function catalogEntries(document: unknown, baseUrl: string): CatalogEntry[] | null {
  if (!isRecord(document) || !Array.isArray(document.entries)) return null
  return document.entries.map((raw, index): CatalogEntry => {
    if (!isRecord(raw)) return { index, problems: ['is not an object'] }
    const problems: string[] = []
    const identifier = optionalString(raw.identifier)
    const displayName = optionalString(raw.displayName)
    const type = optionalString(raw.type) ?? optionalString(raw.mediaType)
    if (!identifier) problems.push('no identifier')
    if (!displayName) problems.push('no displayName')
    if (!type) problems.push('no type or mediaType')
    const hasUrl = raw.url !== undefined
    const hasData = raw.data !== undefined
    if (hasUrl === hasData) problems.push(hasUrl ? 'both url and data (exactly one is allowed)' : 'neither url nor data')
    let url: string | undefined
    if (hasUrl) {
      try {
        url = new URL(String(raw.url), baseUrl).href
      } catch {
        problems.push(`url "${String(raw.url)}" is not a URL`)
      }
    }
    return { index, identifier, displayName, type, url, data: raw.data, trustManifest: raw.trustManifest, problems }
  })
}

/** The publisher FQDN of an `urn:air:<fqdn>:…` identifier; null for any other form. */
export function urnPublisher(identifier: string): string | null {
  const match = /^urn:air:([a-z0-9.-]+):.+$/i.exec(identifier)
  return match ? match[1]!.toLowerCase() : null
}

/** The host itself or one of its parent domains (a publisher may anchor identifiers at the parent). */
export function isHostOrParent(host: string, publisher: string): boolean {
  const lower = host.toLowerCase()
  return lower === publisher || lower.endsWith(`.${publisher}`)
}

// ---------------------------------------------------------------------------------------------------------
// MCP Server Card (SEP-2127, legacy SEP-1649; checks.md §7)

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'
const CARD_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/
const REMOTE_URL = /^(https?:\/\/[^\s]+|\{[^}]+\}[^\s]*)$/

export type ServerCardShape = 'sep-2127' | 'legacy' | 'invalid'

/**
 * SEP-2127 when the card validates against the v1 schema; `legacy` for the SEP-1649 shapes
 * (`serverInfo`/`transport`, or `{name, version, endpoint}`); `invalid` otherwise, with the schema problems.
 */
export function classifyServerCard(card: Record<string, unknown>): { shape: ServerCardShape; problems: string[] } {
  const problems = serverCardProblems(card)
  if (problems.length === 0) return { shape: 'sep-2127', problems }
  const legacy =
    (isRecord(card.serverInfo) && typeof card.serverInfo.name === 'string') ||
    (isRecord(card.transport) && typeof card.transport.endpoint === 'string') ||
    (typeof card.name === 'string' && typeof card.endpoint === 'string')
  // A card that claims the v1 schema is judged by it, whatever legacy fields it also carries.
  if (legacy && card.$schema !== SERVER_CARD_SCHEMA) return { shape: 'legacy', problems }
  return { shape: 'invalid', problems }
}

function serverCardProblems(card: Record<string, unknown>): string[] {
  const problems: string[] = []
  if (card.$schema !== SERVER_CARD_SCHEMA) {
    problems.push(card.$schema === undefined ? 'no $schema' : `$schema is "${String(card.$schema)}", not ${SERVER_CARD_SCHEMA}`)
  }
  const name = card.name
  if (typeof name !== 'string') problems.push('no name')
  else if (name.length < 3 || name.length > 200 || !CARD_NAME.test(name)) {
    problems.push(`name "${name}" is not "namespace/name" (3–200 characters)`)
  }
  for (const field of ['version', 'description'] as const) {
    if (typeof card[field] !== 'string' || card[field] === '') problems.push(`no ${field}`)
  }
  if (card.icons !== undefined) {
    if (!Array.isArray(card.icons) || card.icons.some((icon) => !isRecord(icon) || typeof icon.src !== 'string')) {
      problems.push('icons[] entries need a src')
    }
  }
  if (card.repository !== undefined && (!isRecord(card.repository) || typeof card.repository.url !== 'string')) {
    problems.push('repository needs a url')
  }
  if (card.remotes !== undefined) {
    if (!Array.isArray(card.remotes)) problems.push('remotes is not an array')
    else {
      for (const [index, remote] of card.remotes.entries()) {
        if (!isRecord(remote)) {
          problems.push(`remotes[${index}] is not an object`)
          continue
        }
        if (remote.type !== 'streamable-http' && remote.type !== 'sse') {
          problems.push(`remotes[${index}].type is "${String(remote.type)}", not streamable-http or sse`)
        }
        if (typeof remote.url !== 'string' || !REMOTE_URL.test(remote.url)) {
          problems.push(`remotes[${index}].url is not an http(s) URL or a {variable} template`)
        }
      }
    }
  }
  return problems
}

/** MCP endpoint URLs a card names: SEP-2127 remotes, or the legacy transport endpoint / endpoint / url. */
export function serverCardEndpoints(card: unknown, baseUrl: string): string[] {
  if (!isRecord(card)) return []
  const raw: unknown[] = []
  if (Array.isArray(card.remotes)) for (const remote of card.remotes) if (isRecord(remote)) raw.push(remote.url)
  if (isRecord(card.transport)) raw.push(card.transport.endpoint, card.transport.url)
  raw.push(card.endpoint, card.url)
  const urls: string[] = []
  for (const value of raw) {
    // Templates ({tenant}.example.com) cannot be probed without their variables.
    if (typeof value !== 'string' || value.includes('{')) continue
    try {
      const url = new URL(value, baseUrl).href
      if (!urls.includes(url)) urls.push(url)
    } catch {
      // not a URL: nothing to probe
    }
  }
  return urls
}

// ---------------------------------------------------------------------------------------------------------
// Agent Skills discovery (checks.md §15.2)

export const SKILLS_V02_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json'
const SKILL_NAME = /^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/

export interface SkillsIndex {
  version: '0.2.0' | '0.1'
  url: string
  skills: { name: string; skillMdUrl: string | null; digest?: string }[]
  problems: string[]
}

/**
 * Parses a skills index. v0.2.0 (`/.well-known/agent-skills/index.json`): `$schema`, `skills[]` of
 * `{name, type: skill-md|archive, description, url, digest?}`. v0.1 (`/.well-known/skills/index.json`):
 * `skills[]` of `{name, description, files[]}` with the SKILL.md at `<name>/SKILL.md` beside the index.
 * Null when the response is not a 2xx JSON object.
 */
export function parseSkillsIndex(snapshot: HttpSnapshot, version: SkillsIndex['version']): SkillsIndex | null {
  const document = readJsonObject(snapshot)
  if (document.state !== 'ok') return null
  const index: SkillsIndex = { version, url: snapshot.url, skills: [], problems: [] }
  const { value } = document
  if (version === '0.2.0' && value.$schema !== SKILLS_V02_SCHEMA) {
    index.problems.push(`$schema is ${value.$schema === undefined ? 'missing' : `"${String(value.$schema)}"`}, not ${SKILLS_V02_SCHEMA}`)
  }
  if (!Array.isArray(value.skills) || value.skills.length === 0) {
    index.problems.push('no skills[] entries')
    return index
  }
  for (const [position, raw] of value.skills.entries()) {
    if (!isRecord(raw)) {
      index.problems.push(`skills[${position}] is not an object`)
      continue
    }
    const name = typeof raw.name === 'string' ? raw.name : ''
    const label = `skills[${position}]${name ? ` (${name})` : ''}`
    if (!SKILL_NAME.test(name)) index.problems.push(`${label}: name must be 1–64 lowercase letters, digits and single hyphens`)
    if (typeof raw.description !== 'string' || raw.description.trim() === '') index.problems.push(`${label}: no description`)
    let skillMdUrl: string | null = null
    if (version === '0.2.0') {
      if (raw.type !== 'skill-md' && raw.type !== 'archive') index.problems.push(`${label}: type must be skill-md or archive`)
      if (raw.digest !== undefined && (typeof raw.digest !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(raw.digest))) {
        index.problems.push(`${label}: digest is not sha256:<64 hex>`)
      }
      if (typeof raw.url !== 'string') index.problems.push(`${label}: no url`)
      else if (raw.type === 'skill-md') skillMdUrl = resolve(raw.url, snapshot.url)
    } else {
      const files = Array.isArray(raw.files) ? raw.files : []
      if (!files.includes('SKILL.md')) index.problems.push(`${label}: files[] does not list SKILL.md`)
      if (name) skillMdUrl = resolve(`${encodeURIComponent(name)}/SKILL.md`, snapshot.url)
    }
    if (name) index.skills.push({ name, skillMdUrl, ...(typeof raw.digest === 'string' ? { digest: raw.digest } : {}) })
  }
  return index
}

function resolve(href: string, base: string): string | null {
  try {
    return new URL(href, base).href
  } catch {
    return null
  }
}

// ---------------------------------------------------------------------------------------------------------
// Bonus JSON manifests at well-known paths (ai-plugin.json, agents.json)

export interface ManifestRule {
  /** "/.well-known/ai-plugin.json", for details. */
  label: string
  fields: Record<string, FieldKind>
  /** Problems beyond missing fields (wrong enum values, unusable URLs). */
  extraProblems?: (document: Record<string, unknown>) => string[]
  /** What a passing manifest holds, for details. */
  summary: (document: Record<string, unknown>) => string
  /** The site-specific fix when the manifest is absent. */
  publish: string
}

/**
 * Bonus manifest checks share one shape: absent or not JSON → unearned (fail); a JSON object missing required
 * fields → warning naming them; complete → pass.
 */
export function judgeManifest(snapshot: HttpSnapshot, rule: ManifestRule): Outcome {
  const document = readJsonObject(snapshot)
  if (document.state !== 'ok') {
    return { status: 'fail', details: `${describeJsonProblem(snapshot, document)}: no manifest`, recommendation: rule.publish }
  }
  const problems = [...missingFields(document.value, rule.fields).map((field) => `no ${field}`), ...(rule.extraProblems?.(document.value) ?? [])]
  if (problems.length > 0) {
    return {
      status: 'warning',
      details: `${rule.label} is JSON but incomplete: ${listSome(problems, 5)}`,
      recommendation: `Complete ${rule.label}: ${listSome(problems, 5)}.`,
    }
  }
  return { status: 'pass', details: `${rule.label} is complete: ${rule.summary(document.value)}` }
}
