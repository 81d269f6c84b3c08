import type { CheerioAPI } from 'cheerio'
import type { FetchResult, RequestOptions } from '../outbound/client.ts'
import { tryParseBoundedJson } from '../parse/bounded.ts'
import { loadBoundedHtml } from '../parse/html.ts'
import { OutboundError } from '../outbound/client.ts'
import type { ScanSession } from '../outbound/session.ts'
import { CollectorError } from './check.ts'

/** A fetched resource as plain data, the form artifacts carry to checks. */
export interface HttpSnapshot {
  requestedUrl: string
  /** URL after redirects. */
  url: string
  status: number
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>
  /** Lower-cased media type without parameters (`text/html`), '' when absent. */
  contentType: string
  body: string
  truncated: boolean
  redirects: { url: string; status: number }[]
  durationMs: number
}

export interface HtmlPage extends HttpSnapshot {
  /** The parsed document (cheerio over htmlparser2): query it, never fetch with it. */
  $: CheerioAPI
}

/** Browser-like request headers, so that a site serves what a person would see. */
export const BROWSER_HEADERS = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'en-US,en;q=0.9',
} as const

export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase()
}

export function toSnapshot(result: FetchResult): HttpSnapshot {
  const headers: Record<string, string> = {}
  result.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value
  })
  return {
    requestedUrl: result.requestedUrl,
    url: result.url,
    status: result.status,
    headers,
    contentType: mediaType(result.headers.get('content-type')),
    body: result.text(),
    truncated: result.truncated,
    redirects: result.redirects,
    durationMs: result.durationMs,
  }
}

/**
 * Fetches one URL through the scan session. Outbound failures (DNS, refused address, timeout) become a
 * CollectorError, so the checks that need this artifact report `error` with the reason.
 */
export async function fetchSnapshot(
  http: ScanSession,
  url: string,
  options: RequestOptions = {},
): Promise<HttpSnapshot> {
  try {
    return toSnapshot(await http.request(url, options))
  } catch (error) {
    if (error instanceof OutboundError) throw new CollectorError(`${url}: ${error.message}`, { cause: error })
    throw error
  }
}

/** The page parsed within the HTML bounds (core/parse/html.ts): a page over them is parsed up to where it passed them. */
export function toHtmlPage(snapshot: HttpSnapshot): HtmlPage {
  return { ...snapshot, $: loadBoundedHtml(snapshot.body) }
}

export async function fetchPage(http: ScanSession, url: string, options: RequestOptions = {}): Promise<HtmlPage> {
  return toHtmlPage(await fetchSnapshot(http, url, { ...options, headers: { ...BROWSER_HEADERS, ...options.headers } }))
}

/** True when a body looks like an HTML document (a soft-404 page served in place of a text resource). */
export function looksLikeHtml(body: string): boolean {
  return /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(body.slice(0, 512))
}

export function isOk(snapshot: Pick<HttpSnapshot, 'status'>): boolean {
  return snapshot.status >= 200 && snapshot.status < 300
}

/**
 * Parses JSON without throwing: `undefined` when the body is not JSON, or is over the size or nesting bound
 * (core/parse/bounded.ts), which a remote document is treated like.
 */
export function parseJson(body: string): unknown {
  return tryParseBoundedJson(body)
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
