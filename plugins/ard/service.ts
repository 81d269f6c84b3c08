import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import {
  and,
  arrayContains,
  arrayOverlaps,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNotNull,
  lt,
  lte,
  ne,
  not,
  notInArray,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm'
import { z } from 'zod'
import type { Config } from '../../core/config.ts'
import { CONTRACT_VERSION, SERVICE_NAME } from '../../core/contract.ts'
import type { Db } from '../../core/db/index.ts'
import { mcpEndpointsEvidence } from '../../core/engine/evidence.ts'
import { CATEGORIES, type CategorySlug, isCategorySlug } from '../../core/engine/lib/categories.ts'
import { MEDIA } from '../../core/engine/lib/discovery.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import type { CheckResult } from '../../core/engine/scoring.ts'
import { AppError } from '../../core/errors.ts'
import type { Logger } from '../../core/log.ts'
import type { ScanRow, ScanStoredListener } from '../scan/repository.ts'
import {
  type AgentsQuery,
  type AgentsResponse,
  type AiCatalog,
  type ArdQuery,
  type ArdRecord,
  type ExploreBody,
  type ExploreResponse,
  FACET_FIELDS,
  FEDERATION_MODES,
  LIST_FILTER_FIELDS,
  LIST_OPERATORS,
  LIST_PAGE_SIZE,
  type ListFilterField,
  type ListOperator,
  MAX_PAGE_SIZE,
  ORDER_BY_FIELDS,
  type OrderByField,
  type RegistryDescriptor,
  SEARCH_FILTER_FIELDS,
  SEARCH_PAGE_SIZE,
  type SearchBody,
  type SearchResponse,
} from './model.ts'
import { ardEntries } from './tables.ts'

/**
 * The ARD registry over our scans: the index kept in step with the scans table, full-text search and facets,
 * the deterministic listing with its filter grammar, tamper-evident page tokens, and the service's own
 * descriptor and AI catalog. No HTTP here.
 */

export type ArdConfig = Pick<Config, 'publicBaseUrl'>

export const ARD_MEDIA = {
  registry: 'application/ai-registry+json',
  catalog: MEDIA.aiCatalog,
  serverCard: MEDIA.serverCard,
  website: 'text/html',
  attestation: 'application/jose',
  openapi: 'application/vnd.oai.openapi+json',
} as const

// ---------------------------------------------------------------------------------------------------------
// Identity

/**
 * The URN publisher is this service's host name: we publish (and sign) the scorecard, the domain is its subject.
 * ARD binds trustManifest.identity to the URN publisher, and our attestation is verifiable against our key set,
 * not the domain's. The host name, not host:port, because the publisher segment is an FQDN (a colon would read
 * as a namespace separator).
 */
export function ardIdentifier(config: ArdConfig, domain: string): string {
  return `urn:air:${publisherHost(config)}:scorecard:${domain}`
}

function publisherHost(config: ArdConfig): string {
  return new URL(config.publicBaseUrl).hostname
}

function registryUrl(config: ArdConfig): string {
  return `${config.publicBaseUrl}/api/ard`
}

function attestationUrl(config: ArdConfig, domain: string): string {
  return `${registryUrl(config)}/attestation/${encodeURIComponent(domain)}`
}

/** This registry as a catalog entry and in its own descriptor. */
function registryIdentity(config: ArdConfig) {
  return { identifier: `urn:air:${publisherHost(config)}:registry:scorecards`, displayName: `${SERVICE_NAME} scorecard registry` }
}

function publisher(config: ArdConfig) {
  return { displayName: SERVICE_NAME, identifier: publisherHost(config), url: config.publicBaseUrl }
}

// ---------------------------------------------------------------------------------------------------------
// The index, kept in step with the scans table

type IndexableScan = ScanRow & { result: ScanReport; score: number; grade: string }
type EntryValues = typeof ardEntries.$inferInsert
type McpEndpoint = { url: string; source: string }

/** Only measured, published results enter: ephemeral results are disposable, auth markers carry no score. */
function isIndexable(row: ScanRow): row is IndexableScan {
  return !row.ephemeral && !row.authRequired && row.result !== null && row.score !== null && row.grade !== null
}

/**
 * The scan repository's listener that upserts the index entry of a stored scan (a no-op for scans that never
 * enter the index). It runs inside the transaction that writes the scan, so the index never disagrees with the
 * scans table; the composition root registers it (core/deps.ts).
 */
export function ardIndexer(config: ArdConfig): ScanStoredListener {
  return async (tx, row) => {
    if (!isIndexable(row)) return
    const values = entryValues(row, config)
    const { domain: _domain, ...changes } = values
    await tx
      .insert(ardEntries)
    .values(values)
    .onConflictDoUpdate({
      target: ardEntries.domain,
      set: changes,
      // An older scan finished late (the worker resolving it after a newer scan was stored) must not replace
      // the newer entry: the entry follows the newest measured scan, ties broken by scan id.
      setWhere: sql`(coalesce(${ardEntries.checkedAt}, '-infinity'::timestamptz), coalesce(${ardEntries.scanId}, 0)) <= (excluded.checked_at, excluded.scan_id)`,
    })
  }
}

/** Checks whose pass is worth a tag: the machine-readable entry points an agent looks for first. */
const NOTABLE_CHECKS = [
  'llms-txt',
  'mcp-endpoint-advertised',
  'mcp-server-card',
  'openapi-description',
  'ai-catalog',
  'a2a-agent-card',
  'agent-skills-index',
  'markdown-negotiation',
] as const

const KIND_NOUNS: Record<ScanReport['urlKind'], string> = { domain: 'website', mcp: 'MCP server', 'mcp-app': 'MCP App server' }
const KIND_TAGS: Record<ScanReport['urlKind'], string> = { domain: 'website', mcp: 'mcp-server', 'mcp-app': 'mcp-app' }

/** One typical need per market category, phrased as an agent's user would: the seed of representativeQueries. */
const CATEGORY_QUERIES: Record<CategorySlug, string> = {
  'ecommerce-retail': 'buy products online with delivery',
  'developer-tools': 'developer tools, SDKs and APIs for building software',
  'ai-ml': 'AI models and machine learning services',
  'payments-fintech': 'accept payments and manage money',
  'saas-productivity': 'project management and team productivity software',
  'media-publishing': 'read the latest news and articles',
  'travel-hospitality': 'book flights, hotels and travel',
  education: 'take online courses and learn new skills',
  'health-wellness': 'health, fitness and wellness services',
  'marketing-analytics': 'marketing campaigns and analytics',
  'security-identity': 'secure logins, identity and account protection',
  'cloud-infrastructure': 'host, deploy and scale applications in the cloud',
  'jobs-hr': 'find jobs and hire talent',
  'real-estate': 'find homes to buy or rent',
  'gaming-entertainment': 'games, movies and music streaming',
}

function categoryName(slug: string | null): string | null {
  return CATEGORIES.find((category) => category.slug === slug)?.name ?? null
}

function entryValues(row: IndexableScan, config: ArdConfig): EntryValues {
  const report = row.result
  const checks = report.layers.flatMap((layer) => layer.checks)
  const mcpEndpoints = mcpEndpointsOf(report, checks)
  const displayName = report.name.trim() || row.domain
  const category = categoryName(report.category)
  const kind = category ? `${category} ${KIND_NOUNS[report.urlKind]}` : KIND_NOUNS[report.urlKind]
  // The report carries no description of the site: a factual sentence from what the scan established, plus
  // the one-sentence verdict once the background analysis wrote it.
  const description = [`${displayName}: ${kind} at ${row.domain}.`, `Agent readiness ${row.score}/100, grade ${row.grade}.`, row.agenticSummary]
    .filter(Boolean)
    .join(' ')
  return {
    domain: row.domain,
    identifier: ardIdentifier(config, row.domain),
    displayName,
    description,
    // The artefact an agent would fetch: an MCP server when the scan found one, else the website itself.
    type: mcpEndpoints.length > 0 ? ARD_MEDIA.serverCard : ARD_MEDIA.website,
    url: report.url,
    category: report.category,
    tags: tagsOf(report, checks, row.grade, mcpEndpoints.length > 0),
    representativeQueries: representativeQueries(report, displayName, mcpEndpoints.length > 0),
    mcpEndpoints,
    publisherId: row.domain,
    score: row.score,
    grade: row.grade,
    scanId: row.id,
    checkedAt: row.scannedAt,
    updatedAt: new Date(),
  }
}

/**
 * MCP endpoints the scan found answering: the scanned MCP URL, endpoints MCP checks ran against, and the endpoints
 * any check reported as typed evidence (a domain scan records advertised and blind-probed endpoints only there).
 */
function mcpEndpointsOf(report: ScanReport, checks: CheckResult[]): McpEndpoint[] {
  const found = new Map<string, string>()
  const add = (url: string, source: string) => {
    if (!found.has(url) && URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)) found.set(url, source)
  }
  if (report.mcpUrl) add(report.mcpUrl, 'scan')
  if (report.urlKind !== 'domain') add(report.url, 'scan')
  for (const check of checks) if (check.mcpUrl) add(check.mcpUrl, 'scan')
  for (const check of checks) {
    // Stored results are plain JSON: the evidence is parsed again rather than trusted.
    const evidence = mcpEndpointsEvidence.safeParse(check.evidence)
    if (evidence.success) for (const endpoint of evidence.data.mcpEndpoints) add(endpoint.url, endpoint.source)
  }
  return [...found].map(([url, source]) => ({ url, source }))
}

function tagsOf(report: ScanReport, checks: CheckResult[], grade: string, hasMcp: boolean): string[] {
  const passing = new Set(checks.filter((check) => check.status === 'pass').map((check) => check.id))
  const tags = [
    report.category,
    KIND_TAGS[report.urlKind],
    hasMcp ? 'mcp' : null,
    // A+ and A share a band: the letter is what people filter on.
    `grade-${grade.replace('+', '').toLowerCase()}`,
    ...NOTABLE_CHECKS.filter((id) => passing.has(id)),
  ]
  return [...new Set(tags.filter((tag): tag is string => Boolean(tag)))]
}

/** 2-3 queries (ARD asks for 2-5): the category's typical need, the name with what it is, and MCP access. */
function representativeQueries(report: ScanReport, displayName: string, hasMcp: boolean): string[] {
  const category = report.category && isCategorySlug(report.category) ? report.category : null
  const what = (categoryName(category) ?? KIND_NOUNS[report.urlKind]).toLowerCase()
  return [
    category ? CATEGORY_QUERIES[category] : `services offered by ${displayName}`,
    `${displayName} ${what}`,
    ...(hasMcp ? [`connect an AI agent to ${displayName} over MCP`] : []),
  ]
}

// ---------------------------------------------------------------------------------------------------------
// Full-text matching, shared with discover

/** Words of a plain need considered; a need is a sentence, not a document. */
const MAX_WORDS = 32

export interface TextMatch {
  /** The entry matches the need. */
  where: SQL
  /** 0..1: how well it matches (see textMatch). */
  relevance: SQL<number>
}

/**
 * Full-text matching of a free-text need. A plain list of words matches entries with any of them: needs in
 * natural language ("I want running shoes") rarely have every word in an entry. Text using websearch syntax
 * (a "quoted phrase", -exclusion, or) is taken as written. websearch_to_tsquery never raises on any input, so
 * garbled text is an empty match, not an error.
 *
 * relevance = coverage x rank / (rank + 1), where rank is ts_rank_cd over the weighted vector (name A, category
 * and tags B, description and queries C) and coverage is the share of the need's words (stopwords aside) the
 * entry contains; websearch-syntax queries already require every term, so their coverage is 1. rank / (rank + 1)
 * alone squashes strong matches together near 1; coverage keeps an entry that matches the whole need above one
 * that matches a single word of it, even after the readiness factor.
 */
export function textMatch(text: string): TextMatch {
  const trimmed = text.trim()
  const tsquery = (value: string) => sql`websearch_to_tsquery('english', ${value}::text)`
  if (/"|(^|\s)-\S|\bor\b/i.test(trimmed)) {
    const query = tsquery(trimmed)
    return { where: sql`${ardEntries.search} @@ ${query}`, relevance: strength(query) }
  }
  const words = [...new Set(trimmed.split(/\s+/))].slice(0, MAX_WORDS)
  const query = tsquery(words.join(' or '))
  const terms = words.map(tsquery)
  const matched = sql.join(terms.map((term) => sql`(${ardEntries.search} @@ ${term})::int`), sql` + `)
  const counted = sql.join(terms.map((term) => sql`(numnode(${term}) > 0)::int`), sql` + `)
  return {
    where: sql`${ardEntries.search} @@ ${query}`,
    relevance: sql<number>`((${matched})::float8 / greatest(${counted}, 1) * ${strength(query)})`,
  }
}

function strength(query: SQL): SQL<number> {
  return sql<number>`ts_rank_cd(${ardEntries.search}, ${query}, 32)::float8`
}

/** 0.6 + 0.4 x readiness/100: readiness moves an entry by at most 40%, an unscored entry counts as 0. */
export const readinessFactor = sql<number>`(0.6 + 0.4 * coalesce(${ardEntries.score}, 0) / 100.0)`

// ---------------------------------------------------------------------------------------------------------
// Page tokens

const tokenPayload = z.object({ o: z.number().int().min(0), q: z.string() })

/**
 * Opaque, tamper-evident page tokens: base64url(JSON {o: offset, q: query digest}) "." HMAC-SHA256 over that
 * text. The key is derived (HKDF) from the database-held service secret, so every instance issues and accepts
 * the same tokens across restarts. The MAC is compared as text, so even a change in a base64 padding bit is
 * refused; the digest binds a token to the query (and route) it was issued for.
 */
export class PageTokens {
  constructor(private readonly key: () => Promise<Buffer>) {}

  async issue(scope: string, offset: number): Promise<string> {
    const payload = Buffer.from(JSON.stringify({ o: offset, q: scope })).toString('base64url')
    return `${payload}.${await this.mac(payload)}`
  }

  /** The offset a token carries; 0 without a token. Throws INVALID_ARGUMENT for a tampered or foreign token. */
  async offset(token: string | undefined, scope: string): Promise<number> {
    if (token === undefined) return 0
    const parts = token.split('.')
    const [payload, mac] = parts
    if (parts.length !== 2 || !payload || !mac || !(await this.verify(payload, mac))) {
      throw invalidToken('pageToken is not valid: it was altered, has expired or was not issued by this registry')
    }
    const parsed = tokenPayload.safeParse(parseJson(Buffer.from(payload, 'base64url').toString('utf8')))
    if (!parsed.success) throw invalidToken('pageToken is not valid')
    if (parsed.data.q !== scope) throw invalidToken('pageToken was issued for a different query; send the same query or no token')
    return parsed.data.o
  }

  private async verify(payload: string, mac: string): Promise<boolean> {
    const expected = Buffer.from(await this.mac(payload))
    const presented = Buffer.from(mac)
    return expected.length === presented.length && timingSafeEqual(expected, presented)
  }

  private async mac(payload: string): Promise<string> {
    return createHmac('sha256', await this.key()).update(`ard-page-token:v1:${payload}`).digest('base64url')
  }
}

function invalidToken(message: string): AppError {
  return new AppError('INVALID_ARGUMENT', { message, details: { parameter: 'pageToken' } })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** A digest of the canonical query: what a page token is bound to. Page size is not part of it. */
function queryScope(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 22)
}

// ---------------------------------------------------------------------------------------------------------
// Search and explore

export interface ArdContext {
  db: Db
  config: ArdConfig
  tokens: PageTokens
}

const { search: _search, ...ENTRY_COLUMNS } = getTableColumns(ardEntries)
type EntryRow = Omit<typeof ardEntries.$inferSelect, 'search'>

const FILTER_COLUMNS = {
  category: ardEntries.category,
  type: ardEntries.type,
  grade: ardEntries.grade,
  publisherId: ardEntries.publisherId,
  identifier: ardEntries.identifier,
} as const

/** Fields in a fixed order, values deduplicated and sorted: the same filter always has the same digest. */
function normalizeFilter(filter: ArdQuery['filter']): [(typeof SEARCH_FILTER_FIELDS)[number], string[]][] {
  return SEARCH_FILTER_FIELDS.flatMap((field) => {
    const raw = filter?.[field]
    if (raw === undefined) return []
    return [[field, [...new Set(typeof raw === 'string' ? [raw] : raw)].sort()]]
  })
}

/** OR within a field, AND across fields; an entry has a tag filter's value when it has any of the tags. */
function filterConditions(filter: ReturnType<typeof normalizeFilter>): SQL[] {
  return filter.map(([field, values]) =>
    field === 'tags' ? arrayOverlaps(ardEntries.tags, values) : inArray(FILTER_COLUMNS[field], values),
  )
}

function queryConditions(query: ArdQuery | undefined) {
  const text = query?.text?.trim() || null
  const filter = normalizeFilter(query?.filter)
  const match = text ? textMatch(text) : null
  return { text, filter, match, where: and(match?.where, ...filterConditions(filter)) }
}

/**
 * Ranked by score = match quality x (0.6 + 0.4 x readiness/100), then domain. Match quality is the text relevance
 * (0..1) or, for a filter-only query where every result matches exactly, 1. Offset paging through an opaque
 * token; one extra row tells whether another page exists.
 */
export async function searchEntries(context: ArdContext, body: SearchBody): Promise<SearchResponse> {
  const { text, filter, match, where } = queryConditions(body.query)
  const scope = queryScope({ route: 'search', text, filter })
  const offset = await context.tokens.offset(body.pageToken, scope)
  const quality = match ? match.relevance : sql<number>`1.0`
  const rank = sql<number>`(${quality} * ${readinessFactor})::float8`
  const rows = await context.db
    .select({ entry: ENTRY_COLUMNS, rank })
    .from(ardEntries)
    .where(where)
    .orderBy(desc(rank), asc(ardEntries.domain))
    .limit(body.pageSize + 1)
    .offset(offset)
  const page = rows.slice(0, body.pageSize)
  const source = registryUrl(context.config)
  return {
    results: page.map(({ entry, rank }) => ({
      ...toArdRecord(entry, context.config),
      score: Math.round(Number(rank) * 100),
      source,
    })),
    referrals: [],
    ...(rows.length > body.pageSize ? { pageToken: await context.tokens.issue(scope, offset + page.length) } : {}),
  }
}

const FACET_COLUMNS = { category: ardEntries.category, type: ardEntries.type, grade: ardEntries.grade } as const

/** Counts per value over every entry the query matches (the same match as search), for each requested field. */
export async function exploreEntries(context: ArdContext, body: ExploreBody): Promise<ExploreResponse> {
  const { where } = queryConditions(body.query)
  const facets = await Promise.all(
    body.resultType.facets.map(async (facet) => {
      const groups = await facetGroups(context.db, where, facet.field, facet.minCount)
      return [
        facet.field,
        {
          buckets: groups.slice(0, facet.limit),
          otherCount: groups.slice(facet.limit).reduce((sum, group) => sum + group.count, 0),
        },
      ] as const
    }),
  )
  return { resultType: 'facets', facets: Object.fromEntries(facets) }
}

/** Every value with at least `minCount` entries, by count descending then value. Few distinct values exist. */
async function facetGroups(
  db: Db,
  where: SQL | undefined,
  field: (typeof FACET_FIELDS)[number],
  minCount: number,
): Promise<{ value: string; count: number }[]> {
  if (field === 'tags') {
    const tags = db.select({ value: sql<string>`unnest(${ardEntries.tags})`.as('value') }).from(ardEntries).where(where).as('tags')
    return db
      .select({ value: tags.value, count: count() })
      .from(tags)
      .groupBy(tags.value)
      .having(gte(count(), minCount))
      .orderBy(desc(count()), asc(tags.value))
  }
  const column = FACET_COLUMNS[field]
  const rows = await db
    .select({ value: column, count: count() })
    .from(ardEntries)
    .where(and(where, isNotNull(column)))
    .groupBy(column)
    .having(gte(count(), minCount))
    .orderBy(desc(count()), asc(column))
  return rows.flatMap((row) => (row.value === null ? [] : [{ value: row.value, count: row.count }]))
}

// ---------------------------------------------------------------------------------------------------------
// The listing's filter and orderBy grammar
//
//   filter    := condition ( AND condition )*
//   condition := field operator value
//   operator  := "=" | "!=" | ">" | "<" | ">=" | "<="
//   value     := bare-word | "double quoted" | 'single quoted'     (backslash escapes the next character)
//   orderBy   := field [ ASC | DESC ]
//
// A real tokenizer and parser: the result is a list of typed conditions that become drizzle conditions with
// bound parameters, so no part of the input ever reaches SQL text.

type Token = { kind: 'word' | 'string' | 'operator'; text: string; at: number }

type ListCondition =
  | { field: 'type' | 'publisherId'; operator: '=' | '!='; values: string[] }
  | { field: 'displayName'; operator: ListOperator; value: string }
  | { field: 'tags'; operator: '=' | '!='; value: string }
  | { field: 'updatedAt'; operator: ListOperator; value: Date }

interface ListOrder {
  field: OrderByField
  direction: 'asc' | 'desc'
}

const EQUALITY = ['=', '!='] as const
const FIELD_OPERATORS: Record<ListFilterField, readonly ListOperator[]> = {
  type: EQUALITY,
  publisherId: EQUALITY,
  tags: EQUALITY,
  displayName: LIST_OPERATORS,
  updatedAt: LIST_OPERATORS,
}
const MAX_CONDITIONS = 20
const MAX_VALUE_LENGTH = 256
/** ISO 8601 date or date-time with a four-digit year PostgreSQL can store. */
const ISO_DATE = /^[1-9]\d{3}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i
const DEFAULT_ORDER: ListOrder = { field: 'displayName', direction: 'asc' }

function syntaxError(parameter: 'filter' | 'orderBy', message: string, at?: number): AppError {
  return new AppError('INVALID_ARGUMENT', {
    message: `${parameter}: ${message}`,
    details: { parameter, ...(at === undefined ? {} : { position: at }) },
  })
}

function tokenize(input: string, parameter: 'filter' | 'orderBy'): Token[] {
  const tokens: Token[] = []
  let at = 0
  while (at < input.length) {
    const char = input[at]!
    if (/\s/.test(char)) {
      at += 1
      continue
    }
    const pair = input.slice(at, at + 2)
    if (pair === '>=' || pair === '<=' || pair === '!=') {
      tokens.push({ kind: 'operator', text: pair, at })
      at += 2
      continue
    }
    if (char === '=' || char === '>' || char === '<') {
      tokens.push({ kind: 'operator', text: char, at })
      at += 1
      continue
    }
    if (char === '!') throw syntaxError(parameter, `"!" at position ${at} is only valid in the operator "!="`, at)
    if (char === '(' || char === ')') {
      throw syntaxError(parameter, `parentheses (position ${at}) are not supported: conditions are joined by AND only`, at)
    }
    if (char === '"' || char === "'") {
      let value = ''
      let end = at + 1
      let closed = false
      while (end < input.length) {
        const next = input[end]!
        if (next === '\\' && end + 1 < input.length) {
          value += input[end + 1]
          end += 2
        } else if (next === char) {
          closed = true
          end += 1
          break
        } else {
          value += next
          end += 1
        }
      }
      if (!closed) throw syntaxError(parameter, `the quoted value starting at position ${at} is not closed`, at)
      tokens.push({ kind: 'string', text: value, at })
      at = end
      continue
    }
    // A bare word runs to the next space, operator or parenthesis; quotes inside it are literal (O'Reilly).
    let end = at
    while (end < input.length && !/[\s=!<>()]/.test(input[end]!)) end += 1
    tokens.push({ kind: 'word', text: input.slice(at, end), at })
    at = end
  }
  return tokens
}

const isKeyword = (token: Token | undefined, keyword: string) => token?.kind === 'word' && token.text.toUpperCase() === keyword

function parseListFilter(input: string): ListCondition[] {
  const tokens = tokenize(input, 'filter')
  const conditions: ListCondition[] = []
  let index = 0
  while (index < tokens.length) {
    if (conditions.length > 0) {
      const joiner = tokens[index]!
      if (isKeyword(joiner, 'OR')) {
        throw syntaxError('filter', `OR (position ${joiner.at}) is not supported: conditions are joined by AND`, joiner.at)
      }
      if (!isKeyword(joiner, 'AND')) throw syntaxError('filter', `expected AND at position ${joiner.at}, found "${joiner.text}"`, joiner.at)
      index += 1
      if (index >= tokens.length) throw syntaxError('filter', 'expected a condition after AND', joiner.at)
    }
    const [fieldToken, operatorToken, valueToken] = [tokens[index]!, tokens[index + 1], tokens[index + 2]]
    conditions.push(parseCondition(fieldToken, operatorToken, valueToken))
    if (conditions.length > MAX_CONDITIONS) throw syntaxError('filter', `at most ${MAX_CONDITIONS} conditions are supported`)
    index += 3
  }
  return conditions
}

function parseCondition(fieldToken: Token, operatorToken: Token | undefined, valueToken: Token | undefined): ListCondition {
  if (fieldToken.kind !== 'word') {
    throw syntaxError('filter', `expected a field name at position ${fieldToken.at}, found "${fieldToken.text}"`, fieldToken.at)
  }
  const field = LIST_FILTER_FIELDS.find((name) => name === fieldToken.text)
  if (!field) {
    throw syntaxError('filter', `unsupported field "${fieldToken.text}"; supported: ${LIST_FILTER_FIELDS.join(', ')}`, fieldToken.at)
  }
  if (operatorToken?.kind !== 'operator') {
    throw syntaxError('filter', `expected an operator (${LIST_OPERATORS.join(' ')}) after "${field}"`, operatorToken?.at ?? fieldToken.at)
  }
  const operator = LIST_OPERATORS.find((candidate) => candidate === operatorToken.text)!
  if (!FIELD_OPERATORS[field].includes(operator)) {
    throw syntaxError(
      'filter',
      `operator "${operator}" is not supported for field "${field}"; supported: ${FIELD_OPERATORS[field].join(' ')}`,
      operatorToken.at,
    )
  }
  if (!valueToken || valueToken.kind === 'operator') {
    throw syntaxError('filter', `expected a value after "${field} ${operator}"`, valueToken?.at ?? operatorToken.at)
  }
  const value = valueToken.text
  if (value.length > MAX_VALUE_LENGTH) throw syntaxError('filter', `values are at most ${MAX_VALUE_LENGTH} characters`, valueToken.at)
  const equality = operator === '=' || operator === '!=' ? operator : null
  switch (field) {
    case 'type':
    case 'publisherId': {
      const values = [...new Set(value.split(',').map((part) => part.trim()).filter(Boolean))].sort()
      if (values.length === 0) throw syntaxError('filter', `expected a value after "${field} ${operator}"`, valueToken.at)
      return { field, operator: equality!, values }
    }
    case 'tags':
      return { field, operator: equality!, value }
    case 'displayName':
      return { field, operator, value }
    case 'updatedAt': {
      const date = new Date(value)
      if (!ISO_DATE.test(value) || Number.isNaN(date.getTime())) {
        throw syntaxError('filter', `updatedAt expects an ISO 8601 date or date-time, found "${value}"`, valueToken.at)
      }
      return { field, operator, value: date }
    }
  }
}

function parseListOrder(input: string | undefined): ListOrder {
  const tokens = tokenize(input ?? '', 'orderBy')
  const [fieldToken, directionToken, extra] = tokens
  if (!fieldToken) return DEFAULT_ORDER
  const field = ORDER_BY_FIELDS.find((name) => fieldToken.kind === 'word' && name === fieldToken.text)
  if (!field) {
    throw syntaxError('orderBy', `unsupported field "${fieldToken.text}"; supported: ${ORDER_BY_FIELDS.join(', ')}`, fieldToken.at)
  }
  if (directionToken && !isKeyword(directionToken, 'ASC') && !isKeyword(directionToken, 'DESC')) {
    throw syntaxError('orderBy', `expected ASC or DESC after "${field}", found "${directionToken.text}"`, directionToken.at)
  }
  if (extra) throw syntaxError('orderBy', `unexpected "${extra.text}" at position ${extra.at}: one field and a direction`, extra.at)
  return { field, direction: isKeyword(directionToken, 'DESC') ? 'desc' : 'asc' }
}

const COMPARE: Record<ListOperator, (left: SQLWrapper, right: unknown) => SQL> = {
  '=': eq,
  '!=': ne,
  '>': gt,
  '<': lt,
  '>=': gte,
  '<=': lte,
}

function conditionSql(condition: ListCondition): SQL {
  switch (condition.field) {
    case 'type':
    case 'publisherId': {
      const column = condition.field === 'type' ? ardEntries.type : ardEntries.publisherId
      return condition.operator === '=' ? inArray(column, condition.values) : notInArray(column, condition.values)
    }
    case 'tags': {
      const has = arrayContains(ardEntries.tags, [condition.value])
      return condition.operator === '=' ? has : not(has)
    }
    case 'displayName':
      // ARD: the name filter is case-insensitive.
      return COMPARE[condition.operator](sql`lower(${ardEntries.displayName})`, sql`lower(${condition.value})`)
    case 'updatedAt':
      return COMPARE[condition.operator](ardEntries.updatedAt, condition.value)
  }
}

const ORDER_EXPRESSIONS: Record<OrderByField, SQLWrapper> = {
  displayName: sql`lower(${ardEntries.displayName})`,
  updatedAt: ardEntries.updatedAt,
  identifier: ardEntries.identifier,
  type: ardEntries.type,
}

/** The deterministic listing: filtered, ordered by the chosen field then domain (a total order), offset paged. */
export async function listEntries(context: ArdContext, query: AgentsQuery): Promise<AgentsResponse> {
  const conditions = parseListFilter(query.filter ?? '')
  const order = parseListOrder(query.orderBy)
  const scope = queryScope({ route: 'agents', conditions, order })
  const offset = await context.tokens.offset(query.pageToken, scope)
  const where = and(...conditions.map(conditionSql))
  const expression = ORDER_EXPRESSIONS[order.field]
  const [rows, [counted]] = await Promise.all([
    context.db
      .select(ENTRY_COLUMNS)
      .from(ardEntries)
      .where(where)
      .orderBy(order.direction === 'asc' ? asc(expression) : desc(expression), asc(ardEntries.domain))
      .limit(query.pageSize + 1)
      .offset(offset),
    context.db.select({ total: count() }).from(ardEntries).where(where),
  ])
  const page = rows.slice(0, query.pageSize)
  return {
    items: page.map((row) => toArdRecord(row, context.config)),
    total: counted?.total ?? 0,
    ...(rows.length > query.pageSize ? { pageToken: await context.tokens.issue(scope, offset + page.length) } : {}),
  }
}

// ---------------------------------------------------------------------------------------------------------
// Records and documents

function toArdRecord(row: EntryRow, config: ArdConfig): ArdRecord {
  const scored = row.score !== null && row.grade !== null
  return {
    identifier: row.identifier,
    displayName: row.displayName,
    type: row.type,
    url: row.url,
    description: row.description,
    tags: row.tags,
    representativeQueries: row.representativeQueries,
    updatedAt: row.updatedAt.toISOString(),
    publisherId: row.publisherId,
    ...(row.category ? { category: row.category } : {}),
    mcpEndpoints: row.mcpEndpoints,
    trustManifest: {
      identity: row.identifier,
      attestations: [{ type: 'agent-readiness-scorecard', uri: attestationUrl(config, row.domain), mediaType: ARD_MEDIA.attestation }],
    },
    oraScorecard: {
      ...(scored ? { score: row.score!, grade: row.grade as NonNullable<ArdRecord['oraScorecard']['grade']> } : {}),
      ...(row.category ? { category: row.category } : {}),
      ...(row.checkedAt ? { checkedAt: row.checkedAt.toISOString() } : {}),
    },
  }
}

const DUMP_BATCH = 500

/**
 * The whole index as one JSON document, streamed: entries are read in keyset pages by domain, so memory stays
 * flat however large the index grows. The first page is read before the response starts, so an unreachable
 * database is still a 500 rather than a truncated 200; a failure later aborts the body (invalid JSON, never a
 * silently short list).
 */
export async function catalogDumpStream(
  db: Db,
  config: ArdConfig,
  log: Pick<Logger, 'error'>,
  options: { batchSize?: number; now?: Date } = {},
): Promise<ReadableStream<Uint8Array>> {
  const batchSize = options.batchSize ?? DUMP_BATCH
  const readAfter = (domain: string | null) =>
    db
      .select(ENTRY_COLUMNS)
      .from(ardEntries)
      .where(domain === null ? undefined : gt(ardEntries.domain, domain))
      .orderBy(asc(ardEntries.domain))
      .limit(batchSize)
  const encoder = new TextEncoder()
  const head = JSON.stringify({ version: CONTRACT_VERSION, generatedAt: (options.now ?? new Date()).toISOString(), publisher: publisher(config) })
  // An empty batch means the index is exhausted; every pull either enqueues or closes, so the stream never stalls.
  let batch: EntryRow[] = await readAfter(null)
  let first = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${head.slice(0, -1)},"data":[`))
    },
    async pull(controller) {
      const current = batch
      if (current.length === 0) {
        controller.enqueue(encoder.encode(']}'))
        controller.close()
        return
      }
      controller.enqueue(encoder.encode(`${first ? '' : ','}${current.map((row) => JSON.stringify(toArdRecord(row, config))).join(',')}`))
      first = false
      try {
        batch = current.length < batchSize ? [] : await readAfter(current.at(-1)!.domain)
      } catch (error) {
        log.error({ err: error }, 'ARD catalog dump failed mid-stream')
        controller.error(error)
      }
    },
  })
}

/** GET /api/ard: what a client needs to use this registry without reading our documentation. */
export function registryDescriptor(config: ArdConfig): RegistryDescriptor {
  const base = registryUrl(config)
  return {
    ...registryIdentity(config),
    description:
      'Every domain this service has scanned (non-ephemeral, measured), searchable by need and filterable by category, tags, type and readiness grade, with a signed readiness scorecard per entry.',
    contractVersion: CONTRACT_VERSION,
    publisher: publisher(config),
    endpoints: {
      search: { method: 'POST', url: `${base}/search` },
      explore: { method: 'POST', url: `${base}/explore` },
      list: { method: 'GET', url: `${base}/agents` },
      catalog: { method: 'GET', url: `${base}/catalog` },
      catalogDump: { method: 'GET', url: `${base}/catalog.json` },
      attestation: { method: 'GET', url: `${base}/attestation/{domain}` },
      jwks: { method: 'GET', url: `${base}/jwks` },
    },
    pagination: {
      model: 'opaque-token',
      tokenField: 'pageToken',
      maxPageSize: MAX_PAGE_SIZE,
      defaultPageSize: { search: SEARCH_PAGE_SIZE, list: LIST_PAGE_SIZE },
    },
    search: {
      filterFields: [...SEARCH_FILTER_FIELDS],
      filterSemantics: 'OR within a field, AND across fields; tags match when the entry has any of the values',
      textSyntax: 'PostgreSQL websearch syntax; a plain list of words matches entries with any of them',
      scoring: 'score = match quality (0-100) x (0.6 + 0.4 x readiness/100); relevance, not a trust judgement',
    },
    list: {
      filterFields: [...LIST_FILTER_FIELDS],
      operators: [...LIST_OPERATORS],
      orderByFields: [...ORDER_BY_FIELDS],
      defaultOrderBy: `${DEFAULT_ORDER.field} ASC`,
    },
    explore: { facetFields: [...FACET_FIELDS] },
    federation: { modes: [...FEDERATION_MODES], default: 'auto', upstreams: [] },
    mediaTypes: {
      registry: ARD_MEDIA.registry,
      catalog: ARD_MEDIA.catalog,
      entryTypes: [ARD_MEDIA.serverCard, ARD_MEDIA.website],
      attestation: ARD_MEDIA.attestation,
    },
  }
}

/** Our own AI catalog (checks.md §17.3): the MCP server card, this registry and the OpenAPI document. */
export function serviceCatalog(config: ArdConfig): AiCatalog {
  const host = publisherHost(config)
  const base = config.publicBaseUrl
  return {
    specVersion: '1.0',
    host: { displayName: SERVICE_NAME, identifier: host, documentationUrl: `${base}/swagger` },
    entries: [
      {
        identifier: `urn:air:${host}:mcp:${SERVICE_NAME}`,
        displayName: `${SERVICE_NAME} MCP server`,
        type: ARD_MEDIA.serverCard,
        url: `${base}/api/mcp/server-card`,
        description: 'Scan a domain, MCP server or MCP App server for AI-agent readiness from an agent.',
        tags: ['mcp', 'agent-readiness', 'scanner'],
        representativeQueries: ['check if a website is ready for AI agents', 'scan an MCP server for agent readiness'],
      },
      {
        ...registryIdentity(config),
        type: ARD_MEDIA.registry,
        url: registryUrl(config),
        description: 'Search the scanned domains by need, ranked by relevance and agent readiness.',
        tags: ['registry', 'ard', 'agent-readiness'],
        representativeQueries: ['find agent-ready websites for a task', 'which MCP servers are ready for agents'],
      },
      {
        identifier: `urn:air:${host}:openapi:${SERVICE_NAME}`,
        displayName: `${SERVICE_NAME} HTTP API`,
        type: ARD_MEDIA.openapi,
        url: `${base}/openapi.json`,
        description: 'The OpenAPI description of every route of this service.',
        tags: ['openapi', 'api'],
        representativeQueries: ['agent readiness scanning API', 'get the readiness score of a domain'],
      },
    ],
  }
}
