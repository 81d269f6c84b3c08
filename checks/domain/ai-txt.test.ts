import { describe, expect, test } from 'bun:test'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './ai-txt.ts'

const aiTxt = (body: string, contentType = 'text/plain; charset=utf-8', status = 200) =>
  snapshot({ url: 'https://acme.test/ai.txt', status, headers: { 'content-type': contentType }, body })

describe('ai-txt', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'emerging',
      maturity: 'emerging',
      bonus: true,
      draft: true,
      maxScore: 1,
    })
  })

  test.each([
    [
      'robots-like records',
      'pass',
      aiTxt('# Spawning ai.txt\nUser-Agent: *\nDisallow: *.jpg\nDisallow: *.png\nAllow: /\n'),
    ],
    ['404', 'fail', notFound('https://acme.test/ai.txt')],
    ['HTML soft 404', 'fail', aiTxt('<!doctype html><html><body>Home</body></html>', 'text/html')],
    ['no records', 'fail', aiTxt('just some text\n')],
    ['wrong content type', 'fail', aiTxt('User-Agent: *\nDisallow: /\n', 'application/octet-stream')],
  ] as const)('%s -> %s', (_name, expected, response) => {
    const outcome = check.run({ aiTxt: response }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })
})
