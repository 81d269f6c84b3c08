/** RFC 8288 Link header parsing, shared by every collector that reads discovery relations, and the relations that matter to agents. */

export interface WebLink {
  /** Absolute URL, resolved against the response URL. */
  href: string
  /** Relation types, lower-cased (a link may carry several: rel="alternate service-doc"). */
  rel: string[]
  type?: string
  /** Other parameters, lower-cased names. */
  params: Record<string, string>
}

/** Splits on commas outside `<…>` and quoted strings; tolerates the malformed headers found in the wild. */
export function parseLinkHeader(header: string | null | undefined, baseUrl: string): WebLink[] {
  if (!header) return []
  const links: WebLink[] = []
  for (const part of splitOutside(header, ',')) {
    const match = /^\s*<([^>]*)>\s*(.*)$/s.exec(part)
    if (!match) continue
    let href: string
    try {
      href = new URL(match[1]!.trim(), baseUrl).href
    } catch {
      continue
    }
    const params: Record<string, string> = {}
    for (const param of splitOutside(match[2]!, ';')) {
      const [name, ...rest] = param.split('=')
      if (!name?.trim()) continue
      params[name.trim().toLowerCase()] = rest
        .join('=')
        .trim()
        .replace(/^"(.*)"$/s, '$1')
    }
    links.push({
      href,
      rel: (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean),
      type: params.type?.toLowerCase(),
      params,
    })
  }
  return links
}

function splitOutside(value: string, separator: ',' | ';'): string[] {
  const parts: string[] = []
  let current = ''
  let inQuotes = false
  let inBrackets = false
  for (const char of value) {
    if (char === '"' && !inBrackets) inQuotes = !inQuotes
    else if (char === '<' && !inQuotes) inBrackets = true
    else if (char === '>' && !inQuotes) inBrackets = false
    if (char === separator && !inQuotes && !inBrackets) {
      parts.push(current)
      current = ''
    } else {
      current += char
    }
  }
  if (current.trim()) parts.push(current)
  return parts
}

/** Same registrable site: the host itself or a subdomain of it (docs.acme.test belongs to acme.test). */
export function isSameSite(url: string, domain: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase()
    return host === domain || host.endsWith(`.${domain}`)
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------------------
// Link relations (RFC 8288)

/** Relations that tell an agent where machine-readable resources are (docs/checks.md §14.1). */
const DISCOVERY_RELATIONS = [
  'api-catalog',
  'service-desc',
  'service-doc',
  'service-meta',
  'status',
  'describedby',
  'ai-catalog',
  'sitemap',
] as const

/** Resource hints: a Link header carrying only these says nothing to an agent. */
export const RESOURCE_HINT_RELATIONS = new Set([
  'preload',
  'preconnect',
  'dns-prefetch',
  'prefetch',
  'modulepreload',
  'prerender',
])

/** The discovery relations a link carries (`alternate` counts only for markdown). */
export function discoveryRelations(link: WebLink): string[] {
  const relations: string[] = link.rel.filter((rel) => (DISCOVERY_RELATIONS as readonly string[]).includes(rel))
  if (link.rel.includes('alternate') && link.type?.startsWith('text/markdown'))
    relations.push('alternate (text/markdown)')
  return relations
}
