import { z } from 'zod'
import { commaList } from '../../core/query.ts'

export { checkCatalogSchema as checkCatalog } from '../../core/engine/catalog.ts'

export const catalogQuery = z.object({
  include: commaList
    .optional()
    .describe('Comma list; `essentials` adds essentialsTier, essentialsBonusOnly and essentialsExcluded to every check'),
})

export const ardError = z.object({
  errorCode: z.enum(['INVALID_ARGUMENT', 'UNAUTHENTICATED', 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR']),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
