import { z } from 'zod'

export const MAX_LIMIT = 50
export const DEFAULT_LIMIT = 10

export const discoverQuery = z.object({
  intent: z
    .string()
    .trim()
    .min(1)
    .max(500)
    // PostgreSQL text cannot hold NUL: refused here, it stays a 400 instead of a driver error.
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters')
    .describe('What the user wants to do, in plain words ("book a table for two tonight"); required'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .describe(`Results returned, 1-${MAX_LIMIT}, default ${DEFAULT_LIMIT}`),
})

export type DiscoverQuery = z.infer<typeof discoverQuery>

export const discoverResult = z.object({
  domain: z.string(),
  name: z.string(),
  category: z.string().describe('Market category slug; `unclassified` when the scan could not classify the site'),
  score: z.number().int().min(0).max(100).describe('Agent-readiness score'),
  grade: z.enum(['A', 'B', 'C', 'D', 'F']).describe('Letter grade; A+ is reported as A'),
  tags: z.array(z.string()),
  matchScore: z
    .number()
    .min(0)
    .max(1)
    .describe(
      'Relevance of the entry to the intent, 0..1 (share of the intent met x full-text rank, independent of readiness)',
    ),
})

export type DiscoverResult = z.infer<typeof discoverResult>

export const discoverResponse = z.object({
  intent: z.string(),
  results: z.array(discoverResult).describe('By matchScore x (0.6 + 0.4 x score/100) descending, then domain'),
  total: z.number().int().describe('Entries matching the intent, of which `limit` are returned'),
})

export type DiscoverResponse = z.infer<typeof discoverResponse>
