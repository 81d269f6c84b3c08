import { z } from 'zod'

/** ARD page sizes (spec, Limits): search 1-100 default 10, list 1-100 default 20. */
export const MAX_PAGE_SIZE = 100
export const SEARCH_PAGE_SIZE = 10
export const LIST_PAGE_SIZE = 20
const FACET_LIMIT = 20

export const SEARCH_FILTER_FIELDS = ['category', 'tags', 'type', 'grade', 'publisherId', 'identifier'] as const
export const FACET_FIELDS = ['category', 'tags', 'type', 'grade'] as const
export const LIST_FILTER_FIELDS = ['type', 'displayName', 'publisherId', 'tags', 'updatedAt'] as const
export type ListFilterField = (typeof LIST_FILTER_FIELDS)[number]
export const LIST_OPERATORS = ['=', '!=', '>', '<', '>=', '<='] as const
export type ListOperator = (typeof LIST_OPERATORS)[number]
export const ORDER_BY_FIELDS = ['displayName', 'updatedAt', 'identifier', 'type'] as const
export type OrderByField = (typeof ORDER_BY_FIELDS)[number]
export const FEDERATION_MODES = ['auto', 'referrals', 'none'] as const

/** PostgreSQL text cannot hold NUL: refusing it here keeps a garbled input a 400 instead of a driver error. */
const dbText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters')

const filterValue = dbText(256)

const queryText = dbText(500).describe(
  'Natural-language need, matched with PostgreSQL full-text search (websearch syntax: "quoted phrase", -exclude, or). A plain list of words matches entries with any of them, ranked by how well they match',
)

/** zod types the record's error map for key and value issues only, but unknown keys reach it too. */
function unsupportedFilterField(issue: { code?: string; keys?: unknown }): string | undefined {
  if (issue.code !== 'unrecognized_keys' || !Array.isArray(issue.keys)) return undefined
  return `Unsupported filter field(s) ${issue.keys.map((key) => `"${String(key)}"`).join(', ')}; supported: ${SEARCH_FILTER_FIELDS.join(', ')}`
}

const searchFilter = z
  .partialRecord(z.enum(SEARCH_FILTER_FIELDS), z.union([filterValue, z.array(filterValue).min(1).max(50)]), {
    error: unsupportedFilterField,
  })
  .describe(
    `Field -> value or values: OR within a field, AND across fields. Fields: ${SEARCH_FILTER_FIELDS.join(', ')} (tags match when the entry has any of the values)`,
  )

const ardQuery = z.object({
  text: queryText.optional(),
  filter: searchFilter.optional(),
})

export type ArdQuery = z.infer<typeof ardQuery>

const hasText = (query: ArdQuery) => Boolean(query.text?.trim())
const hasFilter = (query: ArdQuery) => Object.keys(query.filter ?? {}).length > 0

export const searchBody = z.object({
  query: ardQuery.refine((query) => hasText(query) || hasFilter(query), 'query needs `text`, `filter` or both'),
  federation: z
    .enum(FEDERATION_MODES)
    .default('auto')
    .describe('This registry does not federate: every mode answers from its own index and `referrals` is always empty'),
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(SEARCH_PAGE_SIZE)
    .describe(`Results per page, 1-${MAX_PAGE_SIZE}, default ${SEARCH_PAGE_SIZE}`),
  pageToken: z
    .string()
    .max(1024)
    .optional()
    .describe('Opaque token of the previous page; only valid for the same query'),
})

export type SearchBody = z.infer<typeof searchBody>

const facetRequest = z.object({
  field: z.enum(FACET_FIELDS).describe(`One of ${FACET_FIELDS.join(', ')}`),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(FACET_LIMIT)
    .describe(`Buckets returned, default ${FACET_LIMIT}`),
  minCount: z.number().int().min(1).default(1).describe('Buckets with fewer entries are left out'),
})

export const exploreBody = z.object({
  query: ardQuery.optional().describe('Narrows the counted entries like a search; absent, every entry is counted'),
  resultType: z.object({
    facets: z
      .array(facetRequest)
      .min(1)
      .max(FACET_FIELDS.length)
      .refine(
        (facets) => new Set(facets.map((facet) => facet.field)).size === facets.length,
        'each facet field may appear once',
      ),
  }),
})

export type ExploreBody = z.infer<typeof exploreBody>

export const agentsQuery = z.object({
  filter: dbText(2000)
    .optional()
    .describe(
      `Conditions joined by AND, e.g. \`type = "application/mcp-server-card+json" AND updatedAt >= 2026-01-01\`. Fields: type, publisherId (= != ; a comma-separated value means any of them), displayName (case-insensitive; all operators), tags (= has the tag, != lacks it), updatedAt (ISO 8601; all operators). Values are bare words or "double"/'single' quoted`,
    ),
  orderBy: dbText(200)
    .optional()
    .describe(`\`<field> [ASC|DESC]\` over ${ORDER_BY_FIELDS.join(', ')}; default displayName ASC`),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(LIST_PAGE_SIZE)
    .describe(`Entries per page, 1-${MAX_PAGE_SIZE}, default ${LIST_PAGE_SIZE}`),
  pageToken: z
    .string()
    .max(1024)
    .optional()
    .describe('Opaque token of the previous page; only valid for the same filter and order'),
})

export type AgentsQuery = z.infer<typeof agentsQuery>

const grade = z.enum(['A+', 'A', 'B', 'C', 'D', 'F'])

export const ardRecord = z
  .object({
    identifier: z.string().describe('urn:air:<this service host>:scorecard:<domain>'),
    displayName: z.string(),
    type: z
      .string()
      .describe('application/mcp-server-card+json when the scan found MCP endpoints, else text/html (the site itself)'),
    url: z.string().describe('The scanned site or MCP server'),
    description: z.string(),
    tags: z.array(z.string()).describe('Category, kind, grade band and the notable checks the site passes'),
    representativeQueries: z.array(z.string()).min(2).max(5),
    updatedAt: z.string().describe('When this entry last changed (ISO 8601)'),
    publisherId: z.string().describe('The domain that operates the resource'),
    category: z.string().optional().describe('Market category slug, when classified'),
    mcpEndpoints: z.array(z.object({ url: z.string(), source: z.string().describe('Where the scan found it') })),
    trustManifest: z.object({
      identity: z.string().describe('Equal to identifier'),
      attestations: z.array(z.object({ type: z.string(), uri: z.string(), mediaType: z.string() })),
    }),
    oraScorecard: z
      .object({
        score: z.number().int().min(0).max(100).optional(),
        grade: grade.optional(),
        category: z.string().optional(),
        checkedAt: z.string().optional(),
      })
      .describe('Vendor extension: the readiness scorecard; score and grade only when the domain has been scored'),
  })
  .describe('An ARD entry for one scanned domain')

export type ArdRecord = z.infer<typeof ardRecord>

export const searchResult = ardRecord.extend({
  score: z
    .number()
    .int()
    .min(0)
    .max(100)
    .describe('Relevance: match quality (0-100) x (0.6 + 0.4 x readiness/100); not the readiness score'),
  source: z.string().describe('This registry'),
})

export const searchResponse = z.object({
  results: z.array(searchResult),
  referrals: z
    .array(z.object({ identifier: z.string(), displayName: z.string(), type: z.string(), url: z.string() }))
    .describe('Always empty: this registry does not federate'),
  pageToken: z.string().optional().describe('Omitted on the last page'),
})

export type SearchResponse = z.infer<typeof searchResponse>

export const exploreResponse = z.object({
  resultType: z.literal('facets'),
  facets: z
    .record(
      z.string(),
      z.object({
        buckets: z.array(z.object({ value: z.string(), count: z.number().int() })),
        otherCount: z.number().int().describe('Entries counted in buckets beyond `limit`'),
      }),
    )
    .describe('Per requested field; buckets by count descending, then value'),
})

export type ExploreResponse = z.infer<typeof exploreResponse>

export const agentsResponse = z.object({
  items: z.array(ardRecord),
  total: z.number().int().describe('Entries matching the filter, across all pages'),
  pageToken: z.string().optional().describe('Omitted on the last page'),
})

export type AgentsResponse = z.infer<typeof agentsResponse>

const catalogEntry = z.object({
  identifier: z.string(),
  displayName: z.string(),
  type: z.string(),
  url: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  representativeQueries: z.array(z.string()),
})

export const aiCatalog = z
  .object({
    specVersion: z.literal('1.0'),
    host: z.object({ displayName: z.string(), identifier: z.string(), documentationUrl: z.string() }),
    entries: z.array(catalogEntry),
  })
  .describe("This service's own AI catalog: its MCP server card, this registry and the OpenAPI document")

export type AiCatalog = z.infer<typeof aiCatalog>

const endpoint = z.object({ method: z.enum(['GET', 'POST']), url: z.string() })

export const registryDescriptor = z
  .object({
    identifier: z.string(),
    displayName: z.string(),
    description: z.string(),
    contractVersion: z.string(),
    publisher: z.object({ displayName: z.string(), identifier: z.string(), url: z.string() }),
    endpoints: z.object({
      search: endpoint,
      explore: endpoint,
      list: endpoint,
      catalog: endpoint,
      catalogDump: endpoint,
      attestation: endpoint.describe('`{domain}` is a template variable'),
      jwks: endpoint,
    }),
    pagination: z.object({
      model: z.literal('opaque-token'),
      tokenField: z.literal('pageToken'),
      maxPageSize: z.number().int(),
      defaultPageSize: z.object({ search: z.number().int(), list: z.number().int() }),
    }),
    search: z.object({
      filterFields: z.array(z.string()),
      filterSemantics: z.string(),
      textSyntax: z.string(),
      scoring: z.string(),
    }),
    list: z.object({
      filterFields: z.array(z.string()),
      operators: z.array(z.string()),
      orderByFields: z.array(z.string()),
      defaultOrderBy: z.string(),
    }),
    explore: z.object({ facetFields: z.array(z.string()) }),
    federation: z.object({ modes: z.array(z.string()), default: z.string(), upstreams: z.array(z.string()) }),
    mediaTypes: z.object({
      registry: z.string(),
      catalog: z.string(),
      entryTypes: z.array(z.string()),
      attestation: z.string(),
    }),
  })
  .describe('Registry service descriptor (application/ai-registry+json)')

export type RegistryDescriptor = z.infer<typeof registryDescriptor>

export const catalogDump = z
  .object({
    version: z.string().describe('The contract version of the entry shape'),
    generatedAt: z.string(),
    publisher: z.object({ displayName: z.string(), identifier: z.string(), url: z.string() }),
    data: z.array(ardRecord).describe('Every indexed entry, by domain'),
  })
  .describe('Every indexed entry in one uncapped document')
