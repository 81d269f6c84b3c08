import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { documentResponse } from '../../core/etag.ts'
import { DOCUMENT_HEADERS, wire } from '../../core/openapi.ts'
import { catalogQuery, checkCatalog } from './model.ts'
import { serializeCatalogs, wantsEssentials } from './service.ts'
import { ARD_ENVELOPE, ardErrorResponse } from '../ard/public.ts'
import { describeIpLimit } from '../../core/limits.ts'
import { CATALOG_LIMITS } from './limits.ts'
import { cacheLifetime, publicCache } from '../../core/caching.ts'

/** The catalog changes only with a deployment (and its ETag says when). */
const CACHE_SECONDS = 3600

type CatalogNeeds = Pick<KernelPieces, 'context' | 'registry'>

export function catalogPlugin(deps: CatalogNeeds) {
  const { context } = deps
  const catalogs = serializeCatalogs(deps.registry)
  return new Elysia({ name: 'catalog' }).use(context).get(
    '/api/checks',
    async ({ query, request }) => {
      const catalog = wantsEssentials(query.include) ? catalogs.essentials : catalogs.plain
      return documentResponse(request, catalog, 'application/json; charset=utf-8', {
        'access-control-allow-origin': '*',
        'cache-control': publicCache(CACHE_SECONDS),
        vary: 'Accept-Encoding',
      })
    },
    {
      limit: CATALOG_LIMITS.checksCatalog,
      query: catalogQuery,
      response: { 200: checkCatalog, 429: ardErrorResponse },
      detail: {
        tags: ['Checks'],
        summary: 'Catalog of every check',
        description: `Generated from the checks' own metadata. Byte-stable between check-set changes (ETag), CORS \`*\`, cacheable for ${cacheLifetime(CACHE_SECONDS)}. ${describeIpLimit(CATALOG_LIMITS.checksCatalog)}.`,
        ...wire({
          answers: {
            200: [...DOCUMENT_HEADERS, 'Access-Control-Allow-Origin', 'Vary'],
            304: {
              description: 'Not modified (If-None-Match matched the ETag)',
              headers: [...DOCUMENT_HEADERS, 'Access-Control-Allow-Origin', 'Vary'],
            },
          },
        }),
      },
    },
  )
}

export const catalogFeature = defineFeature<CatalogNeeds>()({
  name: 'catalog',
  needs: ['context', 'registry'],
  provides: [],
  limits: CATALOG_LIMITS,
  routes: catalogPlugin,
  // The spec gives the catalog ARD's envelope.
  errors: { envelope: { prefixes: ['/api/checks'], envelope: ARD_ENVELOPE } },
})
