import { describe, expect, test } from 'bun:test'
import { parseRobots } from '../../core/engine/collectors/robots.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './content-signals.ts'

const robotsTxt = (body: string) =>
  parseRobots(snapshot({ url: 'https://acme.test/robots.txt', headers: { 'content-type': 'text/plain' }, body }))

describe('content-signals', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({ layer: 'accessibility', tier: 'recommended', maturity: 'verified', bonus: false, draft: true, maxScore: 4 })
  })

  test.each([
    ['Content-Signal', 'pass', 'User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n'],
    ["Cloudflare's use= key", 'pass', 'User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nAllow: /\n'],
    ['IETF Content-Usage', 'pass', 'User-agent: *\nContent-Usage: train-ai=n, search=y\nAllow: /\n'],
    ['scoped Content-Usage', 'pass', 'User-agent: *\nContent-Usage: /news/ train-ai=n\nAllow: /\n'],
    ['unknown key', 'warning', 'User-agent: *\nContent-Signal: search=yes, ai-everything=no\n'],
    ['wrong value', 'warning', 'User-agent: *\nContent-Signal: ai-train=maybe\n'],
    ['no =', 'warning', 'User-agent: *\nContent-Signal: search\n'],
    ['contradicts Disallow: /', 'warning', 'User-agent: *\nContent-Signal: search=yes\nDisallow: /\n'],
    ['no signal', 'fail', 'User-agent: *\nAllow: /\n'],
  ] as const)('%s -> %s', (_name, expected, body) => {
    const outcome = check.run({ robots: robotsTxt(body) }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('a refusal under Disallow: / is no contradiction', () => {
    expect(check.run({ robots: robotsTxt('User-agent: GPTBot\nContent-Signal: ai-train=no\nDisallow: /\n') }, context).status).toBe('pass')
  })

  test('no robots.txt -> na', () => {
    const outcome = check.run({ robots: parseRobots(notFound('https://acme.test/robots.txt')) }, context)
    expect(outcome.status).toBe('na')
    expect(outcome.naReason).toBeString()
  })

  test('details point at the faulty line', () => {
    expect(check.run({ robots: robotsTxt('User-agent: *\nAllow: /\nContent-Signal: ai-train=maybe\n') }, context).details).toContain('line 3')
  })
})
