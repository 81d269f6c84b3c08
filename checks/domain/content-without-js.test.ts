import { describe, expect, test } from 'bun:test'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context, sampledPageContext, htmlPage } from '../../tests/support/artifacts.ts'
import check from './content-without-js.ts'

const prose = (chars: number) => 'Acme builds anvils for agents. '.repeat(Math.ceil(chars / 31)).slice(0, chars)
const page = (body: string, status = 200) =>
  htmlPage(`<!doctype html><html><head><title>Acme</title></head><body>${body}</body></html>`, { status })
const richPage = page(`<h1>Acme anvils</h1><p>${prose(800)}</p><script>${'x'.repeat(5000)}</script>`)

describe('content-without-js', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'required',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 8,
    })
  })

  test('an empty shell stops fetch-based agents (its fail applies the block factor); thin content is only a warning', () => {
    expect(check.meta.stopsAgents).toBe(true)
    const shell = check.run(
      { homepage: page('<div id="root"></div><script src="/app.js"></script>'), docsPage: null },
      context,
    )
    expect(shell.recommendation).toContain('cannot reach grade B')
    const thin = check.run({ homepage: page(`<h1>Acme</h1><p>${prose(300)}</p>`), docsPage: null }, context)
    expect(thin.status).toBe('warning')
    expect(thin.recommendation).not.toContain('grade B')
  })

  test.each([
    ['server-rendered with an h1', 'pass', richPage],
    ['no h1 but a rich <main>', 'pass', page(`<main><p>${prose(600)}</p></main>`)],
    ['text but no h1', 'warning', page(`<div><p>${prose(700)}</p></div>`)],
    ['300 characters', 'warning', page(`<h1>Acme</h1><p>${prose(300)}</p>`)],
    ['empty app shell', 'fail', page('<div id="root"></div><script src="/app.js"></script>')],
    ['Next.js shell with a little chrome', 'fail', page(`<header>${prose(200)}</header><div id="__next"></div>`)],
    [
      'noscript notice only',
      'fail',
      page('<noscript>You need to enable JavaScript to run this app.</noscript><div id="app"></div>'),
    ],
    ['almost no text', 'fail', page('<h1>Acme</h1><p>Loading…</p>')],
    [
      "a web server's stock page",
      'fail',
      htmlPage(
        `<!doctype html><html><head><title>Welcome to nginx!</title></head><body><h1>Welcome to nginx!</h1><p>${prose(300)}</p></body></html>`,
      ),
    ],
    ['Apache\'s "It works!"', 'fail', htmlPage(`<html><body><h1>It works!</h1><p>${prose(200)}</p></body></html>`)],
    [
      'a page that only mentions nginx',
      'pass',
      page(`<h1>Welcome to nginx! A guide to tuning it</h1><p>${prose(800)}</p>`),
    ],
  ] as const)('%s -> %s', (_name, expected, homepage) => {
    const outcome = check.run({ homepage, docsPage: null }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test("a stock page's fix is to put the site up, not to server-render it", () => {
    const outcome = check.run(
      {
        homepage: htmlPage(
          '<html><head><title>Welcome to nginx!</title></head><body><h1>Welcome to nginx!</h1></body></html>',
        ),
        docsPage: null,
      },
      context,
    )
    expect(outcome.details).toContain('stock page ("Welcome to nginx!")')
    expect(outcome.recommendation).toStartWith("Replace the web server's default page")
    expect(outcome.recommendation).toContain('cannot reach grade B')
  })

  test('script and style text does not count', () => {
    const outcome = check.run(
      {
        homepage: page(`<h1>Acme</h1><style>${'a{}'.repeat(400)}</style><script>${'x'.repeat(3000)}</script>`),
        docsPage: null,
      },
      context,
    )
    expect(outcome.status).toBe('fail')
  })

  test('a JS-only docs page downgrades a good homepage to warning', () => {
    const docsPage = htmlPage('<html><body><div id="root"></div></body></html>', { url: 'https://acme.test/docs/' })
    const outcome = check.run({ homepage: richPage, docsPage }, context)
    expect(outcome.status).toBe('warning')
    expect(outcome.details).toContain('/docs/')
    expect(outcome.recommendation).toContain('/docs/')
  })

  test('a short but server-rendered docs page does not downgrade', () => {
    const docsPage = htmlPage(`<html><body><h1>Auth</h1><p>${prose(250)}</p></body></html>`, {
      url: 'https://acme.test/docs/auth',
    })
    expect(check.run({ homepage: richPage, docsPage }, context).status).toBe('pass')
  })

  test('details count the text and name the shell', () => {
    const outcome = check.run({ homepage: page('<div id="root"></div>'), docsPage: null }, context)
    expect(outcome.details).toContain('0 characters')
    expect(outcome.details).toContain('id="root"')
  })

  test('a 5xx homepage is an error, not a fail', () => {
    expect(check.run({ homepage: page('Service unavailable', 503), docsPage: null }, context).status).toBe('error')
  })

  test('the shared page is not modified', () => {
    const homepage = page(`<h1>Acme</h1><p>${prose(600)}</p><script>var a = 1</script>`)
    check.run({ homepage, docsPage: null }, context)
    expect(homepage.$('script').length).toBe(1)
  })
})

describe('content-without-js on a sampled page', () => {
  test('names the page, not the homepage, in its details and fix; the homepage wording stays', () => {
    const shell = page('<div id="root"></div><script src="/app.js"></script>')
    const onPage = check.run({ homepage: shell, docsPage: null }, sampledPageContext)
    expect(onPage.details).toStartWith('page /docs/intro:')
    expect(onPage.recommendation).toStartWith('Server-render the page /docs/intro:')
    expect(`${onPage.details} ${onPage.recommendation}`).not.toContain('homepage')
    const onHome = check.run({ homepage: shell, docsPage: null }, context)
    expect(onHome.details).toStartWith('homepage:')
    expect(onHome.recommendation).toStartWith('Server-render the homepage:')
  })
})
