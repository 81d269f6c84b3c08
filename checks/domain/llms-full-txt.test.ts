import { describe, expect, test } from 'bun:test'
import { context, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './llms-full-txt.ts'

const md = (path: string, body: string, status = 200, contentType = 'text/markdown') =>
  snapshot({ url: `https://acme.test${path}`, status, headers: { 'content-type': contentType }, body })

const index = md('/llms.txt', '# Acme\n\n> Anvils.\n\n## Docs\n- [API](https://acme.test/api.md)\n')
const full = md('/llms-full.txt', `# Acme\n\n${'Every page of the documentation, in full. '.repeat(20)}`)

describe('llms-full-txt', () => {
  test.each([
    ['larger than llms.txt, starts with H1', full, index, 'pass'],
    ['no llms.txt to compare with', full, notFound('https://acme.test/llms.txt'), 'pass'],
    ['404', notFound('https://acme.test/llms-full.txt'), index, 'fail'],
    ['HTML page', md('/llms-full.txt', '<!doctype html><html></html>', 200, 'text/html'), index, 'fail'],
    ['no H1', md('/llms-full.txt', 'Just text. '.repeat(30)), index, 'fail'],
    ['smaller than llms.txt', md('/llms-full.txt', '# Acme\n'), index, 'fail'],
    ['5xx', md('/llms-full.txt', 'oops', 502), index, 'error'],
    // The report's own template (core/report/remedies.ts), pasted without the documentation it asks for.
    [
      'the suggested template, unedited',
      md(
        '/llms-full.txt',
        `# acme.test\n\n> One sentence on what acme.test offers.\n\n## Getting started\n\n(the full text of each documentation page, in order)${' '.repeat(400)}`,
      ),
      notFound('https://acme.test/llms.txt'),
      'fail',
    ],
  ] as const)('%s -> %s', (_name, llmsFullTxt, llmsTxt, expected) => {
    const outcome = check.run({ llmsFullTxt, llmsTxt }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('is a bonus check', () => {
    expect(check.meta.bonus).toBe(true)
  })
})
