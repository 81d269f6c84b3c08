import { describe, expect, test } from 'bun:test'
import { parseRobots } from '../../core/engine/collectors/robots.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context, htmlPage, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './robots-ai-agents-allowed.ts'

const robotsTxt = (body: string, status = 200) =>
  parseRobots(
    snapshot({ url: 'https://acme.test/robots.txt', status, headers: { 'content-type': 'text/plain' }, body }),
  )

const llmsTxt = snapshot({
  url: 'https://acme.test/llms.txt',
  headers: { 'content-type': 'text/plain' },
  body: '# Acme\n',
})
const docsPage = htmlPage('<h1>Docs</h1>', { url: 'https://acme.test/docs/' })
const commerceSignals = {
  isCommerce: true,
  reasons: [],
  productUrls: ['https://acme.test/products/anvil'],
  pricingUrl: null,
}
const artifacts = (robots: ReturnType<typeof robotsTxt>) => ({ robots, llmsTxt, docsPage, commerceSignals })

describe('robots-ai-agents-allowed', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'required',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 10,
    })
  })

  test.each([
    ['allow all', 'pass', 'User-agent: *\nAllow: /\n'],
    [
      'training blocked only',
      'pass',
      'User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    ],
    ['an AI search bot blocked', 'warning', 'User-agent: PerplexityBot\nDisallow: /\n'],
    ['a user agent blocked on the docs', 'warning', 'User-agent: Claude-User\nDisallow: /docs/\n'],
    ['a user agent blocked on a product page', 'warning', 'User-agent: ChatGPT-User\nDisallow: /products/\n'],
    ['slow crawl delay', 'warning', 'User-agent: *\nCrawl-delay: 60\nAllow: /\n'],
    // The six others carry 40 % of assistant fetches: far above the tenth that stops agents.
    [
      'wildcard disallow with an override for ChatGPT-User only',
      'fail',
      'User-agent: ChatGPT-User\nAllow: /\n\nUser-agent: *\nDisallow: /\n',
    ],
    [
      'the main assistants and the AI search bots disallowed',
      'fail',
      'User-agent: ChatGPT-User\nUser-agent: Claude-User\nUser-agent: Perplexity-User\nUser-agent: OAI-SearchBot\nUser-agent: Claude-SearchBot\nUser-agent: PerplexityBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    ],
    ['ChatGPT-User alone disallowed', 'fail', 'User-agent: ChatGPT-User\nDisallow: /\n'],
    ['Claude-User alone disallowed', 'fail', 'User-agent: Claude-User\nDisallow: /\n'],
    ['a minor assistant disallowed', 'warning', 'User-agent: DuckAssistBot\nDisallow: /\n'],
    [
      'every training crawler disallowed',
      'pass',
      'User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\nUser-agent: Google-Extended\nUser-agent: Applebot-Extended\nUser-agent: meta-externalagent\nUser-agent: Bytespider\nDisallow: /\n',
    ],
    ['wildcard disallow', 'fail', 'User-agent: *\nDisallow: /\n'],
    [
      'every user agent named and disallowed',
      'fail',
      'User-agent: ChatGPT-User\nUser-agent: Claude-User\nUser-agent: Perplexity-User\nUser-agent: MistralAI-User\nUser-agent: DuckAssistBot\nUser-agent: Google-Agent\nUser-agent: Meta-ExternalFetcher\nDisallow: /\n',
    ],
  ] as const)('%s -> %s', (_name, expected, body) => {
    const outcome = check.run(artifacts(robotsTxt(body)), context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('a refusal too small to stop agents costs points by the traffic it turns away', () => {
    const fraction = (body: string) => check.run(artifacts(robotsTxt(body)), context).fraction!
    const minor = fraction('User-agent: DuckAssistBot\nDisallow: /\n')
    const search = fraction(
      'User-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nUser-agent: Claude-SearchBot\nUser-agent: Applebot\nUser-agent: Amzn-SearchBot\nDisallow: /\n',
    )
    expect(minor).toBeGreaterThan(0.95)
    expect(search).toBe(0.5)
    expect(check.run(artifacts(robotsTxt('User-agent: DuckAssistBot\nDisallow: /\n')), context).details).toContain(
      'about 2 % of assistant fetches',
    )
  })

  test('the fail names the refused agents and their share of assistant fetches', () => {
    const outcome = check.run(
      artifacts(
        robotsTxt('User-agent: ChatGPT-User\nUser-agent: Claude-User\nUser-agent: Perplexity-User\nDisallow: /\n'),
      ),
      context,
    )
    expect(outcome.details).toStartWith(
      'User-initiated AI agents carrying about 85 % of assistant fetches are disallowed on /: ChatGPT-User, Claude-User, Perplexity-User',
    )
    expect(outcome.recommendation).toStartWith(
      'Remove ChatGPT-User, Claude-User, Perplexity-User from the robots.txt group that disallows them',
    )
    expect(outcome.recommendation).toContain('cannot reach grade B')
    const wildcard = check.run(artifacts(robotsTxt('User-agent: *\nDisallow: /\n')), context)
    expect(wildcard.details).toContain('AI search crawlers too: OAI-SearchBot')
    expect(wildcard.recommendation).toContain('"Allow: /" before the rules in the "User-agent: *" group')
    expect(wildcard.recommendation).not.toContain('\\n')
  })

  test('no robots.txt means no restrictions', () => {
    const outcome = check.run(artifacts(parseRobots(notFound('https://acme.test/robots.txt'))), context)
    expect(outcome.status).toBe('pass')
    expect(outcome.details).toContain('No robots.txt')
  })

  test('a 5xx robots.txt is a complete disallow', () => {
    const outcome = check.run(artifacts(robotsTxt('oops', 503)), context)
    expect(outcome.status).toBe('fail')
    expect(outcome.details).toContain('disallow everything')
  })

  test('details name what is blocked and where; training blocks are noted, not penalised', () => {
    const outcome = check.run(
      artifacts(robotsTxt('User-agent: GPTBot\nDisallow: /\n\nUser-agent: Claude-User\nDisallow: /docs/\n')),
      context,
    )
    expect(outcome.details).toContain('Claude-User on /docs/')
    expect(outcome.details).toContain('GPTBot')
    expect(outcome.recommendation).toContain('User-agent: Claude-User')
  })

  test('pages on another origin are not judged by this robots.txt', () => {
    const docsElsewhere = htmlPage('<h1>Docs</h1>', { url: 'https://docs.acme.test/guide' })
    const robots = robotsTxt('User-agent: *\nDisallow: /guide\n')
    expect(check.run({ ...artifacts(robots), docsPage: docsElsewhere }, context).status).toBe('pass')
  })
})
