import { z } from 'zod'

export const healthResponse = z.object({ status: z.literal('ok') })

export const readinessResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({
    database: z.object({ ok: z.boolean(), kind: z.enum(['postgres', 'pglite']) }),
    store: z.object({ ok: z.boolean(), kind: z.enum(['redis', 'memory']) }),
  }),
})
export type Readiness = z.infer<typeof readinessResponse>
