import { z } from 'zod'
import { commaList } from '../../core/query.ts'
import { APPLICABILITIES, LAYER_IDS, MATURITIES, SCAN_KINDS, TIERS } from '../../core/engine/contract.ts'

export const catalogQuery = z.object({
  include: commaList
    .optional()
    .describe('Comma list; `essentials` adds essentialsTier, essentialsBonusOnly and essentialsExcluded to every check'),
})

export const catalogCheck = z.object({
  id: z.string().describe('Stable; safe to persist and to pass to POST /api/scan/checks'),
  name: z.string().describe('Advisory'),
  description: z.string().describe('Advisory'),
  layer: z.enum(LAYER_IDS),
  maxScore: z.number().describe('Within-layer points; do not sum into a denominator'),
  bonus: z.boolean(),
  applicability: z.enum(APPLICABILITIES),
  protocol: z.enum(['rest', 'graphql', 'either']).optional().describe('Only when applicability is api'),
  appliesTo: z.array(z.enum(SCAN_KINDS)),
  tier: z.enum(TIERS),
  maturity: z.enum(MATURITIES),
  draft: z.boolean().describe('True when the underlying spec is a draft'),
  beta: z.boolean().describe('True: runs but cannot affect any score'),
  specUrl: z.string().optional(),
  recommendation: z.string().optional(),
  essentialsTier: z.enum(['required', 'recommended', 'signal']).optional(),
  essentialsBonusOnly: z.boolean().optional(),
  essentialsExcluded: z.boolean().optional(),
})

export const checkCatalog = z.object({
  contractVersion: z.string(),
  layers: z.array(z.object({ id: z.enum(LAYER_IDS), name: z.string(), weight: z.number() })),
  checks: z.array(catalogCheck).describe('Order is not contractual; key by id'),
})

export const ardError = z.object({
  errorCode: z.enum(['INVALID_ARGUMENT', 'UNAUTHENTICATED', 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR']),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
