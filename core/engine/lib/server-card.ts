/** The MCP Server Card (SEP-2127, legacy SEP-1649; experimental-ext-server-card schema.json): its shape and the endpoints it names. */
import { isRecord } from '../snapshot.ts'

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'
const CARD_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/
/**
 * A `$schema` versioned by date (`…/schemas/2025-11-25/server-card.schema.json`): the schema allows only the `/v1/`
 * URL ("Schema URLs are versioned by the vN segment rather than by date"), so such a card is invalid, whatever
 * legacy fields it carries (the extension's examples/ServerCard/invalid/date-versioned-schema.json).
 */
const DATE_VERSIONED_SCHEMA = /\/schemas\/\d{4}-\d{2}-\d{2}\//
const REMOTE_URL = /^(https?:\/\/[^\s]+|\{[^}]+\}[^\s]*)$/

export type ServerCardShape = 'sep-2127' | 'legacy' | 'invalid'

/**
 * SEP-2127 when the card validates against the v1 schema; `legacy` for the SEP-1649 shapes
 * (`serverInfo`/`transport`, or `{name, version, endpoint}`); `invalid` otherwise, with the schema problems.
 */
export function classifyServerCard(card: Record<string, unknown>): { shape: ServerCardShape; problems: string[] } {
  const problems = serverCardProblems(card)
  if (problems.length === 0) return { shape: 'sep-2127', problems }
  const legacy =
    (isRecord(card.serverInfo) && typeof card.serverInfo.name === 'string') ||
    (isRecord(card.transport) && typeof card.transport.endpoint === 'string') ||
    (typeof card.name === 'string' && typeof card.endpoint === 'string')
  // A card that claims the v1 schema, or a date-versioned one, is judged by the schema, whatever legacy fields it also carries.
  if (legacy && card.$schema !== SERVER_CARD_SCHEMA && !isDateVersionedSchema(card.$schema))
    return { shape: 'legacy', problems }
  return { shape: 'invalid', problems }
}

const isDateVersionedSchema = (value: unknown): boolean =>
  typeof value === 'string' && DATE_VERSIONED_SCHEMA.test(value)

function serverCardProblems(card: Record<string, unknown>): string[] {
  const problems: string[] = []
  if (card.$schema !== SERVER_CARD_SCHEMA) {
    const dated = isDateVersionedSchema(card.$schema) ? ' (schema URLs are versioned by /v1/, not by date)' : ''
    problems.push(
      card.$schema === undefined
        ? 'no $schema'
        : `$schema is "${String(card.$schema)}", not ${SERVER_CARD_SCHEMA}${dated}`,
    )
  }
  const name = card.name
  if (typeof name !== 'string') problems.push('no name')
  else if (name.length < 3 || name.length > 200 || !CARD_NAME.test(name)) {
    problems.push(`name "${name}" is not "namespace/name" (3–200 characters)`)
  }
  for (const field of ['version', 'description'] as const) {
    if (typeof card[field] !== 'string' || card[field] === '') problems.push(`no ${field}`)
  }
  if (card.icons !== undefined) {
    if (!Array.isArray(card.icons) || card.icons.some((icon) => !isRecord(icon) || typeof icon.src !== 'string')) {
      problems.push('icons[] entries need a src')
    }
  }
  if (card.repository !== undefined && (!isRecord(card.repository) || typeof card.repository.url !== 'string')) {
    problems.push('repository needs a url')
  }
  if (card.remotes !== undefined) {
    if (!Array.isArray(card.remotes)) problems.push('remotes is not an array')
    else {
      for (const [index, remote] of card.remotes.entries()) {
        if (!isRecord(remote)) {
          problems.push(`remotes[${index}] is not an object`)
          continue
        }
        if (remote.type !== 'streamable-http' && remote.type !== 'sse') {
          problems.push(`remotes[${index}].type is "${String(remote.type)}", not streamable-http or sse`)
        }
        if (typeof remote.url !== 'string' || !REMOTE_URL.test(remote.url)) {
          problems.push(`remotes[${index}].url is not an http(s) URL or a {variable} template`)
        }
      }
    }
  }
  return problems
}

/** MCP endpoint URLs a card names: SEP-2127 remotes, or the legacy transport endpoint / endpoint / url. */
export function serverCardEndpoints(card: unknown, baseUrl: string): string[] {
  if (!isRecord(card)) return []
  const raw: unknown[] = []
  if (Array.isArray(card.remotes)) for (const remote of card.remotes) if (isRecord(remote)) raw.push(remote.url)
  if (isRecord(card.transport)) raw.push(card.transport.endpoint, card.transport.url)
  raw.push(card.endpoint, card.url)
  const urls: string[] = []
  for (const value of raw) {
    // Templates ({tenant}.example.com) cannot be probed without their variables.
    if (typeof value !== 'string' || value.includes('{')) continue
    try {
      const url = new URL(value, baseUrl).href
      if (!urls.includes(url)) urls.push(url)
    } catch {
      // not a URL: nothing to probe
    }
  }
  return urls
}
