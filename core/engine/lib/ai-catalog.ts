/**
 * The AI Catalog / ARD document: its entries and the publisher of `urn:air:` identifiers. A Catalog Entry needs
 * `identifier`, `type` and exactly one of `url` or `data` (ai-catalog specification; MCP server-card discovery.md).
 */
import { isRecord } from '../snapshot.ts'

export interface CatalogEntry {
  index: number
  identifier?: string
  /** Optional: a client reads the human-readable fields from the artefact itself. */
  displayName?: string
  /** The artefact's media type, from `type`, or from `mediaType` as entries spelled it before ADR 0014 renamed it. */
  type?: string
  /** The entry names its media type only under the pre-ADR 0014 key `mediaType`. */
  mediaTypeKey?: true
  /** Absolute, resolved against the catalog URL. */
  url?: string
  data?: unknown
  trustManifest?: unknown
  problems: string[]
}

const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined

/** The catalog's entries with their structural problems; null when the document has no `entries` array. */
export function catalogEntries(document: unknown, baseUrl: string): CatalogEntry[] | null {
  if (!isRecord(document) || !Array.isArray(document.entries)) return null
  return document.entries.map((raw, index): CatalogEntry => {
    if (!isRecord(raw)) return { index, problems: ['is not an object'] }
    const problems: string[] = []
    const identifier = optionalString(raw.identifier)
    const displayName = optionalString(raw.displayName)
    const mediaTypeKey = optionalString(raw.type) === undefined && optionalString(raw.mediaType) !== undefined
    const type = optionalString(raw.type) ?? optionalString(raw.mediaType)
    if (!identifier) problems.push('no identifier')
    if (!type) problems.push('no type')
    const hasUrl = raw.url !== undefined
    const hasData = raw.data !== undefined
    if (hasUrl === hasData)
      problems.push(hasUrl ? 'both url and data (exactly one is allowed)' : 'neither url nor data')
    let url: string | undefined
    if (hasUrl) {
      try {
        url = new URL(String(raw.url), baseUrl).href
      } catch {
        problems.push(`url "${String(raw.url)}" is not a URL`)
      }
    }
    return {
      index,
      identifier,
      displayName,
      type,
      ...(mediaTypeKey ? { mediaTypeKey } : {}),
      url,
      data: raw.data,
      trustManifest: raw.trustManifest,
      problems,
    }
  })
}

/** The publisher FQDN of an `urn:air:<fqdn>:…` identifier; null for any other form. */
export function urnPublisher(identifier: string): string | null {
  const match = /^urn:air:([a-z0-9.-]+):.+$/i.exec(identifier)
  return match ? match[1]!.toLowerCase() : null
}

/** The host itself or one of its parent domains (a publisher may anchor identifiers at the parent). */
export function isHostOrParent(host: string, publisher: string): boolean {
  const lower = host.toLowerCase()
  return lower === publisher || lower.endsWith(`.${publisher}`)
}
