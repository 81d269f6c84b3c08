/**
 * A keyword classifier over a homepage's text, against the fixed market-category taxonomy (core/engine/lib/
 * categories.ts). Pure: the site-identity collector extracts the signals, this file only weighs them.
 */
import { CATEGORIES, type CategorySlug } from '../../lib/categories.ts'

/** What the classifier reads from a page: plain text per field (collapsed whitespace is fine). */
export interface CategorySignals {
  title: string
  /** meta description (or og:description). */
  description: string
  /** Normalised schema.org types of the page's JSON-LD nodes. */
  jsonLdTypes: string[]
  /** Descriptive JSON-LD strings: names, descriptions, slogans, keywords. */
  jsonLdText: string
  /** h1-h3 text. */
  headings: string
  bodyText: string
}

export interface CategoryDecision {
  category: CategorySlug | null
  /** The strongest signals behind the decision, or why no category was chosen. */
  basis: string
}

/** The best category needs at least this many points, e.g. one decisive keyword in the title (3 x 3 = 9). */
export const CATEGORY_THRESHOLD = 6

type TextField = Exclude<keyof CategorySignals, 'jsonLdTypes'>

/** Points per keyword weight in each field; counts beyond `maxHits` add nothing. */
const FIELDS: Record<TextField, { multiplier: number; maxHits: number; label: string }> = {
  title: { multiplier: 3, maxHits: 1, label: 'title' },
  description: { multiplier: 2, maxHits: 1, label: 'description' },
  jsonLdText: { multiplier: 2, maxHits: 1, label: 'JSON-LD' },
  headings: { multiplier: 1, maxHits: 3, label: 'headings' },
  bodyText: { multiplier: 0.25, maxHits: 4, label: 'body' },
}
/** Body text is noisy (navigation, footers, cookie banners): its total per category is capped. */
const BODY_CAP = 3
/** Only the start of a long page is read: enough for any homepage's message, bounded in CPU. */
const MAX_FIELD_CHARS = 20_000

interface Signal {
  label: string
  points: number
}

interface CompiledCategory {
  slug: CategorySlug
  keywords: { term: string; weight: number; pattern: RegExp }[]
  jsonLdTypes: Readonly<Record<string, number>>
}

const COMPILED: CompiledCategory[] = CATEGORIES.map((category) => ({
  slug: category.slug,
  jsonLdTypes: category.jsonLdTypes,
  keywords: Object.entries(category.keywords).map(([term, weight]) => ({
    term,
    weight,
    // Whole words only ("shop" is not in "shopify"), with an optional plural.
    pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}(?:s|es)?(?![\\p{L}\\p{N}])`, 'gu'),
  })),
}))

/**
 * Weighted keyword scoring of a page against the taxonomy: each keyword counts per field (title x3, meta
 * description x2, JSON-LD text x2, headings x1, body x0.25 capped), declared JSON-LD types add their own points.
 * The highest total wins when it reaches the threshold and is not tied; otherwise the page is unclassified.
 */
export function classifyCategory(signals: CategorySignals): CategoryDecision {
  const texts = Object.fromEntries(
    (Object.keys(FIELDS) as TextField[]).map((field) => [
      field,
      signals[field].slice(0, MAX_FIELD_CHARS).toLowerCase(),
    ]),
  ) as Record<TextField, string>
  const declaredTypes = new Set(signals.jsonLdTypes)

  const scored = COMPILED.map((category) => {
    const found: Signal[] = []
    let body = 0
    for (const { term, weight, pattern } of category.keywords) {
      for (const [field, { multiplier, maxHits, label }] of Object.entries(FIELDS) as [
        TextField,
        (typeof FIELDS)[TextField],
      ][]) {
        const hits = countMatches(pattern, texts[field], maxHits)
        if (hits === 0) continue
        const points = hits * weight * multiplier
        if (field === 'bodyText') body += points
        else found.push({ label: `${label} "${term}"${hits > 1 ? ` x${hits}` : ''}`, points })
      }
    }
    for (const [type, points] of Object.entries(category.jsonLdTypes)) {
      if (declaredTypes.has(type)) found.push({ label: `JSON-LD @type ${type}`, points })
    }
    if (body > 0) found.push({ label: 'body text', points: Math.min(BODY_CAP, body) })
    const total = found.reduce((sum, signal) => sum + signal.points, 0)
    return { slug: category.slug, total, found }
  }).sort((a, b) => b.total - a.total)

  const [best, runnerUp] = scored as [(typeof scored)[number], (typeof scored)[number]]
  if (best.total === 0) return { category: null, basis: 'no category keywords or schema.org types on the page' }
  if (best.total < CATEGORY_THRESHOLD) {
    return {
      category: null,
      basis: `no category is clear: the strongest, ${best.slug}, scored ${format(best.total)} (needs ${CATEGORY_THRESHOLD})`,
    }
  }
  if (runnerUp.total === best.total) {
    return { category: null, basis: `ambiguous: ${best.slug} and ${runnerUp.slug} both scored ${format(best.total)}` }
  }
  const strongest = [...best.found].sort((a, b) => b.points - a.points).slice(0, 4)
  return {
    category: best.slug,
    basis: `${best.slug} scored ${format(best.total)} (next: ${runnerUp.slug} ${format(runnerUp.total)}): ${strongest.map((signal) => signal.label).join(', ')}`,
  }
}

function countMatches(pattern: RegExp, text: string, max: number): number {
  pattern.lastIndex = 0
  let count = 0
  while (count < max && pattern.exec(text) !== null) count++
  return count
}

function format(points: number): string {
  return Number.isInteger(points) ? String(points) : points.toFixed(1)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
