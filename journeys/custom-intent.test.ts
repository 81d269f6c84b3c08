import { describe, expect, test } from 'bun:test'
import { fetchedPage } from '../tests/support/journey-evidence.ts'
import type { FetchedPage, JourneyEvidence } from './types.ts'
import { customIntent, topicWords } from './custom-intent.ts'

const page = (url: string, title: string, headings: string[] = []) => fetchedPage(url, { title, headings, text: title })
const evidence = (...pages: FetchedPage[]): JourneyEvidence => ({
  domain: 'acme.test',
  origin: 'https://acme.test',
  pages,
  disallowed: [],
})

describe('custom intents (free text)', () => {
  test('topic words: lower case, no stop words or short words, no repeats', () => {
    expect(topicWords('Where can I find the Refund policy for my refund?')).toEqual(['refund', 'policy'])
  })

  test('done when a page names at least half of the topic words in its title, headings or path', () => {
    const intent = customIntent('Find the refund policy for annual plans')
    expect(intent.meta.keywords).toEqual(['refund', 'policy', 'annual', 'plans'])
    expect(
      intent.judge([], evidence(page('https://acme.test/legal/refund-policy', 'Refunds', ['Refund policy']))).satisfied,
    ).toBe(true)
    expect(intent.judge([], evidence(page('https://acme.test/blog', 'Our annual party'))).satisfied).toBe(false)
  })

  test('a path with a malformed percent-escape is read as written, not a failure of the whole run', () => {
    const intent = customIntent('Find the refund policy')
    expect(intent.judge([], evidence(page('https://acme.test/%E0%A4%A/refund-policy', 'Legal'))).satisfied).toBe(true)
    expect(intent.judge([], evidence(page('https://acme.test/r%C3%A9sum%C3%A9/refund', 'Policy'))).satisfied).toBe(true)
  })

  test('a task asking for Markdown asks sites for it; others take HTML', () => {
    expect(customIntent('Read the API guide as Markdown').meta.format).toBe('markdown')
    expect(customIntent('Read the API guide').meta.format).toBeUndefined()
  })
})
