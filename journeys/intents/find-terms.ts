import { defineIntent, type FetchedPage } from '../types.ts'
import { answerFrom, completedPages, judgement, readable, topicOf } from '../judging.ts'

const TOPIC = /terms|legal|privacy|conditions|\btos\b|policy/i
/** What terms and privacy notices talk about; a page titled "Terms" with nothing of the kind in it is not one. */
const CLAUSES =
  /personal (data|information)|privacy|terms of (service|use)|cookies|liabilit|governing law|we (keep|collect|store|share|process)|permitted|license/i
const MIN_CHARS = 80
const PRIVACY = /privacy|personal data|gdpr|datenschutz/i
const TERMS = /terms|conditions|\btos\b|legal/i

/** `Terms: <url>; Privacy: <url>`: the first page read of each kind (one legal page may be both). */
function documents(found: readonly FetchedPage[]): string {
  const terms = found.find((page) => TERMS.test(topicOf(page))) ?? found.find((page) => !PRIVACY.test(topicOf(page)))
  const privacy = found.find((page) => PRIVACY.test(topicOf(page)))
  return `${[...(terms ? [`Terms: ${terms.finalUrl}`] : []), ...(privacy ? [`Privacy: ${privacy.finalUrl}`] : [])].join('; ')}.`
}

/** Found when the agent read the terms of service or privacy notice that govern using the site. */
export default defineIntent({
  meta: {
    id: 'find-terms',
    title: 'Find the terms and privacy policy',
    prompt:
      'Find the terms of service and privacy policy of {domain}: what they allow, and what they do with personal data.',
    layers: ['access'],
    keywords: ['terms', 'legal', 'privacy', 'policy', 'conditions'],
    paths: ['/terms', '/legal', '/privacy'],
    relatedChecks: ['llms-txt', 'sitemap-xml', 'content-without-js'],
  },
  judge(_trajectory, evidence) {
    const terms = completedPages(evidence).filter(
      (page) => readable(page) && TOPIC.test(topicOf(page)) && page.text.length >= MIN_CHARS && CLAUSES.test(page.text),
    )
    const judged = judgement(
      terms,
      (page) => `${page.finalUrl} states the terms or privacy policy.`,
      'No terms of service or privacy policy the agent could read.',
      (found) => answerFrom(found[0]!, documents(found)),
    )
    // The task asks for both: one of them found, an agent with pointers left looks for the other.
    const both = terms.some((page) => TERMS.test(topicOf(page))) && terms.some((page) => PRIVACY.test(topicOf(page)))
    return { ...judged, settled: both }
  },
})
