import type { FetchedPage, JourneyEvidence, Judgement } from './types.ts'
import { completedPages } from './judging.ts'
import { pricesIn } from './prices.ts'

/**
 * Whether an agent's answer is what the evidence shows. The judge decides from the pages fetched; an answer that
 * cites a page the judge did not accept, or states an amount, address or URL nothing fetched contains, is not a
 * success however good the pages were. Returns why the claim fails, or null when the evidence supports it.
 */

const URL_IN_TEXT = /https?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?]/g
/** Bounded like the addresses it finds: page text is hostile input. */
const EMAIL_IN_TEXT = /\b[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,24}\b/gi

/** One spelling per URL: no fragment, no trailing slash on a path. */
function canonical(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.hash = ''
    return parsed.href.replace(/(?<=[^/])\/$/, '')
  } catch {
    return url
  }
}

/** Every URL the run came across: fetched (before and after redirects), linked, a form's action, or written in what it read. */
function knownUrls(evidence: JourneyEvidence): Set<string> {
  const known = new Set<string>()
  for (const page of evidence.pages) {
    known.add(canonical(page.url))
    known.add(canonical(page.finalUrl))
    for (const link of page.links) known.add(canonical(link.url))
    for (const form of page.forms) known.add(canonical(form.action))
    for (const match of `${page.text} ${page.description} ${JSON.stringify(page.json ?? null)}`.matchAll(URL_IN_TEXT))
      known.add(canonical(match[0]))
  }
  return known
}

/** Amounts as a page states them, comparable whatever the notation (`$9` and `9.00 USD`). */
function amountKey(amount: string, currency: string): string {
  return `${Number(amount)} ${currency}`
}

export function unsupportedClaim(
  response: string | null,
  judgement: Judgement,
  evidence: JourneyEvidence,
): string | null {
  if (!response) return 'The agent gave no answer.'
  const accepted = new Set(
    evidence.pages
      .filter((page) => judgement.evidence.includes(page.stepId))
      .flatMap((page: FetchedPage) => [canonical(page.url), canonical(page.finalUrl)]),
  )
  const cited = [...response.matchAll(URL_IN_TEXT)].map((match) => canonical(match[0]))
  if (!cited.some((url) => accepted.has(url))) return 'The answer does not cite a page that shows it.'
  const known = knownUrls(evidence)
  const unknownUrl = cited.find((url) => !known.has(url))
  if (unknownUrl) return `The answer cites ${unknownUrl}, which nothing the agent fetched contains.`
  const read = completedPages(evidence)
  const amounts = new Set(
    read.flatMap((page) =>
      [...page.prices, ...pricesIn(`${page.text}\n${page.description}`, 'text')].map((fact) =>
        amountKey(fact.amount, fact.currency),
      ),
    ),
  )
  const unknownAmount = pricesIn(response, 'text').find((fact) => !amounts.has(amountKey(fact.amount, fact.currency)))
  if (unknownAmount)
    return `The answer states ${unknownAmount.amount} ${unknownAmount.currency}, which no page the agent read states.`
  const emails = new Set(
    read.flatMap((page) =>
      [...page.emails, ...(`${page.text} ${page.description}`.match(EMAIL_IN_TEXT) ?? [])].map((email) =>
        email.toLowerCase(),
      ),
    ),
  )
  const unknownEmail = (response.match(EMAIL_IN_TEXT) ?? []).find((email) => !emails.has(email.toLowerCase()))
  if (unknownEmail) return `The answer gives ${unknownEmail}, which no page the agent read gives.`
  return null
}
