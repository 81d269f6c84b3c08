import { extractJsonLd, type JsonLdNode } from '../lib/jsonld.ts'
import type { HtmlPage, HttpSnapshot } from '../snapshot.ts'
import { DESCRIPTIVE_JSONLD_KEYS } from './site-identity.ts'

/**
 * What a site says about itself on its homepage and in its llms.txt, kept with the scan report so that discover
 * can match an agent's need against the product's own words (plugins/ard/indexer.ts). Every field is bounded:
 * the text is hostile input and is stored with each scan.
 */
export interface SiteProfile {
  /** <title>. */
  title: string
  /** meta description. */
  description: string
  /** og:title and og:description (when they differ from the above). */
  openGraph: string[]
  /** h1-h3 text, in document order. */
  headings: string[]
  /**
   * schema.org names, descriptions, categories and keywords of the page's entities: the organization, its
   * products and offers (nested ones included).
   */
  structuredData: string[]
  /** The llms.txt H1 and its blockquote summary, when the site serves one. */
  llmsSummary: string
}

const MAX_ITEM_CHARS = 300
const MAX_ITEMS = 40
/** The whole profile stays under this many characters (about a page of text). */
export const MAX_PROFILE_CHARS = 6_000
const JSONLD_KEYS = [...DESCRIPTIVE_JSONLD_KEYS, 'brand']

export function describeSite(homepage: HtmlPage, llmsTxt: HttpSnapshot | null): SiteProfile | null {
  // An error page describes the error, not the site.
  if (homepage.status >= 400) return null
  const { $ } = homepage
  const meta = (selector: string) => clean($(selector).first().attr('content') ?? '')
  const title = bound(clean($('title').first().text()))
  const description = bound(meta('meta[name="description"]'))
  const openGraph = unique([meta('meta[property="og:title"]'), meta('meta[property="og:description"]')]).filter(
    (text) => text !== title && text !== description,
  )
  const headings = unique(
    $('h1, h2, h3')
      .toArray()
      .map((element) => clean($(element).text())),
  )
  const profile: SiteProfile = {
    title,
    description,
    openGraph,
    headings,
    structuredData: unique(extractJsonLd($).nodes.flatMap(nodeTexts)),
    llmsSummary: llmsTxt ? llmsSummary(llmsTxt) : '',
  }
  return capProfile(profile)
}

function nodeTexts(node: JsonLdNode): string[] {
  return JSONLD_KEYS.flatMap((key) => texts(node.value[key]))
}

/** Strings, arrays of strings, and named objects (a `brand` or `category` given as a Thing). */
function texts(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return [clean(value)]
  if (depth > 1) return []
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).flatMap((item) => texts(item, depth + 1))
  if (value && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string') {
    return [clean((value as { name: string }).name)]
  }
  return []
}

/** The llms.txt H1 (the project's name) and the blockquote that summarises it (llmstxt.org). */
export function llmsSummary(snapshot: HttpSnapshot): string {
  if (snapshot.status !== 200 || !snapshot.body) return ''
  const lines = snapshot.body.slice(0, 20_000).split(/\r?\n/)
  const heading = lines.find((line) => /^#\s+\S/.test(line))?.replace(/^#\s+/, '') ?? ''
  const start = lines.findIndex((line) => line.startsWith('>'))
  const quote: string[] = []
  for (let index = start; start >= 0 && index < lines.length && lines[index]!.startsWith('>'); index++) {
    quote.push(lines[index]!.replace(/^>\s?/, ''))
  }
  return bound(clean([heading, ...quote].join(' ')), MAX_ITEM_CHARS * 2)
}

/** Sections in order of trust, each dropping its tail once the whole profile would exceed MAX_PROFILE_CHARS. */
function capProfile(profile: SiteProfile): SiteProfile {
  let budget = MAX_PROFILE_CHARS - profile.title.length - profile.description.length - profile.llmsSummary.length
  const take = (items: string[]) => {
    const kept: string[] = []
    for (const item of items.slice(0, MAX_ITEMS).map((text) => bound(text))) {
      if (item.length > budget) break
      kept.push(item)
      budget -= item.length
    }
    return kept
  }
  const openGraph = take(profile.openGraph)
  const structuredData = take(profile.structuredData)
  const headings = take(profile.headings)
  return { ...profile, openGraph, structuredData, headings }
}

/** Every text of a profile, in one string for a full-text index. */
export function profileText(profile: SiteProfile | null | undefined): string {
  if (!profile) return ''
  return [
    profile.title,
    profile.description,
    ...profile.openGraph,
    ...profile.structuredData,
    ...profile.headings,
    profile.llmsSummary,
  ]
    .filter(Boolean)
    .join('\n')
    .slice(0, MAX_PROFILE_CHARS)
}

function unique(items: string[]): string[] {
  return [...new Set(items.filter(Boolean))]
}

function clean(text: string): string {
  // Control characters (NUL included, which PostgreSQL text cannot hold) become spaces.
  return text
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

function bound(text: string, max = MAX_ITEM_CHARS): string {
  return text.length > max ? text.slice(0, max).trimEnd() : text
}
