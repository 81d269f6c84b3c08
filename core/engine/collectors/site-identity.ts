import { defineCollector } from '../check.ts'
import { type CategorySignals, classifyCategory } from './lib/classify-category.ts'
import { extractJsonLd, type JsonLdNode } from '../lib/jsonld.ts'
import type { HtmlPage } from '../snapshot.ts'

/** The site's display name and its market category (from a fixed taxonomy), for reports, competitors and the leaderboard. */
export interface SiteIdentity {
  /** og:site_name, JSON-LD Organization/WebSite name, <title> (trimmed of taglines), else the domain. */
  name: string
  /** A slug of core/engine/lib/categories.ts, or null when no category is clear enough. */
  category: string | null
  /** Why: the strongest signals that decided the category, or why none was chosen. */
  categoryBasis: string
}

export const siteIdentityCollector = defineCollector({
  key: 'siteIdentity',
  async collect({ get, target }) {
    return identifySite(await get('homepage'), target.domain)
  },
})

const MAX_NAME_LENGTH = 100
/** Parts of a title that are never the site's name ("Home | Acme"). */
const GENERIC_TITLE_PART = /^(home|home ?page|welcome|index|start|main page|official (web)?site)$/i
/** Second-level labels of country domains (acme.co.uk, acme.com.au) and `www`: never the brand. */
const NON_BRAND_LABELS = new Set(['www', 'co', 'com', 'net', 'org', 'gov', 'edu', 'ac'])
const TITLE_SEPARATORS = / [|\-–—·•] |: /
const NAMED_TYPES = new Set([
  'WebSite',
  'Organization',
  'Corporation',
  'OnlineBusiness',
  'OnlineStore',
  'LocalBusiness',
  'NGO',
])
/** The JSON-LD fields that describe what an organisation or site is (the profile reads its brand too). */
export const DESCRIPTIVE_JSONLD_KEYS = [
  'name',
  'alternateName',
  'description',
  'slogan',
  'disambiguatingDescription',
  'keywords',
  'category',
  'genre',
]

export function identifySite(homepage: HtmlPage, domain: string): SiteIdentity {
  // An error page (a bot challenge, a 404) names and describes the error, not the site.
  if (homepage.status >= 400) {
    return {
      name: domain,
      category: null,
      categoryBasis: `the homepage answered ${homepage.status}, so it was not read`,
    }
  }
  const { $ } = homepage
  const nodes = extractJsonLd($).nodes
  const title = clean($('title').first().text())
  const decision = classifyCategory(categorySignals(homepage, nodes, title))
  return {
    name: siteName(homepage, nodes, title, domain),
    category: decision.category,
    categoryBasis: decision.basis,
  }
}

function siteName(homepage: HtmlPage, nodes: JsonLdNode[], title: string, domain: string): string {
  const ogSiteName = clean(homepage.$('meta[property="og:site_name"]').attr('content') ?? '')
  if (ogSiteName) return truncate(ogSiteName)
  // WebSite before Organization: an organization's name is often its legal name ("Acme, Inc.").
  const named = nodes
    .filter(
      (node) =>
        node.types.some((type) => NAMED_TYPES.has(type)) &&
        typeof node.value.name === 'string' &&
        clean(node.value.name),
    )
    .sort(
      (a, b) =>
        Number(b.topLevel) - Number(a.topLevel) ||
        Number(b.types.includes('WebSite')) - Number(a.types.includes('WebSite')),
    )
  const jsonLdName = named[0]?.value.name
  if (typeof jsonLdName === 'string') return truncate(clean(jsonLdName))
  return truncate(nameFromTitle(title, domain) ?? domain)
}

/**
 * The brand part of a title: the part matching the domain's main label when there is one ("Buy anvils | Acme"
 * on acme.com), else the shortest part that is not generic ("Stripe | Financial infrastructure").
 */
export function nameFromTitle(title: string, domain: string): string | null {
  const parts = [...new Set(title.split(TITLE_SEPARATORS).map(clean))].filter(
    (part) => part.length >= 2 && !GENERIC_TITLE_PART.test(part),
  )
  if (parts.length === 0) return null
  const shortest = (candidates: string[]) =>
    candidates.reduce((best, part) => (part.length < best.length ? part : best))
  // Right to left, so the registrable label ("acme" in docs.acme.co.uk) is tried before a subdomain's.
  for (const label of domain.split('.').slice(0, -1).reverse().map(compact)) {
    if (label.length < 2 || NON_BRAND_LABELS.has(label)) continue
    const matching = parts.filter((part) => compact(part).includes(label))
    if (matching.length > 0) return shortest(matching)
  }
  return shortest(parts)
}

function categorySignals(homepage: HtmlPage, nodes: JsonLdNode[], title: string): CategorySignals {
  const { $ } = homepage
  const description =
    $('meta[name="description"]').attr('content') ?? $('meta[property="og:description"]').attr('content') ?? ''
  // A copy: the homepage artifact is shared by every check of the scan and must stay as fetched.
  const body = $('body').clone()
  body.find('script, style, noscript, template, svg').remove()
  return {
    title,
    description: clean(description),
    jsonLdTypes: [...new Set(nodes.flatMap((node) => node.types))],
    jsonLdText: nodes.flatMap((node) => DESCRIPTIVE_JSONLD_KEYS.flatMap((key) => texts(node.value[key]))).join('\n'),
    headings: $('h1, h2, h3')
      .toArray()
      .map((element) => clean($(element).text()))
      .join('\n'),
    bodyText: clean(body.text()),
  }
}

function texts(value: unknown): string[] {
  if (typeof value === 'string') return [clean(value)]
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string').map(clean)
  return []
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function compact(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')
}

function truncate(name: string): string {
  return name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH - 1).trimEnd()}…` : name
}
