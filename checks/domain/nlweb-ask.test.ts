import { describe, expect, test } from 'bun:test'
import type { Outcome } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, jsonSnapshot, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './nlweb-ask.ts'

const URL = 'https://acme.test/ask?query=test'
const RESULT = { '@type': 'Product', name: 'Anvil', url: 'https://acme.test/anvil' }
const SSE = [
  'data: {"message_type": "begin-nlweb-response", "query": "test"}',
  '',
  `data: {"message_type": "result_batch", "results": [${JSON.stringify(RESULT)}]}`,
  '',
  '',
].join('\n')

describe('nlweb-ask', () => {
  test.each([
    ['JSON results', jsonSnapshot({ query_id: 'q1', results: [RESULT] }, { url: URL }), 'pass'],
    [
      'v0.54 answer',
      jsonSnapshot({ _meta: { response_type: 'answer', version: '0.54' }, results: [] }, { url: URL }),
      'pass',
    ],
    ['streamed results', snapshot({ url: URL, headers: { 'content-type': 'text/event-stream' }, body: SSE }), 'pass'],
    ['404', notFound(URL), 'fail'],
    [
      'an HTML page',
      snapshot({ url: URL, headers: { 'content-type': 'text/html' }, body: '<!doctype html><html></html>' }),
      'fail',
    ],
    ['JSON that is not NLWeb', jsonSnapshot({ answer: 'hello' }, { url: URL }), 'fail'],
  ] satisfies [string, HttpSnapshot, Outcome['status']][])('%s -> %s', (_name, nlweb, expected) => {
    const outcome = check.run({ nlweb }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('details count the results', () => {
    expect(check.run({ nlweb: jsonSnapshot({ results: [RESULT, RESULT] }, { url: URL }) }, context).details).toContain(
      '2 item(s)',
    )
  })
})
