import { describe, expect, test } from 'bun:test'
import type { MarkdownVariantsArtifact } from '../../core/engine/collectors/markdown.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, sampledPageContext, htmlPage, snapshot } from '../../tests/support/artifacts.ts'
import check from './markdown-negotiation.ts'

const MARKDOWN = '# Acme\n\n> Anvils for agents.\n\n- [Docs](https://acme.test/docs/)\n'
const HTML = '<!doctype html><html><body><h1>Acme</h1></body></html>'
const markdown = (
  headers: Record<string, string> = { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' },
  body = MARKDOWN,
  status = 200,
) => snapshot({ status, headers, body })
const html = snapshot({ headers: { 'content-type': 'text/html' }, body: HTML })
const homepage = htmlPage(HTML)
const variants = (docs?: HttpSnapshot): MarkdownVariantsArtifact => ({
  advertised: [],
  probes: [],
  docsNegotiation: docs ? { url: 'https://acme.test/docs/', response: docs } : null,
})

describe('markdown-negotiation', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'recommended',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 6,
    })
  })

  test.each([
    ['markdown with Vary: Accept', 'pass', markdown(), homepage, variants()],
    ['markdown on the docs page too', 'pass', markdown(), homepage, variants(markdown())],
    ['markdown without Vary', 'warning', markdown({ 'content-type': 'text/markdown' }), homepage, variants()],
    [
      'text/plain with a markdown body',
      'warning',
      markdown({ 'content-type': 'text/plain', vary: 'accept-encoding, accept' }),
      homepage,
      variants(),
    ],
    ['only the homepage negotiates', 'warning', markdown(), homepage, variants(html)],
    [
      'browsers get markdown too',
      'warning',
      markdown(),
      htmlPage(MARKDOWN, { headers: { 'content-type': 'text/markdown' } }),
      variants(),
    ],
    ['HTML returned', 'fail', html, homepage, variants()],
    [
      '406 on the homepage',
      'fail',
      markdown({ 'content-type': 'text/plain' }, 'Not Acceptable', 406),
      homepage,
      variants(),
    ],
    [
      'text/markdown label on an HTML body',
      'fail',
      markdown({ 'content-type': 'text/markdown', vary: 'Accept' }, HTML),
      homepage,
      variants(),
    ],
  ] as const)('%s -> %s', (_name, expected, markdownHome, page, markdownVariants) => {
    const outcome = check.run({ markdownHome, homepage: page, markdownVariants }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('details say what came back', () => {
    const outcome = check.run({ markdownHome: html, homepage, markdownVariants: variants() }, context)
    expect(outcome.details).toContain('200 text/html')
    const partial = check.run({ markdownHome: markdown(), homepage, markdownVariants: variants(html) }, context)
    expect(partial.details).toContain('/docs/')
  })

  test('a 5xx is an error', () => {
    expect(
      check.run({ markdownHome: markdown({}, 'oops', 502), homepage, markdownVariants: variants() }, context).status,
    ).toBe('error')
  })
})

describe('markdown-negotiation on a sampled page', () => {
  test('names the page, not the homepage', () => {
    const onPage = check.run({ markdownHome: html, homepage, markdownVariants: variants() }, sampledPageContext)
    expect(onPage.details).toStartWith('Asked for text/markdown, the page /docs/intro answered')
    expect(check.run({ markdownHome: html, homepage, markdownVariants: variants() }, context).details).toStartWith(
      'Asked for text/markdown, the homepage answered',
    )
  })
})
