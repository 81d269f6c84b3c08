import { asc, gt } from 'drizzle-orm'
import { CONTRACT_VERSION, SERVICE_NAME } from '../../core/version.ts'
import type { Db } from '../../core/db/index.ts'
import type { Logger } from '../../core/log.ts'
import { DEFAULT_ORDER } from './filter-grammar.ts'
import { ARD_MEDIA, type ArdConfig, publisher, publisherHost, registryIdentity, registryUrl } from './identity.ts'
import {
  type AiCatalog,
  FACET_FIELDS,
  FEDERATION_MODES,
  LIST_FILTER_FIELDS,
  LIST_OPERATORS,
  LIST_PAGE_SIZE,
  MAX_PAGE_SIZE,
  ORDER_BY_FIELDS,
  type RegistryDescriptor,
  SEARCH_FILTER_FIELDS,
  SEARCH_PAGE_SIZE,
} from './model.ts'
import { ENTRY_COLUMNS, type EntryRow, toArdRecord } from './records.ts'
import { ardEntries } from './tables.ts'

/** The registry's whole-index documents: the catalog dump, its service descriptor and our own AI catalog. */

const DUMP_BATCH = 500

/**
 * The whole index as one JSON document, streamed: entries are read in keyset pages by domain, so memory stays
 * flat however large the index grows. The first page is read before the response starts, so an unreachable
 * database is still a 500 rather than a truncated 200; a failure later aborts the body (invalid JSON, never a
 * silently short list).
 */
export async function catalogDumpStream(
  db: Db,
  config: ArdConfig,
  log: Pick<Logger, 'error'>,
  options: { batchSize?: number; now?: Date } = {},
): Promise<ReadableStream<Uint8Array>> {
  const batchSize = options.batchSize ?? DUMP_BATCH
  const readAfter = (domain: string | null) =>
    db
      .select(ENTRY_COLUMNS)
      .from(ardEntries)
      .where(domain === null ? undefined : gt(ardEntries.domain, domain))
      .orderBy(asc(ardEntries.domain))
      .limit(batchSize)
  const encoder = new TextEncoder()
  const head = JSON.stringify({
    version: CONTRACT_VERSION,
    generatedAt: (options.now ?? new Date()).toISOString(),
    publisher: publisher(config),
  })
  // An empty batch means the index is exhausted; every pull either enqueues or closes, so the stream never stalls.
  let batch: EntryRow[] = await readAfter(null)
  let first = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${head.slice(0, -1)},"data":[`))
    },
    async pull(controller) {
      const current = batch
      if (current.length === 0) {
        controller.enqueue(encoder.encode(']}'))
        controller.close()
        return
      }
      controller.enqueue(
        encoder.encode(
          `${first ? '' : ','}${current.map((row) => JSON.stringify(toArdRecord(row, config))).join(',')}`,
        ),
      )
      first = false
      try {
        batch = current.length < batchSize ? [] : await readAfter(current.at(-1)!.domain)
      } catch (error) {
        log.error({ err: error }, 'ARD catalog dump failed mid-stream')
        controller.error(error)
      }
    },
  })
}

/** GET /api/ard: what a client needs to use this registry without reading our documentation. */
export function registryDescriptor(config: ArdConfig): RegistryDescriptor {
  const base = registryUrl(config)
  return {
    ...registryIdentity(config),
    description:
      'Every domain this service has scanned (non-ephemeral, measured), searchable by need and filterable by category, tags, type and readiness grade, with a signed readiness scorecard per entry.',
    contractVersion: CONTRACT_VERSION,
    publisher: publisher(config),
    endpoints: {
      search: { method: 'POST', url: `${base}/search` },
      explore: { method: 'POST', url: `${base}/explore` },
      list: { method: 'GET', url: `${base}/agents` },
      catalog: { method: 'GET', url: `${base}/catalog` },
      catalogDump: { method: 'GET', url: `${base}/catalog.json` },
      attestation: { method: 'GET', url: `${base}/attestation/{domain}` },
      jwks: { method: 'GET', url: `${base}/jwks` },
    },
    pagination: {
      model: 'opaque-token',
      tokenField: 'pageToken',
      maxPageSize: MAX_PAGE_SIZE,
      defaultPageSize: { search: SEARCH_PAGE_SIZE, list: LIST_PAGE_SIZE },
    },
    search: {
      filterFields: [...SEARCH_FILTER_FIELDS],
      filterSemantics: 'OR within a field, AND across fields; tags match when the entry has any of the values',
      textSyntax: 'PostgreSQL websearch syntax; a plain list of words matches entries with any of them',
      scoring: 'score = match quality (0-100) x (0.6 + 0.4 x readiness/100); relevance, not a trust judgement',
    },
    list: {
      filterFields: [...LIST_FILTER_FIELDS],
      operators: [...LIST_OPERATORS],
      orderByFields: [...ORDER_BY_FIELDS],
      defaultOrderBy: `${DEFAULT_ORDER.field} ASC`,
    },
    explore: { facetFields: [...FACET_FIELDS] },
    federation: { modes: [...FEDERATION_MODES], default: 'auto', upstreams: [] },
    mediaTypes: {
      registry: ARD_MEDIA.registry,
      catalog: ARD_MEDIA.catalog,
      entryTypes: [ARD_MEDIA.serverCard, ARD_MEDIA.website],
      attestation: ARD_MEDIA.attestation,
    },
  }
}

/** Our own AI catalog (docs/checks.md §17.3): the MCP server card, this registry and the OpenAPI document. */
export function serviceCatalog(config: ArdConfig): AiCatalog {
  const host = publisherHost(config)
  const base = config.publicBaseUrl
  return {
    specVersion: '1.0',
    host: { displayName: SERVICE_NAME, identifier: host, documentationUrl: `${base}/swagger` },
    entries: [
      {
        identifier: `urn:air:${host}:mcp:${SERVICE_NAME}`,
        displayName: `${SERVICE_NAME} MCP server`,
        type: ARD_MEDIA.serverCard,
        url: `${base}/api/mcp/server-card`,
        description: 'Scan a domain, MCP server or MCP App server for AI-agent readiness from an agent.',
        tags: ['mcp', 'agent-readiness', 'scanner'],
        representativeQueries: ['check if a website is ready for AI agents', 'scan an MCP server for agent readiness'],
      },
      {
        ...registryIdentity(config),
        type: ARD_MEDIA.registry,
        url: registryUrl(config),
        description: 'Search the scanned domains by need, ranked by relevance and agent readiness.',
        tags: ['registry', 'ard', 'agent-readiness'],
        representativeQueries: ['find agent-ready websites for a task', 'which MCP servers are ready for agents'],
      },
      {
        identifier: `urn:air:${host}:openapi:${SERVICE_NAME}`,
        displayName: `${SERVICE_NAME} HTTP API`,
        type: ARD_MEDIA.openapi,
        url: `${base}/openapi.json`,
        description: 'The OpenAPI description of every route of this service.',
        tags: ['openapi', 'api'],
        representativeQueries: ['agent readiness scanning API', 'get the readiness score of a domain'],
      },
    ],
  }
}
