import { load } from 'cheerio'
import type { HtmlPage, HttpSnapshot } from '../../core/engine/snapshot.ts'
import { mediaType } from '../../core/engine/snapshot.ts'

/** Builders for literal artifacts in check table tests: only what a test states differs from a plain 200. */
export function snapshot(overrides: Partial<HttpSnapshot> & { url?: string } = {}): HttpSnapshot {
  const url = overrides.url ?? 'https://acme.test/'
  const headers = Object.fromEntries(Object.entries(overrides.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]))
  return {
    requestedUrl: overrides.requestedUrl ?? url,
    url,
    status: overrides.status ?? 200,
    headers,
    contentType: overrides.contentType ?? mediaType(headers['content-type']),
    body: overrides.body ?? '',
    truncated: overrides.truncated ?? false,
    redirects: overrides.redirects ?? [],
    durationMs: overrides.durationMs ?? 5,
  }
}

export function notFound(url = 'https://acme.test/missing'): HttpSnapshot {
  return snapshot({ url, status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' })
}

export function htmlPage(html: string, overrides: Partial<HttpSnapshot> = {}): HtmlPage {
  const page = snapshot({ headers: { 'content-type': 'text/html; charset=utf-8' }, ...overrides, body: html })
  return { ...page, $: load(html) }
}

export function jsonSnapshot(value: unknown, overrides: Partial<HttpSnapshot> = {}): HttpSnapshot {
  return snapshot({
    headers: { 'content-type': 'application/json' },
    ...overrides,
    body: typeof value === 'string' ? value : JSON.stringify(value),
  })
}

export const target = {
  kind: 'domain' as const,
  domain: 'acme.test',
  origin: 'https://acme.test',
  url: 'https://acme.test/',
}
export const context = { target }
/** A page-level check run on a sampled page other than the homepage (a multi-page scan). */
export const sampledPageContext = { target, page: 'https://acme.test/docs/intro' }
