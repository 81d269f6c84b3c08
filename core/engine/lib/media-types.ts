/** Media types of the agent-discovery documents, and the Accept headers that ask for them. */

export const MEDIA = {
  linkset: 'application/linkset+json',
  aiCatalog: 'application/ai-catalog+json',
  serverCard: 'application/mcp-server-card+json',
} as const

/**
 * Accept headers. The scan session memoises a GET by its headers, so collectors fetching the same document use
 * the same ones (for typed JSON documents: `acceptFor(type)`).
 */
export const ACCEPT = {
  json: 'application/json, */*;q=0.1',
  xml: 'application/xml, text/xml;q=0.9, */*;q=0.1',
  markdown: 'text/markdown, text/plain;q=0.9, */*;q=0.1',
  graphql: 'application/graphql-response+json, application/json',
  mcp: 'application/json, text/event-stream',
} as const

/** Accept header for a JSON document of a given media type, falling back to plain JSON. */
export function acceptFor(type: string | undefined): string {
  if (!type || type === 'application/json') return ACCEPT.json
  return `${type}, application/json;q=0.9, */*;q=0.1`
}
