import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import type { ScanRepository } from '../scan/public.ts'
import { badgeParams, badgeQuery, badgeResponses } from './model.ts'
import { BADGE_CACHE_SECONDS, badgeFor } from './service.ts'
import { wire } from '../../core/openapi.ts'
import { describeIpLimit } from '../../core/limits.ts'
import { BADGE_LIMITS } from './limits.ts'
import { cacheLifetime } from '../../core/caching.ts'

type BadgeNeeds = Pick<KernelPieces, 'context'> & { scans: ScanRepository }

export function badgePlugin({ context, scans }: BadgeNeeds) {
  return new Elysia({ name: 'badge' }).use(context).get(
    '/api/badge/:domain',
    async ({ params, query }) => {
      const badge = await badgeFor(scans, params.domain, query.mcp)
      return new Response(badge.svg, {
        headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': badge.cacheControl },
      })
    },
    {
      limit: BADGE_LIMITS.badge,
      params: badgeParams,
      query: badgeQuery,
      detail: {
        tags: ['Scan'],
        summary: "SVG badge of a domain's score and grade",
        description: `An \`image/svg+xml\` badge ("agent-ready" | "<score> <grade>" in the grade colour) of the newest measured scan; a partial scan shows its current score. The path takes a domain or a URL-encoded full URL (normalised to its hostname); \`mcp\` names one of the domain's MCP servers, whose own report the badge then shows. Cached ${cacheLifetime(BADGE_CACHE_SECONDS)}; partial and ephemeral results are \`no-store\`. 404 \`NOT_FOUND\` when the domain has no score. ${describeIpLimit(BADGE_LIMITS.badge)}.`,
        responses: badgeResponses,
        ...wire({ answers: { 200: ['Cache-Control'] } }),
      },
    },
  )
}

export const badgeFeature = defineFeature<BadgeNeeds>()({
  name: 'badge',
  needs: ['context', 'scans'],
  provides: [],
  limits: BADGE_LIMITS,
  routes: badgePlugin,
})
