import { and, arrayOverlaps, asc, count, desc, gte, inArray, isNotNull, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../core/db/index.ts'
import { conditionSql, ORDER_EXPRESSIONS, parseListFilter, parseListOrder } from './filter-grammar.ts'
import { registryUrl } from './identity.ts'
import {
  type AgentsQuery,
  type AgentsResponse,
  type ArdQuery,
  type ExploreBody,
  type ExploreResponse,
  FACET_FIELDS,
  SEARCH_FILTER_FIELDS,
  type SearchBody,
  type SearchResponse,
} from './model.ts'
import { queryScope } from './page-tokens.ts'
import { type ArdContext, ENTRY_COLUMNS, toArdRecord } from './records.ts'
import { ardEntries } from './tables.ts'
import { readinessFactor, textMatch } from './text-match.ts'

/** The registry's three reads: ranked search, facet counts, and the deterministic listing. */

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
    const tags = db
      .select({ value: sql<string>`unnest(${ardEntries.tags})`.as('value') })
      .from(ardEntries)
      .where(where)
      .as('tags')
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
