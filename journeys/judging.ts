import type { FetchedPage, JourneyEvidence } from './contract.ts'

/**
 * Helpers the intents' judges share. Judges are pure: they read the evidence, never fetch.
 */

/** Pages that answered 2xx with content (not a challenge). */
export function completedPages(evidence: JourneyEvidence): FetchedPage[] {
  return evidence.pages.filter((page) => page.status >= 200 && page.status < 300 && !page.challenged)
}

/** The step ids of pages, in order, without repeats. */
export function stepsOf(pages: readonly FetchedPage[]): string[] {
  return [...new Set(pages.map((page) => page.stepId))]
}

/** A JSON document's top-level object, or null. */
export function jsonObject(page: FetchedPage): Record<string, unknown> | null {
  return page.json !== null && typeof page.json === 'object' && !Array.isArray(page.json) ? (page.json as Record<string, unknown>) : null
}
