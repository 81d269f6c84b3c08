import { describe, expect, test } from 'bun:test'
import { fetchedPage } from '../tests/support/journey-evidence.ts'
import type { FetchedPage, JourneyEvidence, Judgement } from './types.ts'
import { unsupportedClaim } from './claims.ts'

const ORIGIN = 'https://acme.test'
const page = (path: string, fields: Partial<FetchedPage> = {}) => fetchedPage(`${ORIGIN}${path}`, fields)
const evidence = (...pages: FetchedPage[]): JourneyEvidence => ({
  domain: 'acme.test',
  origin: ORIGIN,
  pages: pages.map((p, i) => ({ ...p, stepId: `s${i + 1}` })),
  disallowed: [],
})
/** The judge accepted the first page. */
const accepted: Judgement = { satisfied: true, reason: 'found', evidence: ['s1'], answer: null }

describe('an answer checked against what was fetched', () => {
  const contact = page('/contact', {
    text: 'Write to help@acme.test or use the form.',
    forms: [{ action: `${ORIGIN}/contact/send`, method: 'post', fields: ['email:email', 'message'] }],
    links: [{ url: `${ORIGIN}/status`, text: 'Status', rel: '' }],
  })

  test('supported: it cites the accepted page, and every address, URL and amount it gives is in what was read', () => {
    const answer = `Contact: email help@acme.test; contact form at ${ORIGIN}/contact (posts to ${ORIGIN}/contact/send). See ${ORIGIN}/status.\nSource: ${ORIGIN}/contact`
    expect(unsupportedClaim(answer, accepted, evidence(contact))).toBeNull()
    // The page's own description counts: evaluate-product quotes it.
    const home = page('/', { description: 'Acme schedules your team from $9 a month.' })
    expect(
      unsupportedClaim(`Acme schedules your team from $9 a month.\nSource: ${ORIGIN}/`, accepted, evidence(home)),
    ).toBeNull()
    const pricing = page('/pricing', { text: 'Pro: $29 per month' })
    expect(
      unsupportedClaim(`Pro costs 29.00 USD a month.\nSource: ${ORIGIN}/pricing`, accepted, evidence(pricing)),
    ).toBeNull()
  })

  test('unsupported: no answer, no accepted page cited, or a fact no page gives', () => {
    expect(unsupportedClaim(null, accepted, evidence(contact))).toBe('The agent gave no answer.')
    expect(unsupportedClaim('Write to help@acme.test.', accepted, evidence(contact))).toBe(
      'The answer does not cite a page that shows it.',
    )
    expect(unsupportedClaim(`Write to sales@acme.test.\nSource: ${ORIGIN}/contact`, accepted, evidence(contact))).toBe(
      'The answer gives sales@acme.test, which no page the agent read gives.',
    )
    expect(
      unsupportedClaim(`Source: ${ORIGIN}/contact; docs at ${ORIGIN}/secret-docs`, accepted, evidence(contact)),
    ).toBe(`The answer cites ${ORIGIN}/secret-docs, which nothing the agent fetched contains.`)
    expect(unsupportedClaim(`Support costs $99.\nSource: ${ORIGIN}/contact`, accepted, evidence(contact))).toBe(
      'The answer states 99 USD, which no page the agent read states.',
    )
  })
})
