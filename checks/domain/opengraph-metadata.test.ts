import { describe, expect, test } from 'bun:test'
import { context, sampledPageContext, htmlPage } from '../../tests/support/artifacts.ts'
import check from './opengraph-metadata.ts'

const TAGS = {
  title: '<meta property="og:title" content="Acme">',
  type: '<meta property="og:type" content="website">',
  image: '<meta property="og:image" content="https://acme.test/card.png">',
  url: '<meta property="og:url" content="https://acme.test/">',
  description: '<meta name="description" content="Anvils for agents">',
  canonical: '<link rel="canonical" href="https://acme.test/">',
}
const page = (...tags: string[]) =>
  htmlPage(`<html><head><title>Acme anvils</title>${tags.join('')}</head><body></body></html>`)

describe('opengraph-metadata', () => {
  test.each([
    ['all six', 'pass', page(...Object.values(TAGS))],
    [
      'og:* written with name= is accepted',
      'pass',
      page(...Object.values(TAGS).map((tag) => tag.replace('property=', 'name='))),
    ],
    ['three of six', 'warning', page(TAGS.title, TAGS.description, TAGS.canonical)],
    ['two of six', 'fail', page(TAGS.title, TAGS.image)],
    ['an empty content attribute does not count', 'fail', page('<meta property="og:title" content="  ">', TAGS.type)],
    // Content over presence: the report's own og:description and this check's meta description example, pasted as is.
    [
      'all six, but og:description is still the suggested template',
      'warning',
      page(...Object.values(TAGS), '<meta property="og:description" content="One sentence on what the page offers.">'),
    ],
    [
      "the meta description is still this check's example",
      'warning',
      page(
        ...Object.values(TAGS).slice(0, 4),
        TAGS.canonical,
        '<meta name="description" content="One sentence on what the site offers">',
      ),
    ],
  ] as const)('%s -> %s', (_name, expected, homepage) => {
    const outcome = check.run({ homepage }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('the recommendation writes the missing tags for this page', () => {
    const outcome = check.run({ homepage: page(TAGS.type, TAGS.image, TAGS.description) }, context)
    expect(outcome.recommendation).toContain('<meta property="og:title" content="Acme anvils">')
    expect(outcome.recommendation).toContain('<link rel="canonical" href="https://acme.test/">')
  })
})

describe('opengraph-metadata on a sampled page', () => {
  test("the fix names the page's <head>, not the homepage's", () => {
    expect(check.run({ homepage: page() }, sampledPageContext).recommendation).toStartWith(
      'Add to the page /docs/intro <head>:',
    )
    expect(check.run({ homepage: page() }, context).recommendation).toStartWith('Add to the homepage <head>:')
  })
})
