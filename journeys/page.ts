import { createHash } from 'node:crypto'
import { detectChallenge } from '../core/engine/lib/challenge.ts'
import { parseLinkHeader } from '../core/engine/lib/links.ts'
import type { HttpSnapshot } from '../core/engine/snapshot.ts'
import { parseBoundedJsonOrYaml, tryParseBoundedJson } from '../core/parse/bounded.ts'
import { loadBoundedHtml } from '../core/parse/html.ts'
import type { FetchedPage, PageLink } from './contract.ts'
import { decodeSafely } from './judging.ts'

/** Caps on what one page keeps in memory and in the stored evidence. */
const MAX_TEXT_CHARS = 20_000
const MAX_LINKS = 300
const MAX_HEADINGS = 60
const MAX_FORMS = 20
/** Under this much visible text, an HTML page with scripts is an app shell whose content needs JavaScript. */
const JS_ONLY_TEXT_CHARS = 200

/** Response headers the judges and insights read. */
const KEPT_HEADERS = ['link', 'www-authenticate', 'payment-required', 'content-signal', 'x-robots-tag', 'retry-after', 'location']

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()

/** What one response tells an agent: bounded text, links, forms, headings, the JSON or YAML document it holds. */
export function readPage(snapshot: HttpSnapshot, stepId: string, fetchMethod: FetchedPage['fetchMethod'], body: Uint8Array | string): FetchedPage {
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
    if (/markdown/.test(snapshot.contentType) || /(\.md|llms(-full)?\.txt)$/i.test(new URL(snapshot.url).pathname)) readMarkdown(page, snapshot)
  }
  page.links = dedupe(page.links).slice(0, MAX_LINKS)
  return page
}

function isHtml(snapshot: HttpSnapshot): boolean {
  return snapshot.contentType === 'text/html' || snapshot.contentType === 'application/xhtml+xml' || (!snapshot.contentType && /^\s*<(!doctype html|html)/i.test(snapshot.body))
}

function readHtml(page: FetchedPage, snapshot: HttpSnapshot): void {
  const $ = loadBoundedHtml(snapshot.body)
  page.title = collapse($('title').first().text())
  const scripts = $('script').length
  $('a[href], link[href], area[href]').each((_, element) => {
    const href = $(element).attr('href')!
    const absolute = resolve(href, snapshot.url)
    if (!absolute) return
    const rel = ($(element).attr('rel') ?? '').toLowerCase()
    page.links.push({ url: absolute, text: collapse($(element).text() || $(element).attr('title') || $(element).attr('aria-label') || ''), rel })
  })
  $('h1, h2, h3').each((_, element) => {
    if (page.headings.length < MAX_HEADINGS) page.headings.push(collapse($(element).text()))
  })
  $('form').each((_, element) => {
    if (page.forms.length >= MAX_FORMS) return
    const form = $(element)
    const fields = form
      .find('input[name], select[name], textarea[name]')
      .map((__, field) => `${$(field).attr('name')}${$(field).attr('type') ? `:${$(field).attr('type')}` : ''}`.toLowerCase())
      .get()
    page.forms.push({ action: resolve(form.attr('action') ?? '', snapshot.url) ?? snapshot.url, method: (form.attr('method') ?? 'get').toLowerCase(), fields })
  })
  $('a[href^="mailto:" i]').each((_, element) => addEmail(page, $(element).attr('href')!.slice('mailto:'.length).split('?')[0]!))
  $('script[type="application/ld+json"]').each((_, element) => collectEmails(page, tryParseBoundedJson($(element).text())))
  $('script, style, noscript, template').remove()
  page.text = collapse($('body').text() || $.root().text()).slice(0, MAX_TEXT_CHARS)
  page.jsOnly = !page.challenged && scripts > 0 && page.text.length < JS_ONLY_TEXT_CHARS
}

function readMarkdown(page: FetchedPage, snapshot: HttpSnapshot): void {
  for (const line of snapshot.body.split('\n')) {
    const heading = /^#{1,3}\s+(.+)$/.exec(line)
    if (heading && page.headings.length < MAX_HEADINGS) page.headings.push(heading[1]!.trim())
  }
  page.title = page.headings[0] ?? ''
  for (const match of snapshot.body.matchAll(/\[([^\]]{0,200})\]\(([^)\s]{1,2000})\)/g)) {
    const absolute = resolve(match[2]!, snapshot.url)
    if (absolute) page.links.push({ url: absolute, text: collapse(match[1]!), rel: '' })
  }
}

const MAX_EMAILS = 20
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
