import type { IntentDefinition } from '../types.ts'
import authenticate from './authenticate.ts'
import evaluateProduct from './evaluate-product.ts'
import findAgentAccess from './find-agent-access.ts'
import findApiReference from './find-api-reference.ts'
import findOpenapi from './find-openapi.ts'
import findPricing from './find-pricing.ts'
import findSupport from './find-support.ts'
import findTerms from './find-terms.ts'
import readDocsMarkdown from './read-docs-markdown.ts'
import transact from './transact.ts'

/**
 * Every curated intent, in the order GET /api/journey/intents lists them (ids equal file names): roughly the order
 * an agent's user meets them, from what the site is, through its docs and API, to access, identity and payment.
 */
export const INTENTS: readonly IntentDefinition[] = [
  evaluateProduct,
  findPricing,
  findSupport,
  findTerms,
  findApiReference,
  findOpenapi,
  readDocsMarkdown,
  findAgentAccess,
  authenticate,
  transact,
]

export function intentById(id: string): IntentDefinition | undefined {
  return INTENTS.find((intent) => intent.meta.id === id)
}
