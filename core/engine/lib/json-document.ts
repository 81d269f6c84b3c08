/** Reading a response as a JSON object, and saying why it is not one. */
import { type HttpSnapshot, isOk, isRecord, looksLikeHtml, parseJson } from '../snapshot.ts'
import { pathOf, statusOf } from './describe.ts'

export type JsonDocument =
  | { state: 'ok'; value: Record<string, unknown> }
  | { state: 'missing' | 'html' | 'not-json' | 'not-object'; value?: undefined }

/** Reads a 2xx response as a JSON object, saying why not when it is not one. */
export function readJsonObject(snapshot: HttpSnapshot): JsonDocument {
  if (!isOk(snapshot)) return { state: 'missing' }
  if (looksLikeHtml(snapshot.body)) return { state: 'html' }
  const value = parseJson(snapshot.body)
  if (value === undefined) return { state: 'not-json' }
  return isRecord(value) ? { state: 'ok', value } : { state: 'not-object' }
}

/** Why a response is not a usable JSON document, for details. */
export function describeJsonProblem(snapshot: HttpSnapshot, document: JsonDocument): string {
  const path = pathOf(snapshot.url)
  switch (document.state) {
    case 'missing':
      return `${path} answered ${snapshot.status}`
    case 'html':
      return `${path} answered ${snapshot.status} with an HTML page, not JSON`
    case 'not-json':
      return `${path} answered ${statusOf(snapshot)} but the body is not valid JSON`
    case 'not-object':
      return `${path} answered JSON that is not an object`
    case 'ok':
      return `${path} is a JSON object`
  }
}
