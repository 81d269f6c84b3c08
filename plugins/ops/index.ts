import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { healthResponse, readinessResponse } from './model.ts'
import { wire } from '../../core/openapi.ts'
import { readiness } from './service.ts'

type OpsNeeds = Pick<KernelPieces, 'context' | 'database' | 'store'>

export function opsPlugin(deps: OpsNeeds) {
  const { context } = deps
  return new Elysia({ name: 'ops', detail: { tags: ['Operations'] } })
    .use(context)
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: { 200: healthResponse },
      detail: { summary: 'Liveness: the process is up', tags: ['Operations'] },
    })
    .get(
      '/readyz',
      async ({ set }) => {
        const result = await readiness(deps)
        set.status = result.status === 'ready' ? 200 : 503
        set.headers['cache-control'] = 'no-store'
        return result
      },
      {
        response: { 200: readinessResponse, 503: readinessResponse },
        detail: {
          summary: 'Readiness: database and store reachable (503 otherwise)',
          tags: ['Operations'],
          ...wire({ answers: { 200: ['Cache-Control'], 503: ['Cache-Control'] } }),
        },
      },
    )
}

export const opsFeature = defineFeature<OpsNeeds>()({
  name: 'ops',
  needs: ['context', 'database', 'store'],
  provides: [],
  routes: opsPlugin,
})
