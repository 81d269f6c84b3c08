import { describe, expect, test } from 'bun:test'
import { fetchedPage } from '../tests/support/journey-evidence.ts'
import type { FetchedPage, JourneyEvidence } from './types.ts'
import {
  completedPages,
  hasUrl,
  isMarkdown,
  isOpenApi,
  jsonObject,
  judgement,
  readable,
  stepsOf,
  topicOf,
} from './judging.ts'

const page = (path: string, fields: Partial<FetchedPage> = {}) =>
  fetchedPage(`https://acme.test${path}`, { text: 'x', ...fields })

describe('judging helpers', () => {
  test('completedPages keeps 2xx answers that are not challenges', () => {
    const evidence: JourneyEvidence = {
      domain: 'acme.test',
      origin: 'https://acme.test',
      pages: [
        page('/a', { stepId: 's1' }),
        page('/b', { stepId: 's2', status: 404 }),
        page('/c', { stepId: 's3', challenged: true }),
        page('/d', { stepId: 's4', status: 301 }),
      ],
      disallowed: [],
    }
    expect(completedPages(evidence).map((p) => p.stepId)).toEqual(['s1'])
  })

  test('stepsOf keeps the first occurrence of each step', () => {
    expect(stepsOf([page('/a', { stepId: 's2' }), page('/b', { stepId: 's1' }), page('/a', { stepId: 's2' })])).toEqual(
      ['s2', 's1'],
    )
  })

  test('jsonObject reads objects only', () => {
    expect(jsonObject(page('/a', { json: { a: 1 } }))).toEqual({ a: 1 })
    expect(jsonObject(page('/a', { json: [1] }))).toBeNull()
    expect(jsonObject(page('/a', { json: 'text' }))).toBeNull()
  })

  test('isOpenApi wants a versioned document with info and paths (or webhooks), not a pointer to one', () => {
    expect(isOpenApi(page('/o', { json: { openapi: '3.0.3', info: {}, paths: {} } }))).toBe(true)
    expect(isOpenApi(page('/o', { json: { openapi: '3.1.0', info: {}, webhooks: {} } }))).toBe(true)
    expect(isOpenApi(page('/o', { json: { swagger: '2.0', info: {}, paths: {} } }))).toBe(true)
    expect(isOpenApi(page('/o', { json: { openapi: 'https://acme.test/openapi.json' } }))).toBe(false)
    expect(isOpenApi(page('/o', { json: { openapi: '3.1.0', info: {} } }))).toBe(false)
    expect(isOpenApi(page('/o', { json: { swagger: '1.2', info: {}, paths: {} } }))).toBe(false)
  })

  test('topicOf is where a page says what it is about: its final path, title and headings, not its body', () => {
    const topic = topicOf(
      page('/x', {
        finalUrl: 'https://acme.test/pages/price-list',
        title: 'Prices',
        headings: ['Plans'],
        text: 'unrelated words',
      }),
    )
    expect(topic).toContain('pages price list')
    expect(topic).toContain('Prices Plans')
    expect(topic).not.toContain('unrelated')
  })

  test('readable refuses app shells fetched without a browser, and empty pages', () => {
    expect(readable(page('/'))).toBe(true)
    expect(readable(page('/', { jsOnly: true }))).toBe(false)
    expect(readable(page('/', { jsOnly: true, fetchMethod: 'browser' }))).toBe(true)
    expect(readable(page('/', { text: '' }))).toBe(false)
  })

  test('isMarkdown: a markdown content type, or a .md name that is not HTML', () => {
    expect(isMarkdown(page('/docs', { contentType: 'text/markdown' }))).toBe(true)
    expect(isMarkdown(page('/docs.md', { contentType: 'text/plain' }))).toBe(true)
    expect(isMarkdown(page('/docs.md', { contentType: 'text/html' }))).toBe(false)
    expect(isMarkdown(page('/docs', { contentType: 'text/plain' }))).toBe(false)
  })

  test('hasUrl wants an absolute http(s) URL', () => {
    expect(hasUrl({ a: 'https://acme.test/token' }, 'a')).toBe(true)
    expect(hasUrl({ a: '/token' }, 'a')).toBe(false)
    expect(hasUrl({ a: 3 }, 'a')).toBe(false)
  })

  test('judgement cites every page found, names the first, and gives the answer they show', () => {
    const found = [page('/a', { stepId: 's3' }), page('/b', { stepId: 's5' })]
    const answer = (pages: readonly { url: string }[]) => ({ text: `${pages.length} pages`, source_url: pages[0]!.url })
    expect(judgement(found, (first) => `at ${first.url}`, 'none', answer)).toEqual({
      satisfied: true,
      reason: 'at https://acme.test/a',
      evidence: ['s3', 's5'],
      answer: { text: '2 pages', source_url: 'https://acme.test/a' },
    })
    expect(judgement([], () => 'x', 'none', answer)).toEqual({
      satisfied: false,
      reason: 'none',
      evidence: [],
      answer: null,
    })
  })
})
