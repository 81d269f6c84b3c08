import { describe, expect, test } from 'bun:test'
import { context, sampledPageContext, htmlPage } from '../../tests/support/artifacts.ts'
import check from './semantic-html.ts'

const GOOD = `<!doctype html><html lang="en"><head><title>Acme</title></head><body>
<header><nav><a href="/docs">Docs</a></nav></header>
<main><h1>Acme</h1><h2>Features</h2><h3>Fast</h3><img src="a.png" alt="Dashboard"></main>
<footer>© Acme</footer></body></html>`

describe('semantic-html', () => {
  test.each([
    ['every sub-criterion met', 'pass', GOOD],
    [
      'no footer and no lang: still ≥ 80%',
      'pass',
      '<html><head><title>Acme</title></head><body><header><nav></nav></header><main><h1>Acme</h1></main></body></html>',
    ],
    [
      'several gaps (50–80%)',
      'warning',
      '<html lang="en"><head><title>Acme</title></head><body><h1>A</h1><h1>B</h1><h4>skip</h4><main><img src="x.png"></main></body></html>',
    ],
    [
      'a bare div soup',
      'fail',
      '<html><body><div role="button">Go</div><h2>x</h2><h4>y</h4><img src="a"><img src="b"></body></html>',
    ],
  ] as const)('%s -> %s', (_name, expected, html) => {
    const outcome = check.run({ homepage: htmlPage(html) }, context)
    expect(outcome.status).toBe(expected)
    expect(outcome.occurrences).toBe(8)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('the fraction is the share of sub-criteria met, and details name what is missing', () => {
    const outcome = check.run(
      {
        homepage: htmlPage(
          '<html lang="en"><head><title>Acme</title></head><body><h1>A</h1><h3>B</h3><main></main></body></html>',
        ),
      },
      context,
    )
    expect(outcome.fraction).toBeCloseTo(6 / 8)
    expect(outcome.details).toContain('headings skip from h1 to h3')
    expect(outcome.details).toContain('no <nav>, <header>, <footer>')
  })

  test('role="button" with tabindex is not misuse', () => {
    const outcome = check.run(
      { homepage: htmlPage(GOOD.replace('<main>', '<main><div role="button" tabindex="0">Go</div>')) },
      context,
    )
    expect(outcome.status).toBe('pass')
    expect(outcome.fraction).toBe(1)
  })
})

describe('semantic-html on a sampled page', () => {
  test('the fix names the page, not the homepage', () => {
    const bare = htmlPage('<html><body><div>Acme</div></body></html>')
    expect(check.run({ homepage: bare }, sampledPageContext).recommendation).toStartWith('On the page /docs/intro, ')
    expect(check.run({ homepage: bare }, context).recommendation).toStartWith('On the homepage, ')
  })
})
