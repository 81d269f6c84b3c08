import { and, between, desc, eq, inArray, isNotNull, lte, or, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '../../core/db/index.ts'
import { gradeFor } from '../../core/engine/scoring.ts'
import type { competitorSet } from './model.ts'
import { scans } from './tables.ts'

export type CompetitorSet = z.infer<typeof competitorSet>

/** Leaders shown per category, and rows shown on each side of the subject among its neighbors. */
const LEADERS = 5
const NEIGHBOR_REACH = 2

/** Narrows the pool to whole domains before the latest scan of each is taken (never to a subset of a domain's scans). */
export interface PoolNarrowing {
  domains?: string[]
  /** Domains ever stored with this category; the caller still filters the pool on `category`. */
  everInCategory?: string
  /**
   * One row per report target (a website's origin, an MCP server's URL) instead of one per domain: the leaderboard
   * ranks reports, so a host's website and MCP server stand side by side and neither replaces the other.
   */
  perTarget?: boolean
}

/**
 * The published pool every ranking reads (competitors, leaderboard, statistics): per domain, its latest complete,
 * measured scan. Ephemeral results and auth-required markers never enter it. The same SQL runs on PostgreSQL and
 * PGlite.
 */
export function latestPublishedScans(db: Db, narrowing: PoolNarrowing = {}) {
  const unit = narrowing.perTarget ? scans.target : scans.domain
  return db
    .selectDistinctOn([unit], {
      id: scans.id,
      domain: scans.domain,
      target: scans.target,
      url: scans.url,
      mcpUrl: scans.mcpUrl,
      name: sql<string>`coalesce(nullif(${scans.result}->>'name', ''), ${scans.domain})`.as('name'),
      score: sql<number>`${scans.score}`.as('score'),
      category: scans.category,
      urlKind: scans.urlKind,
      scannedAt: scans.scannedAt,
    })
    .from(scans)
    .where(
      and(
        eq(scans.ephemeral, false),
        eq(scans.authRequired, false),
        eq(scans.analysisStatus, 'complete'),
        isNotNull(scans.score),
        narrowing.domains ? inArray(scans.domain, narrowing.domains) : undefined,
        narrowing.everInCategory === undefined
          ? undefined
          : inArray(
              scans.domain,
              db.select({ domain: scans.domain }).from(scans).where(eq(scans.category, narrowing.everInCategory)),
            ),
      ),
    )
    .orderBy(unit, desc(scans.scannedAt), desc(scans.id))
    .as('latest')
}

/** The ranking every list shares, 1-based: score descending, ties by domain (then target). Window functions run before LIMIT. */
export function poolRank(pool: ReturnType<typeof latestPublishedScans>) {
  return sql<number>`(row_number() over (order by ${pool.score} desc, ${pool.domain} asc, ${pool.target} asc))::int`
}

/**
 * Check results of the pool's scans counted per (check id, status), in SQL over the stored result JSON: the
 * database returns one row per pair, not the results. Malformed results (no layer or check arrays) count nothing.
 */
export function publishedCheckStatusCounts(db: Db) {
  const pool = latestPublishedScans(db)
  const layers = db
    .select({ layer: sql`jsonb_array_elements(${jsonArray(sql`${scans.result}->'layers'`)})`.as('layer') })
    .from(scans)
    .innerJoin(pool, eq(scans.id, pool.id))
    .as('layers')
  const entries = db
    .select({ entry: sql`jsonb_array_elements(${jsonArray(sql`${layers.layer}->'checks'`)})`.as('entry') })
    .from(layers)
    .as('entries')
  const id = sql<string>`${entries.entry}->>'id'`
  const status = sql<string>`${entries.entry}->>'status'`
  return db
    .select({ id, status, count: sql<number>`count(*)::int` })
    .from(entries)
    .where(sql`jsonb_typeof(${entries.entry}) = 'object' and ${id} is not null and ${status} is not null`)
    .groupBy(id, status)
}

/** The value when it is a JSON array, else an empty one (jsonb_array_elements raises on anything else). */
function jsonArray(value: ReturnType<typeof sql>) {
  return sql`case when jsonb_typeof(${value}) = 'array' then ${value} else '[]'::jsonb end`
}

/**
 * The domain and its parents, nearest first: docs.eu.acme.com, eu.acme.com, acme.com. Without a public-suffix
 * list a two-label parent such as co.uk is also tried; only a scanned and classified one can ever match.
 */
export function selfAndParents(domain: string): string[] {
  const labels = domain.split('.')
  return labels.slice(0, -1).map((_, index) => labels.slice(index).join('.'))
}

/**
 * The spec's CompetitorSet for a domain: the category pool of the subject, its top five, and up to two rows either
 * side of it. Null when no subject is classified and ranked. The subject is the company: for a subdomain query the
 * parent company's row is self (spec: Competitor.isSelf), i.e. the outermost scanned and classified parent, and
 * the subdomain itself only when no parent is.
 */
export async function competitorsFor(db: Db, domain: string): Promise<CompetitorSet | null> {
  const candidates = selfAndParents(domain)
  const own = latestPublishedScans(db, { domains: candidates })
  const found = await db.select({ domain: own.domain, category: own.category }).from(own)
  const subject = candidates
    .toReversed()
    .map((candidate) => found.find((row) => row.domain === candidate))
    .find((row): row is { domain: string; category: string } => typeof row?.category === 'string')
  if (!subject) return null

  const pool = latestPublishedScans(db, { everInCategory: subject.category })
  const ranked = db
    .select({
      domain: pool.domain,
      name: pool.name,
      score: pool.score,
      rank: poolRank(pool).as('rank'),
    })
    .from(pool)
    .where(eq(pool.category, subject.category))
    .as('ranked')
  const placed = db
    .select({
      domain: ranked.domain,
      name: ranked.name,
      score: ranked.score,
      rank: ranked.rank,
      selfRank: sql<number>`max(case when ${ranked.domain} = ${subject.domain} then ${ranked.rank} end) over ()`.as(
        'self_rank',
      ),
    })
    .from(ranked)
    .as('placed')
  const rows = await db
    .select({ domain: placed.domain, name: placed.name, score: placed.score, rank: placed.rank })
    .from(placed)
    .where(
      or(
        lte(placed.rank, LEADERS),
        between(placed.rank, sql`${placed.selfRank} - ${NEIGHBOR_REACH}`, sql`${placed.selfRank} + ${NEIGHBOR_REACH}`),
      ),
    )
    .orderBy(placed.rank)

  const competitor = (row: (typeof rows)[number]) => ({
    rank: row.rank,
    domain: row.domain,
    name: row.name,
    score: row.score,
    grade: gradeFor(row.score),
    isSelf: row.domain === subject.domain,
  })
  const selfRank = rows.find((row) => row.domain === subject.domain)?.rank
  if (selfRank === undefined) return null
  return {
    category: subject.category,
    leaders: rows.filter((row) => row.rank <= LEADERS).map(competitor),
    neighbors: rows.filter((row) => Math.abs(row.rank - selfRank) <= NEIGHBOR_REACH).map(competitor),
  }
}
