import { describe, expect, test } from 'bun:test'
import { parseRobots } from '../../core/engine/collectors/robots.ts'
import { checkMetaSchema, type Outcome } from '../../core/engine/check.ts'
import { context, htmlPage, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './content-signals.ts'

const robotsTxt = (body: string) =>
  parseRobots(snapshot({ url: 'https://acme.test/robots.txt', headers: { 'content-type': 'text/plain' }, body }))
const homepage = (headers: Record<string, string> = {}) =>
  htmlPage('<!doctype html><html lang="en"><title>Acme</title><main><h1>Acme</h1></main></html>', {
    headers: { 'content-type': 'text/html', ...headers },
  })
const run = (body: string | null, headers: Record<string, string> = {}) =>
  check.run(
    {
      robots: body === null ? parseRobots(notFound('https://acme.test/robots.txt')) : robotsTxt(body),
      homepage: homepage(headers),
    },
    context,
  )

describe('content-signals', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'recommended',
      maturity: 'verified',
      bonus: false,
      draft: true,
      maxScore: 4,
    })
  })

  test.each([
    ['Content-Signal', 'pass', 'User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n'],
    [
      "Cloudflare's use= key",
      'pass',
      'User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nAllow: /\n',
    ],
    ['unknown key', 'warning', 'User-agent: *\nContent-Signal: search=yes, ai-everything=no\n'],
    ['wrong value', 'warning', 'User-agent: *\nContent-Signal: ai-train=maybe\n'],
    ['no =', 'warning', 'User-agent: *\nContent-Signal: search\n'],
    ['contradicts Disallow: /', 'warning', 'User-agent: *\nContent-Signal: search=yes\nDisallow: /\n'],
    ['no signal', 'fail', 'User-agent: *\nAllow: /\n'],
  ] as const)('%s -> %s', (_name, expected, body) => {
    const outcome = run(body)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  // draft-ietf-aipref-vocab-07 and draft-ietf-aipref-attach-05, rule by rule.
  test.each([
    [
      'draft-ietf-aipref-attach-05 §3: a Content-Usage robots.txt line states the preference (pass)',
      'User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\n',
      {},
      'pass',
    ],
    [
      'draft-ietf-aipref-attach-05 §3.2: a path-scoped Content-Usage line is read (pass)',
      'User-agent: *\nAllow: /\nContent-Usage: /news/ train-ai=n\n',
      {},
      'pass',
    ],
    [
      'draft-ietf-aipref-attach-05 §3.2: a path-scoped line with train-ai=no is judged like any other (warning)',
      'User-agent: *\nAllow: /\nContent-Usage: /news/ train-ai=no\n',
      {},
      'warning',
    ],
    [
      'draft-ietf-aipref-attach-05 §2: the Content-Usage header of the homepage alone states the preference (pass)',
      'User-agent: *\nAllow: /\n',
      { 'content-usage': 'train-ai=n' },
      'pass',
    ],
    [
      'draft-ietf-aipref-attach-05 §2: the header counts even without a robots.txt (pass)',
      null,
      { 'content-usage': 'train-ai=n, search=y' },
      'pass',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.5: train-ai=no states no preference (warning)',
      'User-agent: *\nAllow: /\nContent-Usage: train-ai=no\n',
      {},
      'warning',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.5: a string "n" is not the token n (warning)',
      'User-agent: *\nAllow: /\nContent-Usage: train-ai="n"\n',
      {},
      'warning',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.5.1: Train-AI=n does not parse, keys are case-sensitive (warning)',
      'User-agent: *\nAllow: /\nContent-Usage: Train-AI=n\n',
      {},
      'warning',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.5.1: an upper-case key in the header does not parse (warning)',
      'User-agent: *\nAllow: /\n',
      { 'content-usage': 'Train-AI=n' },
      'warning',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.4: unknown labels are ignored, never an error (pass)',
      'User-agent: *\nAllow: /\nContent-Usage: train-ai=n, future-use=y;since=2027\n',
      {},
      'pass',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.4: a header with an unknown label beside train-ai passes',
      null,
      { 'content-usage': 'search=y, summarize=n' },
      'pass',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.1: a line with only dropped labels (train-genai, bots, ai-use) warns',
      'User-agent: *\nAllow: /\nContent-Usage: train-genai=n, bots=y, ai-use=n\n',
      {},
      'warning',
    ],
    [
      'draft-ietf-aipref-vocab-07 §6.1: a dropped label beside train-ai is ignored (pass)',
      'User-agent: *\nAllow: /\nContent-Usage: train-ai=n, train-genai=n\n',
      {},
      'pass',
    ],
  ] as const)('%s', (_name, body, headers, expected) => {
    const outcome = run(body, headers)
    expect(outcome.status).toBe(expected as Outcome['status'])
    if (expected !== 'pass') expect(outcome.recommendation).toContain('y or n')
  })

  test('a refusal under Disallow: / is no contradiction', () => {
    expect(run('User-agent: GPTBot\nContent-Signal: ai-train=no\nDisallow: /\n').status).toBe('pass')
  })

  test('a header granting train-ai is no contradiction of a group that disallows one crawler', () => {
    expect(
      run('User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n', { 'content-usage': 'train-ai=y' }).status,
    ).toBe('pass')
  })

  test('no robots.txt and no header -> na', () => {
    const outcome = run(null)
    expect(outcome.status).toBe('na')
    expect(outcome.naReason).toBeString()
  })

  test('details point at the faulty line or the header', () => {
    expect(run('User-agent: *\nAllow: /\nContent-Signal: ai-train=maybe\n').details).toContain('line 3')
    expect(run('User-agent: *\nAllow: /\n', { 'content-usage': 'train-ai=no' }).details).toContain(
      'the Content-Usage header of /',
    )
    expect(run('User-agent: *\nAllow: /\nContent-Usage: Train-AI=n\n').details).toContain('case-sensitive')
  })

  test('ignored labels are named, not judged', () => {
    const outcome = run('User-agent: *\nAllow: /\nContent-Usage: train-ai=n, future-use=y\n')
    expect(outcome.details).toContain('ignored: future-use')
  })

  test('issue 28: the fix says in one sentence that Lighthouse 12 calls the robots.txt line an unknown directive', () => {
    const outcome = run('User-agent: *\nAllow: /\n')
    expect(outcome.recommendation).toContain(
      "Lighthouse 12's robots.txt audit reports a Content-Signal or Content-Usage line as an unknown directive",
    )
    expect(check.meta.recommendation).toContain('Lighthouse 12')
  })
})
