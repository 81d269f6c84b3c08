import { createHash } from 'node:crypto'

/** A document serialised once, with the entity tag of exactly those bytes. */
export interface Serialized {
  body: string
  etag: string
}

/** A strong entity tag for exact bytes: 160 bits of their SHA-256. */
export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
}

/** For documents that change only with the deployment or the check set: serialised and tagged once. */
export function serialize(document: unknown): Serialized {
  const body = JSON.stringify(document)
  return { body, etag: strongEtag(body) }
}

/** RFC 9110 §13.1.2: If-None-Match matches with the weak comparison, against a list or `*`. */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false
  const strip = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag))
}

/**
 * A GET of exact bytes: 304 with the same headers when If-None-Match matches (RFC 9110 §15.4.5), the body
 * otherwise. `headers` carry the validators and caching; the content type goes on the 200 only.
 */
export function documentResponse(
  request: Request,
  document: Serialized,
  contentType: string,
  headers: Record<string, string>,
): Response {
  const all = { ...headers, etag: document.etag }
  if (matchesEtag(request.headers.get('if-none-match'), document.etag))
    return new Response(null, { status: 304, headers: all })
  return new Response(document.body, { headers: { ...all, 'content-type': contentType } })
}
