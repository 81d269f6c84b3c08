import { and, asc, count, desc, isNotNull, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../core/db/index.ts'
import type { CategorySlug } from '../../core/engine/lib/categories.ts'
import { categoriesForWord, synonymsOf } from './category-words.ts'
import { ardEntries } from './tables.ts'
import { readinessFactor } from './text-match.ts'

/**
 * What an intent means, as a match against the index's discover columns (plugins/ard/tables.ts): the product's own
 * words with English stemming, their synonyms, the market categories the need points at, and trigram near misses.
 */

/** Words of a plain need considered; a need is a sentence, not a document. */
const MAX_WORDS = 32
/** Shorter words are never corrected: a typo in them leaves too few trigrams to tell what was meant. */
const MIN_FUZZY_LENGTH = 4

/** What a word of the intent is worth to an entry, by how the entry matches it. */
export const CREDIT = {
  /** The word itself (stemmed: "socks" matches "sock"). */
  word: 1,
  /** A synonym of it ("apparel" on a page about clothing). */
  synonym: 0.8,
  /** A near miss ("backpaks"), times the trigram similarity (>= 0.5); only for words no entry contains. */
  nearMiss: 0.8,
  /** Only the entry's market category ("store" for a shop that never says so). */
  category: 0.5,
} as const

export interface IntentMatch {
  /** The entry matches the intent. */
  where: SQL
  /** 0..1: how well it matches. */
  relevance: SQL<number>
}

const vector = ardEntries.discoverSearch
const tsquery = (value: string) => sql`websearch_to_tsquery('english', ${value}::text)`
const strength = (query: SQL) => sql<number>`ts_rank_cd(${vector}, ${query}, 32)::float8`

/**
 * A plain list of words matches entries with any of them, each word through itself, its synonyms, its categories
 * or (when the index has no such word) its near misses. Text using websearch syntax (a "quoted phrase",
 * -exclusion, or) is taken as written against the product's words and nothing else.
 *
 * relevance = coverage x (1 + rank) / 2, where coverage is the mean credit of the intent's words (stopwords aside:
 * 1 for the word, 0.8 for a synonym, 0.8 x similarity for a near miss, 0.5 for the category alone) and rank is
 * ts_rank_cd / (ts_rank_cd + 1) of the words and their synonyms over the weighted vector (name A, category and
 * tags B, the product's own words C, the scanner's description D). Coverage leads, so an entry meeting the whole
 * need stays ahead of one meeting part of it; rank orders entries that meet it alike. Websearch-syntax queries
 * require every term, so their coverage is 1.
 */
export function intentMatch(text: string): IntentMatch {
  const trimmed = text.trim()
  if (/"|(^|\s)-\S|\bor\b/i.test(trimmed)) {
    const query = tsquery(trimmed)
    return { where: sql`${vector} @@ ${query}`, relevance: sql<number>`((1 + ${strength(query)}) / 2)` }
  }
  const words = [
    ...new Set(
      trimmed
        .split(/\s+/)
        .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
        .filter(Boolean),
    ),
  ].slice(0, MAX_WORDS)
  // Nothing but punctuation (or undecodable text): no word to look for, so nothing matches.
  if (words.length === 0) return { where: sql`false`, relevance: sql<number>`0::float8` }
  const plans = words.map(planWord)
  const everything = tsquery(plans.flatMap((plan) => [plan.word, ...plan.synonyms]).join(' or '))
  const categories = [...new Set(plans.flatMap((plan) => plan.categories))]
  const credits = plans.map((plan) => plan.credit)
  const counted = plans.map((plan) => plan.counts)
  const where = sql.join(
    [
      sql`${vector} @@ ${everything}`,
      ...(categories.length > 0
        ? [
            sql`${ardEntries.category} in (${sql.join(
              categories.map((slug) => sql`${slug}`),
              sql`, `,
            )})`,
          ]
        : []),
      ...plans.flatMap((plan) => (plan.nearMiss ? [plan.nearMiss] : [])),
    ],
    sql` or `,
  )
  return {
    where: sql`(${where})`,
    relevance: sql<number>`((${sql.join(credits, sql` + `)})::float8 / greatest(${sql.join(counted, sql` + `)}, 1) * (1 + ${strength(everything)}) / 2)`,
  }
}

/**
 * rank = matchScore x (0.6 + 0.4 x score/100), then domain: the same readiness factor as ARD search. Readiness
 * moves an entry by at most 40% (0.6 for a score of 0, 1.0 for 100): it breaks near-ties and lifts well-built
 * sites, while an entry at least 1/0.6 times as relevant always stays ahead. matchScore is intentMatch's relevance
 * (credit-weighted coverage of the intent's words x (1 + normalised ts_rank_cd) / 2, 0..1).
 */
export async function entriesForIntent(db: Db, query: { intent: string; limit: number }) {
  const { where: matches, relevance: matchScore } = intentMatch(query.intent)
  // Every indexed entry has a score today; the condition keeps an unscored one out rather than inventing an F.
  const where = and(matches, isNotNull(ardEntries.score), isNotNull(ardEntries.grade))
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        domain: ardEntries.domain,
        name: ardEntries.displayName,
        category: ardEntries.category,
        score: ardEntries.score,
        grade: ardEntries.grade,
        tags: ardEntries.tags,
        matchScore,
      })
      .from(ardEntries)
      .where(where)
      .orderBy(desc(sql`${matchScore} * ${readinessFactor}`), asc(ardEntries.domain))
      .limit(query.limit),
    db.select({ total: count() }).from(ardEntries).where(where),
  ])
  return { rows, total: counted?.total ?? 0 }
}

interface WordPlan {
  word: string
  synonyms: string[]
  categories: CategorySlug[]
  /** The entry's credit for this word, 0..1. */
  credit: SQL
  /** 1 when the word counts towards coverage (not a stopword, or it names a category or has synonyms). */
  counts: SQL
  /** The near-miss condition, when the word may be corrected. */
  nearMiss: SQL | null
}

function planWord(word: string): WordPlan {
  const own = tsquery(word)
  const synonyms = synonymsOf(word)
  const categories = categoriesForWord(word)
  const cases: SQL[] = [sql`when ${vector} @@ ${own} then ${CREDIT.word}::float8`]
  if (synonyms.length > 0)
    cases.push(sql`when ${vector} @@ ${tsquery(synonyms.join(' or '))} then ${CREDIT.synonym}::float8`)
  if (categories.length > 0) {
    cases.push(
      sql`when ${ardEntries.category} in (${sql.join(
        categories.map((slug) => sql`${slug}`),
        sql`, `,
      )}) then ${CREDIT.category}::float8`,
    )
  }
  let nearMiss: SQL | null = null
  const lower = word.toLowerCase()
  if (lower.length >= MIN_FUZZY_LENGTH && /^[\p{L}\p{N}]+$/u.test(lower)) {
    // Only a word the index does not contain is taken for a typo: a known word means what it says.
    nearMiss = sql`(numnode(${own}) > 0 and not exists (select 1 from ${ardEntries} known where known.discover_search @@ ${own}) and ${lower}::text <<% ${ardEntries.discoverText})`
    cases.push(
      sql`when ${nearMiss} then ${CREDIT.nearMiss} * strict_word_similarity(${lower}::text, ${ardEntries.discoverText})::float8`,
    )
  }
  const hasMeaning = synonyms.length > 0 || categories.length > 0
  return {
    word,
    synonyms,
    categories,
    credit: sql`(case ${sql.join(cases, sql` `)} else 0::float8 end)`,
    counts: hasMeaning ? sql`1` : sql`(numnode(${own}) > 0)::int`,
    nearMiss,
  }
}
