import { AppError } from '../errors.ts'
import { jsonNestingExceeds, MAX_JSON_DEPTH } from '../parse/nesting.ts'
import { findInvalidText, INVALID_TEXT_MESSAGE, isValidText } from '../parse/text.ts'
import { readCapped } from './body-cap.ts'
import { markBody } from './body-marker.ts'
import { invalidInput } from './invalid-input.ts'

/** JSON and the structured `+json` types; parameters such as `charset` are already stripped by Elysia. */
function isJsonMediaType(contentType: string | undefined): boolean {
  const type = contentType?.trim().toLowerCase() ?? ''
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/**
 * The one body parser of every route, whatever the route or the content type says: every body is read under the
 * size cap (a chunked body has no Content-Length to refuse up front), only JSON is accepted (a form or text body
 * would otherwise reach Elysia's own parsers, uncapped and unchecked), its nesting is bounded before JSON.parse
 * allocates, and its strings are checked for text PostgreSQL and our logs cannot take. An empty body is null,
 * which a body schema then refuses.
 */
export async function parseBody(request: Request, contentType: string | undefined): Promise<unknown> {
  if (!request.body) return null
  if (acceptsHtmlForm(request, contentType)) return parseForm(await readCapped(request))
  if (!isJsonMediaType(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
      message: `Request bodies must be application/json${contentType ? `, not ${contentType.slice(0, 100)}` : ''}`,
    })
  }
  const text = await readCapped(request)
  if (text.trim() === '') return null
  if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
    throw invalidInput('body', '', `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new AppError('INVALID_JSON', { message: 'The request body is not valid JSON' })
  }
  // Only a \u escape can put a control character or a lone surrogate into a parsed string: raw ones are invalid
  // JSON, and UTF-8 decoding never yields a lone surrogate.
  if (text.includes('\\u')) {
    const path = findInvalidText(value)
    if (path !== null) throw invalidInput('body', path, INVALID_TEXT_MESSAGE)
  }
  return markBody(value)
}

/**
 * The web pages' forms (plugins/web) work without JavaScript, so browsers post them url-encoded; the JSON API
 * under /api/ keeps refusing that type. The fields are checked like JSON text, and a repeated name keeps its last
 * value.
 */
function acceptsHtmlForm(request: Request, contentType: string | undefined): boolean {
  if (contentType?.split(';')[0]?.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return false
  const { pathname } = new URL(request.url)
  return pathname !== '/api' && !pathname.startsWith('/api/')
}

function parseForm(text: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(text)) {
    if (!isValidText(name) || !isValidText(value))
      throw invalidInput('body', isValidText(name) ? name : '', INVALID_TEXT_MESSAGE)
    // defineProperty: a field named __proto__ is data, never the object's prototype.
    Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true })
  }
  return markBody(fields) as Record<string, string>
}
