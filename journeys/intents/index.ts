import type { IntentDefinition } from '../contract.ts'
import findPricing from './find-pricing.ts'

/** Every curated intent, in the order GET /api/journey/intents lists them; ids equal file names. */
export const INTENTS: readonly IntentDefinition[] = [findPricing]

export function intentById(id: string): IntentDefinition | undefined {
  return INTENTS.find((intent) => intent.meta.id === id)
}
