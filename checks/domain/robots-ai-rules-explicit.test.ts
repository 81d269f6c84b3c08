import { describe, expect, test } from 'bun:test'
import { parseRobots } from '../../core/engine/collectors/robots.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './robots-ai-rules-explicit.ts'

const robotsTxt = (body: string) =>
  parseRobots(snapshot({ url: 'https://acme.test/robots.txt', headers: { 'content-type': 'text/plain' }, body }))

describe('robots-ai-rules-explicit', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'recommended',
      maturity: 'verified',
      bonus: true,
      draft: false,
      maxScore: 2,
    })
  })

  test.each([
    ['a group naming an AI agent (any case)', 'pass', 'User-agent: gptbot\nDisallow: /\n\nUser-agent: *\nAllow: /\n'],
    ['a Content-Signal line', 'pass', 'User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n'],
    ['a Content-Usage line', 'pass', 'User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n'],
    ['only a wildcard group', 'fail', 'User-agent: *\nAllow: /\n'],
    ['only non-AI crawlers', 'fail', 'User-agent: Googlebot\nAllow: /\n'],
  ] as const)('%s -> %s', (_name, expected, body) => {
    const outcome = check.run({ robots: robotsTxt(body) }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('no robots.txt leaves the bonus unearned', () => {
    const outcome = check.run({ robots: parseRobots(notFound('https://acme.test/robots.txt')) }, context)
    expect(outcome.status).toBe('fail')
    expect(outcome.recommendation).toContain('robots.txt')
  })

  test('details name the AI tokens found', () => {
    expect(
      check.run({ robots: robotsTxt('User-agent: ClaudeBot\nUser-agent: OAI-SearchBot\nAllow: /\n') }, context).details,
    ).toContain('ClaudeBot, OAI-SearchBot')
  })
})
