import { z } from 'zod'
import { commaList } from '../../core/query.ts'

export { checkCatalogSchema as checkCatalog } from '../../core/engine/catalog.ts'

export const catalogQuery = z.object({
  include: commaList
    .optional()
    .describe(
      'Comma list; `essentials` adds essentialsTier, essentialsBonusOnly and essentialsExcluded to every check',
    ),
})
