import { type SQL, sql } from 'drizzle-orm'
import { ardEntries } from './tables.ts'

/** Full-text matching of a need against the index, shared by ARD search and discover. */

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
  const matched = sql.join(
    terms.map((term) => sql`(${ardEntries.search} @@ ${term})::int`),
    sql` + `,
  )
  const counted = sql.join(
    terms.map((term) => sql`(numnode(${term}) > 0)::int`),
    sql` + `,
  )
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
