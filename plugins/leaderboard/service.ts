import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../core/db/index.ts'
import { SCAN_KINDS } from '../../core/engine/check.ts'
import { CATEGORY_SLUGS } from '../../core/engine/lib/categories.ts'
import { GRADE_COLORS, type Grade, gradeFor } from '../../core/engine/scoring.ts'
import {
  latestPublishedScans,
  poolRank,
  publishedCheckStatusCounts,
  reportPathFor,
  targetLabel,
} from '../scan/public.ts'
import type { LeaderboardQuery, LeaderboardResponse, StatsResponse } from './model.ts'

const GRADES = Object.keys(GRADE_COLORS) as Grade[]
const COUNTED_STATUSES = ['pass', 'fail', 'warning', 'na', 'error'] as const
type CountedStatus = (typeof COUNTED_STATUSES)[number]

/** The leaderboard feature's piece: one page of the ranking (the route, the MCP tool and the page read it). */
export type Leaderboard = (query: LeaderboardQuery) => Promise<LeaderboardResponse>

/** One page of the ranking: the latest complete scan per report target, filtered, by score then domain. */
export async function leaderboardPage(db: Db, query: LeaderboardQuery): Promise<LeaderboardResponse> {
  const { category, kind, page, pageSize } = query
  const pool = latestPublishedScans(db, { perTarget: true, ...(category ? { everInCategory: category } : {}) })
  const filters = and(category ? eq(pool.category, category) : undefined, kind ? eq(pool.urlKind, kind) : undefined)
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        // Computed over every filtered row before LIMIT/OFFSET, so ranks hold across pages.
        rank: poolRank(pool),
        domain: pool.domain,
        name: pool.name,
        category: pool.category,
        score: pool.score,
        urlKind: pool.urlKind,
        url: pool.url,
        mcpUrl: pool.mcpUrl,
        scannedAt: pool.scannedAt,
      })
      .from(pool)
      .where(filters)
      .orderBy(desc(pool.score), asc(pool.domain), asc(pool.target))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: sql<number>`count(*)::int` }).from(pool).where(filters),
  ])
  const total = counted?.total ?? 0
  return {
    items: rows.map(({ url, mcpUrl, ...row }) => ({
      ...row,
      grade: gradeFor(row.score),
      scannedAt: row.scannedAt.toISOString(),
      target: targetLabel({ urlKind: row.urlKind, url, mcpUrl }),
      report: reportPathFor({ urlKind: row.urlKind, url, mcpUrl }),
    })),
    total,
    page,
    pageSize,
    nextPage: page * pageSize < total ? page + 1 : null,
    category: category ?? null,
    kind: kind ?? null,
  }
}

/** Coverage, grade distribution, mean score and per-check result counts over the published pool. */
export async function publishedStats(db: Db, now = new Date()): Promise<StatsResponse> {
  const [groups, checkRows] = await Promise.all([scoreGroups(db), publishedCheckStatusCounts(db)])

  const byKind = Object.fromEntries(SCAN_KINDS.map((kind) => [kind, 0])) as Record<(typeof SCAN_KINDS)[number], number>
  const byCategory: Record<string, number> = Object.fromEntries(CATEGORY_SLUGS.map((slug) => [slug, 0]))
  const grades = Object.fromEntries(GRADES.map((grade) => [grade, 0])) as Record<Grade, number>
  let domains = 0
  let unclassified = 0
  let scoreSum = 0
  for (const group of groups) {
    domains += group.count
    scoreSum += group.score * group.count
    byKind[group.urlKind] += group.count
    grades[gradeFor(group.score)] += group.count
    if (group.category === null) unclassified += group.count
    else byCategory[group.category] = (byCategory[group.category] ?? 0) + group.count
  }

  const checks: StatsResponse['checks'] = {}
  for (const row of checkRows) {
    if (!(COUNTED_STATUSES as readonly string[]).includes(row.status)) continue
    const entry = (checks[row.id] ??= { pass: 0, fail: 0, warning: 0, na: 0, error: 0, passRate: null })
    entry[row.status as CountedStatus] += row.count
  }
  for (const entry of Object.values(checks)) {
    const measured = entry.pass + entry.fail + entry.warning
    entry.passRate = measured === 0 ? null : Math.round((entry.pass / measured) * 1000) / 1000
  }

  return {
    generatedAt: now.toISOString(),
    coverage: { domains, byKind, byCategory, unclassified },
    grades,
    averageScore: domains === 0 ? null : Math.round((scoreSum / domains) * 10) / 10,
    checks,
  }
}

/** Pool rows counted per (kind, category, score): at most 3 x categories x 101 groups, however many domains. */
function scoreGroups(db: Db) {
  const pool = latestPublishedScans(db)
  return db
    .select({ urlKind: pool.urlKind, category: pool.category, score: pool.score, count: sql<number>`count(*)::int` })
    .from(pool)
    .groupBy(pool.urlKind, pool.category, pool.score)
}
