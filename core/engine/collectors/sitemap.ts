import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { xmlNestingExceeds } from '../../parse/nesting.ts'
import { type CollectorContext, defineCollector } from '../check.ts'
import { ACCEPT } from '../lib/media-types.ts'
import { nullOnCollectorError, settle } from './lib/fetch.ts'
import { BROWSER_HEADERS, fetchSnapshot, type HttpSnapshot, isOk, looksLikeHtml } from '../snapshot.ts'

export interface SitemapArtifact {
  /** Where the sitemap came from: a robots.txt `Sitemap:` line, or a guessed conventional path. */
  source: 'robots' | 'guess' | null
  url: string | null
  response: HttpSnapshot | null
  /** Candidates tried in order (docs/checks.md §5 discovery order). */
  tried: string[]
  parsed: {
    wellFormed: boolean
    root: 'urlset' | 'sitemapindex' | 'other' | null
    namespaceOk: boolean
    /** `<loc>` values (at most 50,000 kept). */
    locs: string[]
    invalidLastmod: number
    plainText: boolean
    /** The file exceeds 50,000 URLs or 50 MB. */
    overLimits: boolean
    /** Only the first bytes were read (the body passed the size cap): well-formedness was not verified. */
    partial?: boolean
  } | null
  /** The first `<loc>` (or, for an index, the first child sitemap) probed. */
  firstLoc: { url: string; status: number | null; error?: string } | null
  /** The `Sitemap:` URLs robots.txt listed (empty when it listed none or could not be read). */
  robotsSitemaps?: string[]
  /** Every candidate with what it answered, for details. */
  attempts?: { url: string; status: number | null; note?: string; error?: string }[]
  /**
   * The sitemap found is gzip-compressed (`application/gzip`, not a Content-Encoding): snapshots carry text,
   * so its content could not be read and `parsed` is null.
   */
  compressed?: boolean
}

const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9'
const MAX_URLS = 50_000
const MAX_BYTES = 52_428_800
/** Read at most this much; a larger sitemap is scanned for <loc> without a well-formedness check. */
export const READ_CAP = 10 * 1024 * 1024
/**
 * Larger well-formed sitemaps are read with patterns rather than parsed into a tree: fast-xml-parser's tree costs
 * ~50 bytes of memory per byte (a 10 MB sitemap peaks past 300 MB), the patterns next to nothing.
 */
const TREE_PARSE_CHARS = 1024 * 1024
/** A sitemap nests three elements deep (urlset, url, loc), four or five with extensions; deeper is refused. */
const MAX_XML_DEPTH = 32
/** `Sitemap:` lines of robots.txt tried, in order; a robots.txt may list thousands. */
const MAX_ROBOTS_SITEMAPS = 5
const GUESSED_PATHS = ['/sitemap.xml', '/sitemap_index.xml', '/sitemap-index.xml', '/sitemap.xml.gz']
/** W3C Datetime (the profile sitemaps.org requires for <lastmod>). */
const W3C_DATETIME =
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d))?)?)?$/

const localName = (name: string): string => name.replace(/^.*:/, '')

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ['url', 'sitemap'].includes(localName(name)),
})

/**
 * A gzip file (not a Content-Encoding, which the client undoes) decoded as text: the magic bytes 1f 8b, the
 * second turned into U+FFFD. The Content-Type alone says nothing: a .gz served with Content-Encoding arrives decoded.
 */
function isGzip(response: HttpSnapshot): boolean {
  return /^\x1f(\x8b|\uFFFD)/.test(response.body)
}

function childrenNamed(node: Record<string, unknown>, name: string): unknown[] {
  for (const [key, value] of Object.entries(node)) if (localName(key) === name && Array.isArray(value)) return value
  return []
}

function textOf(node: unknown, name: string): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined
  for (const [key, value] of Object.entries(node)) {
    if (localName(key) !== name) continue
    if (typeof value === 'string') return value
    if (typeof value === 'object' && value !== null && '#text' in value) return String(value['#text'])
  }
  return undefined
}

/** What an XML sitemap that cannot be read (malformed, entities, too deep) or a body that is no sitemap yields. */
function unreadableSitemap(overLimits: boolean): NonNullable<SitemapArtifact['parsed']> {
  return {
    wellFormed: false,
    root: null,
    namespaceOk: false,
    locs: [],
    invalidLastmod: 0,
    plainText: false,
    overLimits,
  }
}

/** Parses a sitemap body (XML urlset/sitemapindex, or a plain-text list of URLs); null when it is neither. */
export function parseSitemap(response: HttpSnapshot): NonNullable<SitemapArtifact['parsed']> | null {
  const { body } = response
  const declaredSize = Number(response.headers['content-length'] ?? 0)
  const overBytes = (response.truncated ? declaredSize : body.length) > MAX_BYTES
  const trimmed = body.replace(/^\uFEFF/, '').trimStart()
  if (!trimmed.startsWith('<')) {
    // Line by line, keeping MAX_URLS: a 10 MB list is not split into an array of every line.
    const locs: string[] = []
    let count = 0
    for (const match of trimmed.matchAll(/[^\r\n]+/g)) {
      const line = match[0].trim()
      if (line === '') continue
      if (!/^https?:\/\/\S+$/.test(line)) return null
      if (++count <= MAX_URLS) locs.push(line)
    }
    if (count === 0) return null
    return {
      wellFormed: false,
      root: null,
      namespaceOk: false,
      locs,
      invalidLastmod: 0,
      plainText: true,
      overLimits: count > MAX_URLS || overBytes,
    }
  }
  if (response.truncated) return { ...scanSitemap(body, overBytes), partial: true }
  // Sitemaps need no DTD; entity declarations are refused rather than expanded (entity-expansion bombs), and
  // nesting no sitemap needs is refused before the validator or the parser walks it.
  if (/<!ENTITY/i.test(body) || xmlNestingExceeds(body, MAX_XML_DEPTH) || XMLValidator.validate(body) !== true) {
    return unreadableSitemap(overBytes)
  }
  if (body.length > TREE_PARSE_CHARS) return { ...scanSitemap(body, overBytes), wellFormed: true }
  const document = parser.parse(body) as Record<string, unknown>
  const rootKey = Object.keys(document).find((key) => !key.startsWith('?') && !key.startsWith('#'))
  const rootNode = rootKey === undefined ? undefined : document[rootKey]
  const rootName = rootKey === undefined ? null : localName(rootKey)
  const root = rootName === 'urlset' || rootName === 'sitemapindex' ? rootName : rootName === null ? null : 'other'
  const node = typeof rootNode === 'object' && rootNode !== null ? (rootNode as Record<string, unknown>) : {}
  const prefix = rootKey?.includes(':') ? rootKey.slice(0, rootKey.indexOf(':')) : null
  const namespace = node[prefix ? `@_xmlns:${prefix}` : '@_xmlns']
  const entries =
    root === 'urlset' ? childrenNamed(node, 'url') : root === 'sitemapindex' ? childrenNamed(node, 'sitemap') : []
  const locs: string[] = []
  let invalidLastmod = 0
  for (const entry of entries) {
    const loc = textOf(entry, 'loc')
    if (loc && locs.length < MAX_URLS) locs.push(loc)
    const lastmod = textOf(entry, 'lastmod')
    if (lastmod !== undefined && !W3C_DATETIME.test(lastmod)) invalidLastmod += 1
  }
  return {
    wellFormed: true,
    root,
    namespaceOk: namespace === SITEMAP_NAMESPACE,
    locs,
    invalidLastmod,
    plainText: false,
    overLimits: entries.length > MAX_URLS || overBytes,
  }
}

/**
 * Root, namespace and `<loc>`s read with patterns, keeping at most MAX_URLS locs: for a body cut at the read cap
 * (which cannot be validated, so `wellFormed` only says a sitemap root was seen) and for large validated ones.
 */
function scanSitemap(body: string, overBytes: boolean): NonNullable<SitemapArtifact['parsed']> {
  const rootMatch = /<([\w-]+:)?(urlset|sitemapindex)\b([^>]*)>/.exec(body)
  // The root's own prefix: `<image:loc>` and other extensions' elements are not entries.
  const prefix = (rootMatch?.[1] ?? '').replace(/[-]/g, '\\$&')
  const locs: string[] = []
  let count = 0
  for (const match of body.matchAll(new RegExp(`<${prefix}loc>\\s*([^<\\s]+)\\s*<\\/`, 'g'))) {
    if (++count <= MAX_URLS) locs.push(match[1]!.replaceAll('&amp;', '&'))
  }
  let invalidLastmod = 0
  // No lazy quantifier between \s*: on a body cut short, that backtracks quadratically over a long run of spaces.
  for (const match of body.matchAll(new RegExp(`<${prefix}lastmod>([^<]*)<\\/`, 'g')))
    if (!W3C_DATETIME.test(match[1]!.trim())) invalidLastmod += 1
  return {
    wellFormed: rootMatch !== null,
    root: rootMatch ? (rootMatch[2] as 'urlset' | 'sitemapindex') : null,
    namespaceOk: rootMatch?.[3]?.includes(SITEMAP_NAMESPACE) ?? false,
    locs,
    invalidLastmod,
    plainText: false,
    overLimits: count > MAX_URLS || overBytes,
  }
}

async function probe(
  ctx: CollectorContext,
  url: string,
  headers: Record<string, string>,
): Promise<SitemapArtifact['firstLoc']> {
  const { response, error } = await settle(fetchSnapshot(ctx.http, url, { headers }))
  return response ? { url, status: response.status } : { url, status: null, error }
}

export const sitemapCollector = defineCollector({
  key: 'sitemap',
  async collect(ctx) {
    // An unreadable robots.txt leaves the conventional paths to try.
    const robotsSitemaps = (await ctx.get('robots').catch(nullOnCollectorError))?.sitemaps ?? []
    const candidates: { url: string; source: 'robots' | 'guess' }[] = []
    for (const url of robotsSitemaps.slice(0, MAX_ROBOTS_SITEMAPS)) candidates.push({ url, source: 'robots' })
    for (const path of GUESSED_PATHS) {
      const url = new URL(path, ctx.target.origin).href
      if (!candidates.some((candidate) => candidate.url === url)) candidates.push({ url, source: 'guess' })
    }

    const tried: string[] = []
    const attempts: NonNullable<SitemapArtifact['attempts']> = []
    // 2xx answers that could not be read, kept in case nothing better turns up.
    let compressed: { url: string; source: 'robots' | 'guess'; response: HttpSnapshot } | null = null
    let unreadable: { url: string; source: 'robots' | 'guess'; response: HttpSnapshot } | null = null
    for (const candidate of candidates) {
      tried.push(candidate.url)
      const { response, error } = await settle(
        fetchSnapshot(ctx.http, candidate.url, { headers: { accept: ACCEPT.xml }, maxBytes: READ_CAP }),
      )
      if (!response) {
        attempts.push({ url: candidate.url, status: null, error })
        continue
      }
      if (!isOk(response)) {
        attempts.push({ url: candidate.url, status: response.status })
        continue
      }
      if (isGzip(response)) {
        attempts.push({ url: candidate.url, status: response.status, note: 'gzip-compressed' })
        compressed ??= { ...candidate, response }
        continue
      }
      if (looksLikeHtml(response.body)) {
        attempts.push({ url: candidate.url, status: response.status, note: 'an HTML page' })
        continue
      }
      const parsed = parseSitemap(response)
      if (!parsed) {
        attempts.push({ url: candidate.url, status: response.status, note: 'neither XML nor a list of URLs' })
        unreadable ??= { ...candidate, response }
        continue
      }
      attempts.push({ url: candidate.url, status: response.status })
      const first = parsed.locs[0]
      const firstLoc = first
        ? await probe(
            ctx,
            new URL(first, response.url).href,
            // A child sitemap is fetched like a sitemap; a page like the homepage (so the memo can share it).
            parsed.root === 'sitemapindex' ? { accept: ACCEPT.xml } : { ...BROWSER_HEADERS },
          )
        : null
      return {
        source: candidate.source,
        url: candidate.url,
        response,
        tried,
        parsed,
        firstLoc,
        robotsSitemaps,
        attempts,
      }
    }
    if (compressed)
      return { ...compressed, tried, parsed: null, firstLoc: null, robotsSitemaps, attempts, compressed: true }
    if (unreadable) {
      return { ...unreadable, tried, parsed: unreadableSitemap(false), firstLoc: null, robotsSitemaps, attempts }
    }
    return { source: null, url: null, response: null, tried, parsed: null, firstLoc: null, robotsSitemaps, attempts }
  },
})
