import { type DocumentDecoration, Elysia } from 'elysia'
import { z } from 'zod'
import { openApiSchema, wire } from '../../core/openapi.ts'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import type { ScanRepository } from '../scan/public.ts'
import { ardIndexer } from './indexer.ts'
import {
  agentsQuery,
  agentsResponse,
  aiCatalog,
  catalogDump,
  exploreBody,
  exploreResponse,
  registryDescriptor as registryDescriptorSchema,
  searchBody,
  searchResponse,
} from './model.ts'
import { catalogDumpStream, registryDescriptor, serviceCatalog } from './documents.ts'
import { ARD_MEDIA } from './identity.ts'
import { PageTokens } from './page-tokens.ts'
import type { ArdContext } from './records.ts'
import { exploreEntries, listEntries, searchEntries } from './search.ts'
import { ARD_API_ENVELOPE, ARD_ERRORS, ardErrorResponse } from './errors.ts'
import { describeIpLimit } from '../../core/limits.ts'
import { ARD_LIMITS } from './limits.ts'
import { cacheLifetime, publicCache } from '../../core/caching.ts'

/** The descriptor and our AI catalog change only with the deployment's configuration. */
const STATIC_CACHE = 'public, max-age=3600'
/** The listing changes when a scan completes; a minute of staleness is nothing for a browsing client. */
const LIST_CACHE_SECONDS = 60
const LIST_CACHE = publicCache(LIST_CACHE_SECONDS)
/** Browsers and agents re-read the dump every 5 minutes; a CDN may serve it for an hour. */
const DUMP_CACHE_SECONDS = 300
const DUMP_CDN_SECONDS = 3600
const DUMP_CACHE = publicCache(DUMP_CACHE_SECONDS, DUMP_CDN_SECONDS)

/** A fixed JSON document under its own media type; public metadata, so readable from any origin. */
function documentResponse(body: unknown, contentType: string): Response {
  return new Response(JSON.stringify(body), {
    headers: { 'content-type': contentType, 'cache-control': STATIC_CACHE, 'access-control-allow-origin': '*' },
  })
}

type OpenApiResponses = NonNullable<DocumentDecoration['responses']>
type OpenApiMedia = NonNullable<Extract<OpenApiResponses[string], { description: string }>['content']>[string]

/** The OpenAPI types only know the 3.0 dialect; OpenAPI 3.1 takes the JSON Schema 2020-12 that zod emits as is. */
const jsonSchema = (schema: z.ZodType) => openApiSchema(schema) as OpenApiMedia['schema']

/** OpenAPI responses of a route answering with its own media type (Elysia would document application/json). */
function documentResponses(contentType: string, schema: z.ZodType, description: string): OpenApiResponses {
  return {
    200: { description, content: { [contentType]: { schema: jsonSchema(schema) } } },
    500: { description: 'Internal error: ArdErrorResponse' },
  }
}

/** What documentResponse above sends with the body. */
const documentWire = wire({ answers: { 200: ['Cache-Control', 'Access-Control-Allow-Origin'] } })

type ArdNeeds = Pick<KernelPieces, 'context' | 'config' | 'database' | 'log' | 'secrets' | 'registry'> & {
  scans: ScanRepository
}

export function ardPlugin(deps: ArdNeeds) {
  const context: ArdContext = {
    db: deps.database.db,
    config: deps.config,
    tokens: new PageTokens(() => deps.secrets.key('ard-page-token')),
  }
  const descriptor = registryDescriptor(deps.config)
  const catalog = serviceCatalog(deps.config)
  const catalogDetail = {
    tags: ['ARD'],
    summary: "This service's AI catalog",
    description:
      'The AI Catalog manifest (`application/ai-catalog+json`, specVersion 1.0) listing our MCP server card, this registry (`application/ai-registry+json`) and the OpenAPI document. Also at /.well-known/ai-catalog.json. CORS `*`, cached 1 hour.',
    responses: documentResponses(ARD_MEDIA.catalog, aiCatalog, 'AI catalog manifest'),
    ...documentWire,
  }

  return new Elysia({ name: 'ard' })
    .use(deps.context)
    .get('/api/ard', () => documentResponse(descriptor, ARD_MEDIA.registry), {
      detail: {
        tags: ['ARD'],
        summary: 'Registry service descriptor',
        description:
          'The `application/ai-registry+json` descriptor: live endpoints, the pagination model (opaque `pageToken`, page size at most 100), search filter fields, listing filter/orderBy fields and operators, facet fields, entry media types and federation modes (this registry does not federate). CORS `*`, cached 1 hour.',
        responses: documentResponses(ARD_MEDIA.registry, registryDescriptorSchema, 'Registry descriptor'),
        ...documentWire,
      },
    })
    .get('/api/ard/catalog', () => documentResponse(catalog, ARD_MEDIA.catalog), { detail: catalogDetail })
    .get('/.well-known/ai-catalog.json', () => documentResponse(catalog, ARD_MEDIA.catalog), { detail: catalogDetail })
    .get(
      '/api/ard/catalog.json',
      async () =>
        new Response(await catalogDumpStream(context.db, context.config, deps.log), {
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'cache-control': DUMP_CACHE,
            'access-control-allow-origin': '*',
          },
        }),
      {
        limit: ARD_LIMITS.ardRead,
        detail: {
          tags: ['ARD'],
          summary: 'Every indexed entry in one document',
          description: `\`{ version, generatedAt, publisher, data }\` with every entry of the index, uncapped (streamed in domain order). CORS \`*\`; cached ${cacheLifetime(DUMP_CACHE_SECONDS)}, ${cacheLifetime(DUMP_CDN_SECONDS)} on a CDN. ${describeIpLimit(ARD_LIMITS.ardRead)}, shared with /api/ard/agents and /api/ard/attestation.`,
          responses: {
            200: {
              description: 'The dump',
              content: { 'application/json': { schema: jsonSchema(catalogDump) } },
            },
            429: { description: 'Rate limit exceeded: ArdErrorResponse, `Retry-After` in seconds' },
            500: { description: 'Internal error: ArdErrorResponse' },
          },
          ...documentWire,
        },
      },
    )
    .post('/api/ard/search', ({ body }) => searchEntries(context, body), {
      limit: ARD_LIMITS.ardSearch,
      parse: 'json',
      body: searchBody,
      response: { 200: searchResponse, 400: ardErrorResponse, 429: ardErrorResponse, 500: ardErrorResponse },
      detail: {
        tags: ['ARD'],
        summary: 'Search the registry',
        description: `Full-text search (\`query.text\`) and/or exact filters (\`query.filter\`: OR within a field, AND across fields; fields category, tags, type, grade, publisherId, identifier; an unknown field is 400 INVALID_ARGUMENT). Results are ranked by \`score\` = match quality (0-100; 100 for a filter-only query) x (0.6 + 0.4 x readiness/100), then domain. Each result is an ARD entry with \`score\`, \`source\`, a \`trustManifest\` pointing at the signed scorecard attestation and the \`oraScorecard\` extension. \`federation\` is accepted but this registry does not federate: \`referrals\` is always empty. \`pageSize\` 1-100 (default 10); \`pageToken\` is omitted on the last page and is refused (400) when altered or sent with a different query. ${describeIpLimit(ARD_LIMITS.ardSearch)}, shared with /api/ard/explore.`,
      },
    })
    .post('/api/ard/explore', ({ body }) => exploreEntries(context, body), {
      limit: ARD_LIMITS.ardSearch,
      parse: 'json',
      body: exploreBody,
      response: { 200: exploreResponse, 400: ardErrorResponse, 429: ardErrorResponse, 500: ardErrorResponse },
      detail: {
        tags: ['ARD'],
        summary: 'Facet counts over the registry',
        description: `Counts per value of category, tags, type or grade over the entries the optional \`query\` matches (the same matching as search). Buckets by count descending then value, at most \`limit\` (default 20), none below \`minCount\` (default 1); \`otherCount\` counts the entries in the buckets left out. ${describeIpLimit(ARD_LIMITS.ardSearch)}, shared with /api/ard/search.`,
      },
    })
    .get(
      '/api/ard/agents',
      async ({ query, set }) => {
        const page = await listEntries(context, query)
        set.headers['cache-control'] = LIST_CACHE
        return page
      },
      {
        limit: ARD_LIMITS.ardRead,
        query: agentsQuery,
        response: { 200: agentsResponse, 400: ardErrorResponse, 429: ardErrorResponse, 500: ardErrorResponse },
        detail: {
          tags: ['ARD'],
          summary: 'List registry entries',
          ...wire({ answers: { 200: ['Cache-Control'] } }),
          description: `Deterministic listing. \`filter\`: conditions joined by AND, \`<field> <op> <value>\` with fields type, publisherId (= !=, comma-separated values mean any of them), displayName (case-insensitive, = != > < >= <=), tags (= has the tag, != lacks it) and updatedAt (ISO 8601, all operators); values bare or quoted. \`orderBy\`: \`<field> [ASC|DESC]\` over displayName, updatedAt, identifier, type (default displayName ASC; ties by domain). An unsupported field, operator or syntax is 400 INVALID_ARGUMENT saying which. \`pageSize\` 1-100 (default 20); \`pageToken\` omitted on the last page. Cached ${cacheLifetime(LIST_CACHE_SECONDS)}. ${describeIpLimit(ARD_LIMITS.ardRead)}, shared with /api/ard/attestation and /api/ard/catalog.json.`,
        },
      },
    )
}

/** The ARD registry; its index follows the scans table, updated in the transaction that stores each scan. */
export const ardFeature = defineFeature<ArdNeeds>()({
  name: 'ard',
  needs: ['context', 'config', 'database', 'log', 'secrets', 'registry', 'scans'],
  provides: [],
  limits: ARD_LIMITS,
  provide: (deps) => {
    deps.scans.follow(ardIndexer(deps.config, deps.registry))
    return {}
  },
  routes: ardPlugin,
  errors: { codes: ARD_ERRORS, envelope: ARD_API_ENVELOPE },
})
