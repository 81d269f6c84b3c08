/** Short phrases for check details: a URL's path, what a response was, a list cut to a few items, a clipped value. */
import type { HttpSnapshot } from '../snapshot.ts'

/** The path (and query) of a URL, for details; the URL itself when it does not parse. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return url
  }
}

/** "404", "200 (text/html)": what a response was, in a few characters. */
export function statusOf(snapshot: Pick<HttpSnapshot, 'status' | 'contentType'>): string {
  return snapshot.contentType ? `${snapshot.status} (${snapshot.contentType})` : String(snapshot.status)
}

/** "a, b and 3 more": a short list for details. */
export function listSome(items: readonly string[], max = 3): string {
  if (items.length <= max) return items.join(', ')
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`
}

/** A value cut to `max` characters, with an ellipsis when it was longer. */
export function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`
}
