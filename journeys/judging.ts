import { isRecord } from '../core/engine/snapshot.ts'
import type { Answer, FetchedPage, JourneyEvidence, Judgement } from './types.ts'

/**
 * Helpers the intents' judges share. Judges are pure: they read the evidence, never fetch.
 */

/** Pages that answered 2xx with content (not a challenge). */
export function completedPages(evidence: JourneyEvidence): FetchedPage[] {
  return evidence.pages.filter((page) => page.status >= 200 && page.status < 300 && !page.challenged)
}

/** The step ids of pages, in order, without repeats. */
export function stepsOf(pages: readonly FetchedPage[]): string[] {
  return [...new Set(pages.map((page) => page.stepId))]
}

/** A JSON document's top-level object, or null. */
export function jsonObject(page: FetchedPage): Record<string, unknown> | null {
  return isRecord(page.json) ? page.json : null
}

/** A parsed OpenAPI 3.x or Swagger 2.0 document (JSON or YAML) with its info and paths (or webhooks) objects. */
export function isOpenApi(page: FetchedPage): boolean {
  const doc = jsonObject(page)
  if (!doc) return false
  const versioned = (typeof doc.openapi === 'string' && /^3\.\d/.test(doc.openapi)) || doc.swagger === '2.0'
  return versioned && isRecord(doc.info) && (isRecord(doc.paths) || isRecord(doc.webhooks))
}

/** The path of the URL the page was finally read from. */
export function pathOf(page: FetchedPage): string {
  try {
    return new URL(page.finalUrl).pathname
  } catch {
    return ''
  }
}

/** Percent-escapes decoded; a malformed one (a site's URL is whatever the site wrote) leaves the text as it is. */
export function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * What a page says it is about: its final URL path (separators as spaces), title and headings. Judges match a
 * topic here rather than in the body, so that a page merely mentioning a word does not count as the page about it.
 */
export function topicOf(page: FetchedPage): string {
  return `${pathOf(page).replace(/[-_/.]+/g, ' ')} ${page.title} ${page.headings.join(' ')}`
}

/**
 * A page with text to read: not an app shell fetched without a browser. A rendered page counts whatever its
 * length, since page.ts flags short pages with scripts as JS-only even after Chromium ran them.
 */
export function readable(page: FetchedPage): boolean {
  return (page.fetchMethod === 'browser' || !page.jsOnly) && page.text.length > 0
}

/** Markdown as served: a text/markdown answer, or a `.md` document that is not HTML in disguise. */
export function isMarkdown(page: FetchedPage): boolean {
  if (/markdown/.test(page.contentType)) return true
  return /\.md$/i.test(pathOf(page)) && !/html/.test(page.contentType)
}

/** A non-empty string field. */
export function hasString(object: Record<string, unknown>, key: string): boolean {
  return typeof object[key] === 'string' && (object[key] as string).length > 0
}

/** An absolute http(s) URL in a string field. */
export function hasUrl(object: Record<string, unknown>, key: string): boolean {
  return hasString(object, key) && /^https?:\/\/\S+$/.test(object[key] as string)
}

/**
 * The judgement for the pages that satisfy an intent: success citing all of them (the first named in the reason),
 * with the answer they give, or failure with the reason given.
 */
export function judgement(
  found: readonly FetchedPage[],
  success: (first: FetchedPage) => string,
  failure: string,
  answer: (found: readonly FetchedPage[]) => Answer,
): Judgement {
  return found.length > 0
    ? { satisfied: true, reason: success(found[0]!), evidence: stepsOf(found), answer: answer(found) }
    : { satisfied: false, reason: failure, evidence: [], answer: null }
}

/** An answer in the words of `text`, citing the page it came from. */
export function answerFrom(page: FetchedPage, text: string): Answer {
  return { text, source_url: page.finalUrl }
}

/** The site's home page: it leads to answers, it is rarely the page that states one. */
export function isHomePage(page: FetchedPage): boolean {
  return /^\/(index\.html?)?$/i.test(pathOf(page))
}

/** llms.txt (or llms-full.txt): an index for agents, which points at the page that answers. */
export function isLlmsTxt(page: FetchedPage): boolean {
  return /\/llms(-full)?\.txt$/i.test(pathOf(page))
}

/** A GraphQL schema an agent can read: SDL with a Query type, or an introspection result. */
export function isGraphQlDescription(page: FetchedPage): boolean {
  const doc = jsonObject(page)
  if (doc && (isRecord(doc.__schema) || (isRecord(doc.data) && isRecord(doc.data.__schema)))) return true
  return (
    /graphql|\.graphqls?$/i.test(`${page.contentType} ${pathOf(page)}`) &&
    /\b(type|schema)\s+Query\s*\{|\bschema\s*\{\s*query\s*:/.test(page.text)
  )
}
