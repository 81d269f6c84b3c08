import { createHash } from 'node:crypto'
import { detectChallenge } from '../core/engine/lib/challenge.ts'
import { parseLinkHeader } from '../core/engine/lib/links.ts'
import type { HttpSnapshot } from '../core/engine/snapshot.ts'
import { parseBoundedJsonOrYaml, tryParseBoundedJson } from '../core/parse/bounded.ts'
import { loadBoundedHtml } from '../core/parse/html.ts'
import type { FetchedPage, PageLink, PriceFact } from './types.ts'
import { decodeSafely } from './judging.ts'
import { offersIn, pricesIn, statedPeriod } from './prices.ts'

/** Caps on what one page keeps in memory and in the stored evidence. */
const MAX_TEXT_CHARS = 20_000
const MAX_LINKS = 300
const MAX_HEADINGS = 60
const MAX_FORMS = 20
/** Under this much visible text, an HTML page with scripts is an app shell whose content needs JavaScript. */
const JS_ONLY_TEXT_CHARS = 200

/** Response headers the judges and insights read. */
const KEPT_HEADERS = [
  'link',
  'www-authenticate',
  'payment-required',
  'content-signal',
  'x-robots-tag',
  'retry-after',
  'location',
]

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()

/** What one response tells an agent: bounded text, links, forms, headings, the JSON or YAML document it holds. */
export function readPage(
  snapshot: HttpSnapshot,
  stepId: string,
  fetchMethod: FetchedPage['fetchMethod'],
  body: Uint8Array | string,
): FetchedPage {
  const headers: Record<string, string> = {}
  for (const name of KEPT_HEADERS) if (snapshot.headers[name] !== undefined) headers[name] = snapshot.headers[name]!
  const links: PageLink[] = parseLinkHeader(snapshot.headers.link, snapshot.url).map((link) => ({
    url: link.href,
    text: '',
    rel: link.rel.join(' '),
  }))
  const page: FetchedPage = {
    stepId,
    url: snapshot.requestedUrl,
    finalUrl: snapshot.url,
    status: snapshot.status,
    contentType: snapshot.contentType,
    fetchMethod,
    challenged: detectChallenge(snapshot, null).kind !== null,
    jsOnly: false,
    title: '',
    text: '',
    headings: [],
    links,
    emails: [],
    description: '',
    lead: '',
    prices: [],
    forms: [],
    headers,
    json: null,
    bodyDigest: createHash('sha256').update(body).digest('hex'),
  }
  if (isHtml(snapshot)) readHtml(page, snapshot)
  else if (/json|yaml/.test(snapshot.contentType) || /\.(json|ya?ml)$/i.test(new URL(snapshot.url).pathname)) {
    page.json = parsedDocument(snapshot.body)
    page.text = snapshot.body.slice(0, MAX_TEXT_CHARS)
  } else if (/xml/.test(snapshot.contentType) || /\.xml$/i.test(new URL(snapshot.url).pathname)) {
    page.text = snapshot.body.slice(0, MAX_TEXT_CHARS)
    readSitemap(page, snapshot)
  } else {
    page.text = snapshot.body.slice(0, MAX_TEXT_CHARS)
    // llms.txt is Markdown served as text/plain more often than not.
    if (/markdown/.test(snapshot.contentType) || /(\.md|llms(-full)?\.txt)$/i.test(new URL(snapshot.url).pathname))
      readMarkdown(page, snapshot)
    page.prices = distinctPrices(pricesIn(page.text, 'text'))
  }
  page.links = dedupe(page.links).slice(0, MAX_LINKS)
  return page
}

function isHtml(snapshot: HttpSnapshot): boolean {
  return (
    snapshot.contentType === 'text/html' ||
    snapshot.contentType === 'application/xhtml+xml' ||
    (!snapshot.contentType && /^\s*<(!doctype html|html)/i.test(snapshot.body))
  )
}

function readHtml(page: FetchedPage, snapshot: HttpSnapshot): void {
  const $ = loadBoundedHtml(snapshot.body)
  page.title = collapse($('title').first().text())
  // Programs, not data: a page whose only scripts are JSON-LD is no app shell however short its text.
  const scripts = $('script:not([type]), script[type="module"], script[type*="javascript" i]').length
  $('a[href], link[href], area[href]').each((_, element) => {
    const href = $(element).attr('href')!
    const absolute = resolve(href, snapshot.url)
    if (!absolute) return
    const rel = ($(element).attr('rel') ?? '').toLowerCase()
    page.links.push({
      url: absolute,
      text: collapse($(element).text() || $(element).attr('title') || $(element).attr('aria-label') || ''),
      rel,
    })
  })
  $('h1, h2, h3').each((_, element) => {
    if (page.headings.length < MAX_HEADINGS) page.headings.push(collapse($(element).text()))
  })
  $('form').each((_, element) => {
    if (page.forms.length >= MAX_FORMS) return
    const form = $(element)
    const fields = form
      .find('input[name], select[name], textarea[name]')
      .map((__, field) =>
        `${$(field).attr('name')}${$(field).attr('type') ? `:${$(field).attr('type')}` : ''}`.toLowerCase(),
      )
      .get()
    page.forms.push({
      action: resolve(form.attr('action') ?? '', snapshot.url) ?? snapshot.url,
      method: (form.attr('method') ?? 'get').toLowerCase(),
      fields,
    })
  })
  $('a[href^="mailto:" i]').each((_, element) =>
    addEmail(page, $(element).attr('href')!.slice('mailto:'.length).split('?')[0]!),
  )
  const prices: PriceFact[] = []
  let jsonLdDescription = ''
  $('script[type="application/ld+json"]').each((_, element) => {
    const document = tryParseBoundedJson($(element).text())
    collectEmails(page, document)
    offersIn(document, prices)
    jsonLdDescription ||= descriptionIn(document)
  })
  const meta =
    $('meta[name="description" i]').attr('content') ||
    $('meta[property="og:description" i]').attr('content') ||
    jsonLdDescription
  page.description = collapse(meta ?? '').slice(0, MAX_DESCRIPTION_CHARS)
  $('script, style, noscript, template').remove()
  const paragraphs = $('main p, article p').length > 0 ? $('main p, article p') : $('p')
  page.lead =
    paragraphs
      .map((_, element) => collapse($(element).text()))
      .get()
      .find((text) => text.length >= MIN_LEAD_CHARS)
      ?.slice(0, MAX_DESCRIPTION_CHARS) ?? ''
  // Table rows are read before the text: a row's first cell names what its price is for, the header the period.
  $('table').each((_, table) => {
    const period = statedPeriod(`${$(table).find('caption').text()} ${$(table).find('th').text()}`)
    $(table)
      .find('tr')
      .each((__, row) => {
        const cells = $(row)
          .find('td, th')
          .map((___, cell) => collapse($(cell).text()))
          .get()
        const label = cells.find((cell) => pricesIn(cell, 'table').length === 0) ?? ''
        prices.push(...pricesIn(cells.join(' | '), 'table', { label, period }))
      })
  })
  // Block elements end a line: `<h1>Pricing</h1><p>Pro: $9</p>` reads as two lines, not "PricingPro: $9".
  $(BLOCKS).after('\n')
  const lines = ($('body').text() || $.root().text()).slice(0, MAX_TEXT_CHARS * 2)
  page.text = collapse(lines).slice(0, MAX_TEXT_CHARS)
  prices.push(...pricesIn(lines.replace(/[^\S\n]+/g, ' ').replace(/\s*\n\s*/g, '\n'), 'text'))
  page.prices = distinctPrices(prices)
  page.jsOnly = !page.challenged && scripts > 0 && page.text.length < JS_ONLY_TEXT_CHARS
}

function readMarkdown(page: FetchedPage, snapshot: HttpSnapshot): void {
  for (const line of snapshot.body.split('\n')) {
    const heading = /^#{1,3}\s+(.+)$/.exec(line)
    if (heading && page.headings.length < MAX_HEADINGS) page.headings.push(heading[1]!.trim())
  }
  page.title = page.headings[0] ?? ''
  const prose = snapshot.body
    .split(/\n\s*\n/)
    .map((block) => collapse(block.replace(/^>\s*/gm, '')))
    .filter((block) => !/^([#\-*|`]|\d+\.)/.test(block))
  page.lead = prose.find((block) => block.length >= MIN_LEAD_CHARS)?.slice(0, MAX_DESCRIPTION_CHARS) ?? ''
  for (const match of snapshot.body.matchAll(/\[([^\]]{0,200})\]\(([^)\s]{1,2000})\)/g)) {
    const absolute = resolve(match[2]!, snapshot.url)
    if (absolute) page.links.push({ url: absolute, text: collapse(match[1]!), rel: '' })
  }
}

const BLOCKS =
  'address, article, aside, blockquote, br, dd, div, dl, dt, footer, form, h1, h2, h3, h4, h5, h6, header, hr, li, main, nav, ol, p, pre, section, table, td, th, tr, ul'
const MAX_EMAILS = 20
const MAX_DESCRIPTION_CHARS = 1_000
/** A paragraph shorter than this is a caption or a label, not prose that says what something is. */
const MIN_LEAD_CHARS = 60
const MAX_PRICES = 20

/**
 * One price per amount and currency, in the order read (JSON-LD, tables, text): the first reading names it, a
 * later one adds the period the first did not state (an Offer without its billing period, a table header with it).
 */
function distinctPrices(prices: readonly PriceFact[]): PriceFact[] {
  const seen = new Map<string, PriceFact>()
  for (const fact of prices) {
    const key = `${Number(fact.amount)} ${fact.currency}`
    const known = seen.get(key)
    if (!known) seen.set(key, { ...fact })
    else known.period ??= fact.period
  }
  return [...seen.values()].slice(0, MAX_PRICES)
}

/** The first `description` string of a JSON-LD document (an Organization's, a WebSite's, a Product's). */
function descriptionIn(node: unknown): string {
  if (Array.isArray(node)) return node.map(descriptionIn).find(Boolean) ?? ''
  if (node === null || typeof node !== 'object') return ''
  const record = node as Record<string, unknown>
  if (typeof record.description === 'string') return record.description
  return Object.values(record).map(descriptionIn).find(Boolean) ?? ''
}
const EMAIL = /^[^\s@<>]{1,64}@[^\s@<>]{1,255}$/

function addEmail(page: FetchedPage, raw: string): void {
  const email = decodeSafely(raw).trim().toLowerCase()
  if (EMAIL.test(email) && !page.emails.includes(email) && page.emails.length < MAX_EMAILS) page.emails.push(email)
}

/** Every `email` string in a JSON-LD document, however deep (bounded by the JSON parser's depth limit). */
function collectEmails(page: FetchedPage, node: unknown): void {
  if (Array.isArray(node)) for (const item of node) collectEmails(page, item)
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'email' && typeof value === 'string') addEmail(page, value.replace(/^mailto:/i, ''))
      else collectEmails(page, value)
    }
  }
}

/** A JSON or YAML document (OpenAPI, server cards, metadata); null when the body is neither or over a bound. */
function parsedDocument(body: string): unknown {
  try {
    return parseBoundedJsonOrYaml(body) ?? null
  } catch {
    return null
  }
}

/** A sitemap's (or sitemap index's) `<loc>` URLs, as links. */
function readSitemap(page: FetchedPage, snapshot: HttpSnapshot): void {
  for (const match of snapshot.body.matchAll(/<loc>\s*([^<\s]{1,2000})\s*<\/loc>/gi)) {
    if (page.links.length >= MAX_LINKS) return
    const absolute = resolve(match[1]!.replaceAll('&amp;', '&'), snapshot.url)
    if (absolute) page.links.push({ url: absolute, text: '', rel: 'sitemap-entry' })
  }
}

function resolve(href: string, base: string): string | null {
  try {
    const url = new URL(href, base)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    url.hash = ''
    return url.href
  } catch {
    return null
  }
}

function dedupe(links: PageLink[]): PageLink[] {
  const seen = new Set<string>()
  return links.filter((link) => {
    const key = `${link.url} ${link.rel} ${link.text}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
