import { describe, expect, test } from 'bun:test'
import type { ApiSignals } from '../../core/engine/collectors/api-signals.ts'
import type { LinkHeaderArtifact } from '../../core/engine/collectors/link-header.ts'
import type { Outcome } from '../../core/engine/check.ts'
import type { HtmlPage, HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, htmlPage, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './api-docs-linked.ts'

const apiSignals = (hasApi: boolean): ApiSignals => ({
  hasApi,
  rest: hasApi,
  graphql: false,
  reasons: hasApi ? ['homepage links to /api'] : [],
  hasAuth: false,
  authReasons: [],
})
const noLinks: LinkHeaderArtifact = { raw: null, links: [], targets: [] }
const homepage = htmlPage('<html><body><a href="/docs">Docs</a></body></html>')
const DOCS_TEXT = 'The Acme API lets you create anvils. '.repeat(20)
const docs = (body: string, overrides: Partial<HttpSnapshot> = {}) =>
  htmlPage(`<html><body>${body}</body></html>`, { url: 'https://acme.test/docs', ...overrides })

interface Inputs {
  hasApi?: boolean
  docsPage?: HtmlPage | null
  linkHeader?: LinkHeaderArtifact
  llmsTxt?: HttpSnapshot
  home?: HtmlPage
}

function run(inputs: Inputs) {
  return check.run(
    {
      apiSignals: apiSignals(inputs.hasApi ?? true),
      homepage: inputs.home ?? homepage,
      docsPage: inputs.docsPage ?? null,
      linkHeader: inputs.linkHeader ?? noLinks,
      llmsTxt: inputs.llmsTxt ?? notFound('https://acme.test/llms.txt'),
    },
    context,
  )
}

describe('api-docs-linked', () => {
  test.each<[string, Outcome['status'], Inputs]>([
    [
      'a server-rendered docs page',
      'pass',
      { docsPage: docs(`<main><h1>API reference</h1><p>${DOCS_TEXT}</p></main>`) },
    ],
    [
      'a reachable rel="service-doc" Link',
      'pass',
      {
        linkHeader: {
          ...noLinks,
          targets: [{ href: 'https://acme.test/reference', rel: ['service-doc'], status: 200 }],
        },
      },
    ],
    [
      'an llms.txt docs link',
      'pass',
      {
        llmsTxt: snapshot({
          url: 'https://acme.test/llms.txt',
          headers: { 'content-type': 'text/plain' },
          body: '# Acme\n\n## Docs\n- [API reference](https://acme.test/reference.md)\n',
        }),
      },
    ],
    [
      'docs that need JavaScript',
      'warning',
      { docsPage: docs('<div id="root"></div><script src="/app.js"></script>') },
    ],
    ['docs behind a login (401)', 'warning', { docsPage: docs('<p>Sign in</p>', { status: 401 }) }],
    [
      'docs redirected to a login page',
      'warning',
      {
        docsPage: docs('<form><input type="password"></form>', {
          url: 'https://acme.test/login',
          requestedUrl: 'https://acme.test/docs',
          redirects: [{ url: 'https://acme.test/docs', status: 302 }],
        }),
      },
    ],
    ['API signals but no docs anywhere', 'fail', {}],
    ['the linked docs page is a 404', 'fail', { docsPage: docs('<h1>Not found</h1>', { status: 404 }) }],
    ['no API signals', 'na', { hasApi: false }],
  ])('%s -> %s', (_name, expected, inputs) => {
    const outcome = run(inputs)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('an HTML soft 404 at /llms.txt is not a docs source', () => {
    const llmsTxt = snapshot({
      url: 'https://acme.test/llms.txt',
      headers: { 'content-type': 'text/html' },
      body: '<!doctype html><a href="/docs">[Docs](/docs)</a>',
    })
    expect(run({ llmsTxt }).status).toBe('fail')
  })
})
