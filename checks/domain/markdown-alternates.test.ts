import { describe, expect, test } from 'bun:test'
import type { MarkdownVariantsArtifact } from '../../core/engine/collectors/markdown.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context, sampledPageContext, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './markdown-alternates.ts'

type Probe = MarkdownVariantsArtifact['probes'][number]
const md = (url: string, contentType = 'text/markdown; charset=utf-8') =>
  snapshot({
    url,
    headers: { 'content-type': contentType },
    body: '# Acme\n\nAnvils for agents. See [docs](/docs/).\n',
  })
const htmlAt = (url: string) =>
  snapshot({ url, headers: { 'content-type': 'text/html' }, body: '<!doctype html><html><body>Home</body></html>' })
const conventional = (
  indexMd: Probe['response'],
  indexHtmlMd: Probe['response'] = notFound('https://acme.test/index.html.md'),
): Probe[] => [
  { url: 'https://acme.test/index.md', via: 'conventional', response: indexMd },
  { url: 'https://acme.test/index.html.md', via: 'conventional', response: indexHtmlMd },
]
const artifact = (
  probes: Probe[],
  advertised: MarkdownVariantsArtifact['advertised'] = [],
): MarkdownVariantsArtifact => ({ advertised, probes, docsNegotiation: null })

describe('markdown-alternates', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'recommended',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 3,
    })
  })

  test.each([
    [
      'advertised link element serving markdown',
      'pass',
      artifact(
        [
          { url: 'https://acme.test/home.md', via: 'link-element', response: md('https://acme.test/home.md') },
          ...conventional(notFound()),
        ],
        [{ href: 'https://acme.test/home.md', via: 'link-element' }],
      ),
    ],
    [
      'a conventional /index.html.md',
      'pass',
      artifact(conventional(notFound(), md('https://acme.test/index.html.md'))),
    ],
    [
      "llmstxt.org v2 (August 2026): a directory URL's /index.md is as valid as /index.html.md",
      'pass',
      artifact(conventional(md('https://acme.test/index.md'))),
    ],
    [
      'llmstxt.org v2 (August 2026): /guide.md in place of /guide.html is as valid as /guide.html.md',
      'pass',
      artifact([
        ...conventional(notFound()),
        {
          url: 'https://acme.test/guide.html.md',
          via: 'conventional',
          response: notFound('https://acme.test/guide.html.md'),
        },
        { url: 'https://acme.test/guide.md', via: 'conventional', response: md('https://acme.test/guide.md') },
      ]),
    ],
    [
      'text/plain markdown at /index.md',
      'pass',
      artifact(conventional(md('https://acme.test/index.md', 'text/plain'))),
    ],
    [
      'advertised in a Link header but answering HTML',
      'warning',
      artifact(
        [
          { url: 'https://acme.test/home.md', via: 'link-header', response: htmlAt('https://acme.test/home.md') },
          ...conventional(notFound()),
        ],
        [{ href: 'https://acme.test/home.md', via: 'link-header' }],
      ),
    ],
    ['nothing', 'fail', artifact(conventional(notFound()))],
    [
      'an SPA answering HTML everywhere',
      'fail',
      artifact(conventional(htmlAt('https://acme.test/index.md'), htmlAt('https://acme.test/index.html.md'))),
    ],
  ] as const)('%s -> %s', (_name, expected, markdownVariants) => {
    const outcome = check.run({ markdownVariants }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('probes that all failed are an error, not a fail', () => {
    const markdownVariants = artifact([
      { url: 'https://acme.test/index.md', via: 'conventional', response: null, error: 'timeout' },
    ])
    expect(check.run({ markdownVariants }, context).status).toBe('error')
  })

  test('details list what was tried', () => {
    const outcome = check.run({ markdownVariants: artifact(conventional(notFound())) }, context)
    expect(outcome.details).toContain('/index.md 404')
    expect(outcome.details).toContain('none advertised')
  })
})

describe('markdown-alternates on a sampled page', () => {
  test("the fix names the page, not the homepage's /index.html.md", () => {
    const markdownVariants = artifact(conventional(notFound()))
    const onPage = check.run({ markdownVariants }, sampledPageContext)
    expect(onPage.recommendation).toStartWith('Serve the page /docs/intro as markdown')
    expect(onPage.recommendation).not.toContain('homepage')
    expect(check.run({ markdownVariants }, context).recommendation).toStartWith(
      'Serve the homepage as markdown at /index.html.md',
    )
  })
})
