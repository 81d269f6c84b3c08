import { describe, expect, test } from 'bun:test'
import { htmlPage, target } from '../../../tests/support/artifacts.ts'
import type { CollectorContext } from '../check.ts'
import type { HtmlPage } from '../snapshot.ts'
import { nameFromTitle, siteIdentityCollector } from './site-identity.ts'

/** The collector reads only the homepage and the target: a context with just those is enough. */
function identify(page: HtmlPage, domain = target.domain) {
  const context = { target: { ...target, domain }, get: async () => page } as unknown as CollectorContext
  return siteIdentityCollector.collect(context)
}

const jsonLd = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`

describe('siteIdentity name', () => {
  test.each([
    [
      'og:site_name wins',
      '<meta property="og:site_name" content=" Acme  Anvils "><title>Buy | Something else</title>',
      'Acme Anvils',
    ],
    [
      'JSON-LD WebSite before Organization',
      `<title>Whatever</title>${jsonLd({
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'Organization', name: 'Acme, Inc.' },
          { '@type': 'WebSite', name: 'Acme' },
        ],
      })}`,
      'Acme',
    ],
    [
      'JSON-LD Organization',
      `<title>Whatever</title>${jsonLd({ '@context': 'https://schema.org', '@type': 'Organization', name: 'Acme Corp' })}`,
      'Acme Corp',
    ],
    ['title tagline trimmed', '<title>Acme | Anvils for every occasion</title>', 'Acme'],
    ['brand after a long tagline', '<title>The finest anvils money can buy - Acme</title>', 'Acme'],
    ['generic part skipped', '<title>Home — Anvil Works</title>', 'Anvil Works'],
    ['the part naming the domain wins over a shorter one', '<title>Shop: Acme Anvils</title>', 'Acme Anvils'],
    ['title without separators kept', '<title>Acme Anvil Works</title>', 'Acme Anvil Works'],
    ['no title: the domain', '<p>hello</p>', 'acme.test'],
    ['only a generic title: the domain', '<title>Home</title>', 'acme.test'],
  ] as const)('%s', async (_name, head, expected) => {
    const identity = await identify(htmlPage(`<html><head>${head}</head><body></body></html>`))
    expect(identity.name).toBe(expected)
  })

  test('a very long name is truncated', async () => {
    const identity = await identify(htmlPage(`<meta property="og:site_name" content="${'A'.repeat(300)}">`))
    expect(identity.name.length).toBe(100)
    expect(identity.name.endsWith('…')).toBe(true)
  })

  test('nameFromTitle matches the registrable label, not a subdomain or a country second level', () => {
    expect(nameFromTitle('Docs | Acme', 'docs.acme.co.uk')).toBe('Acme')
    expect(nameFromTitle('Welcome | Globex Corporation | Shop', 'globex.com')).toBe('Globex Corporation')
    expect(nameFromTitle('Home', 'acme.com')).toBeNull()
  })
})

describe('siteIdentity category', () => {
  test('classifies from title, description, JSON-LD and headings', async () => {
    const page = htmlPage(`<html><head>
      <title>Acme Online Store | Anvils and more</title>
      <meta name="description" content="Shop anvils with free shipping.">
      ${jsonLd({ '@context': 'https://schema.org', '@type': 'OnlineStore', name: 'Acme', slogan: 'The anvil shop' })}
      </head><body><h1>New arrivals</h1><p>Add to cart</p></body></html>`)
    const identity = await identify(page)
    expect(identity).toEqual({
      name: 'Acme',
      category: 'ecommerce-retail',
      categoryBasis: expect.stringContaining('ecommerce-retail scored'),
    })
    expect(identity.categoryBasis).toContain('JSON-LD @type OnlineStore')
  })

  test('script and style text is not read as body text, and the shared page is left untouched', async () => {
    const html = `<html><head><title>Acme</title></head><body><script>var news = "news news news news news news"</script><style>.news{}</style><p>Hello</p></body></html>`
    const page = htmlPage(html)
    const identity = await identify(page)
    expect(identity.category).toBeNull()
    expect(identity.categoryBasis).toContain('no category keywords')
    expect(page.$('script').length).toBe(1)
  })

  test('an unclassifiable page: null with a reason', async () => {
    const identity = await identify(
      htmlPage('<html><head><title>Acme</title></head><body><p>Hello world.</p></body></html>'),
    )
    expect(identity.category).toBeNull()
    expect(identity.categoryBasis.length).toBeGreaterThan(0)
  })

  test('an error page is not read: the domain is the name and there is no category', async () => {
    const page = htmlPage('<html><head><title>Just a moment... | Online Store</title></head></html>', { status: 403 })
    expect(await identify(page, 'shop.acme.test')).toEqual({
      name: 'shop.acme.test',
      category: null,
      categoryBasis: 'the homepage answered 403, so it was not read',
    })
  })
})
