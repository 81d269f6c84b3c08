import { INVALID_TEXT_MESSAGE, isValidText } from '../parse/text.ts'
import { invalidInput } from './invalid-input.ts'

/**
 * onTransform: Elysia splits any query value containing a comma into an array and JSON-parses values that look
 * like arrays or objects; free text (a discover intent, an ARD filter) must reach validation as the client sent
 * it, so the query is read again from the URL. Query and path text is checked here, once for every route, like
 * body text in the body parser.
 */
export function reparseQuery({
  request,
  query,
  params,
}: {
  request: Request
  query: unknown
  params?: Record<string, unknown>
}): void {
  for (const [name, value] of Object.entries(params ?? {})) {
    // Elysia hands over null for a segment whose percent-encoding does not decode (%E0%A4%A, %ED%A0%80).
    if (typeof value !== 'string') throw invalidInput('params', name, 'is not valid percent-encoded UTF-8')
    if (!isValidText(value)) throw invalidInput('params', name, INVALID_TEXT_MESSAGE)
  }
  const start = request.url.indexOf('?')
  if (start === -1) return
  const search = new URLSearchParams(request.url.slice(start + 1))
  for (const key of new Set(search.keys())) {
    if (!isValidText(key)) throw invalidInput('query', '', `parameter names ${INVALID_TEXT_MESSAGE}`)
    const values = search.getAll(key)
    if (!values.every(isValidText)) throw invalidInput('query', key, INVALID_TEXT_MESSAGE)
    ;(query as Record<string, string | string[]>)[key] = values.length === 1 ? values[0]! : values
  }
}
