import { describe, expect, test } from 'bun:test'
import type { LinkHeaderArtifact } from '../../core/engine/collectors/link-header.ts'
import { parseLinkHeader } from '../../core/engine/lib/links.ts'
import { context, sampledPageContext } from '../../tests/support/artifacts.ts'
import check from './link-headers.ts'

function header(raw: string | null, statuses: (number | null)[] = []): LinkHeaderArtifact {
  const links = parseLinkHeader(raw, 'https://acme.test/')
  return {
    raw,
    links,
    targets: statuses.map((status, index) => ({
      href: links[index]?.href ?? 'https://acme.test/x',
      rel: links[index]?.rel ?? [],
      status,
    })),
  }
}

const DISCOVERY =
  '</.well-known/api-catalog>; rel="api-catalog", </openapi.json>; rel="service-desc"; type="application/json"'

describe('link-headers', () => {
  test.each([
    ['discovery relations that resolve', header(DISCOVERY, [200, 200]), 'pass'],
    ['markdown alternate counts', header('</index.md>; rel="alternate"; type="text/markdown"', [200]), 'pass'],
    ['one target unreachable is not held against the site', header(DISCOVERY, [200, null]), 'pass'],
    ['a target answers 404', header(DISCOVERY, [200, 404]), 'warning'],
    [
      'only preload and preconnect',
      header('</app.css>; rel=preload; as=style, <https://cdn.test>; rel=preconnect'),
      'warning',
    ],
    ['no Link header', header(null), 'fail'],
    ['only non-discovery relations', header('<https://acme.test/>; rel="canonical"'), 'fail'],
    ['an alternate that is not markdown', header('</fr/>; rel="alternate"; hreflang="fr"'), 'fail'],
  ] as const)('%s -> %s', (_name, linkHeader, expected) => {
    const outcome = check.run({ linkHeader }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('details name the relations and the broken target', () => {
    const details = check.run({ linkHeader: header(DISCOVERY, [200, 404]) }, context).details
    expect(details).toContain('api-catalog → /.well-known/api-catalog')
    expect(details).toContain('/openapi.json (404)')
  })
})

describe('link-headers on a sampled page', () => {
  test('names the page, not the homepage', () => {
    const onPage = check.run({ linkHeader: header(null) }, sampledPageContext)
    expect(onPage.details).toBe('The page /docs/intro response has no Link header')
    expect(onPage.recommendation).toStartWith('Add a Link header to the page /docs/intro response')
    expect(check.run({ linkHeader: header(null) }, context).details).toBe('The homepage response has no Link header')
  })
})
