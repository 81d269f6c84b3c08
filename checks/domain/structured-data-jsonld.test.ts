import { describe, expect, test } from 'bun:test'
import { context, htmlPage } from '../../tests/support/artifacts.ts'
import check from './structured-data-jsonld.ts'

const ld = (json: string, type = 'application/ld+json') => `<script type="${type}">${json}</script>`
const page = (head: string, body = '') => htmlPage(`<html><head>${head}</head><body>${body}</body></html>`)

const ORGANIZATION = JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'Organization',
  name: 'Acme',
  url: 'https://acme.test/',
})
const GRAPH = JSON.stringify({
  '@context': { '@vocab': 'https://schema.org/' },
  '@graph': [
    { '@type': 'WebSite', name: 'Acme' },
    { '@type': ['Organization', 'Corporation'], name: 'Acme Inc' },
  ],
})

describe('structured-data-jsonld', () => {
  test.each([
    ['an Organization block', 'pass', page(ld(ORGANIZATION))],
    [
      'an @graph with @type arrays and a media-type parameter',
      'pass',
      page(ld(GRAPH, 'application/ld+json; charset=utf-8')),
    ],
    ['a block wrapped in an HTML comment', 'pass', page(ld(`<!--${ORGANIZATION}-->`))],
    ['one good block and one that does not parse', 'warning', page(ld(ORGANIZATION) + ld('{"@type": "WebSite",}'))],
    [
      'microdata only',
      'warning',
      page('', '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Anvil</span></div>'),
    ],
    [
      'a typed block without a schema.org context',
      'warning',
      page(ld('{"@context":"https://example.org/vocab","@type":"Thing"}')),
    ],
    ['a block without @type', 'warning', page(ld('{"@context":"https://schema.org","name":"Acme"}'))],
    ['no structured data at all', 'fail', page('<title>Acme</title>')],
    ['every block broken', 'fail', page(ld('{not json'))],
  ] as const)('%s -> %s', (_name, expected, homepage) => {
    const outcome = check.run({ homepage }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('details name the types found', () => {
    expect(check.run({ homepage: page(ld(GRAPH)) }, context).details).toContain('WebSite, Organization, Corporation')
  })
})
