// The judges on hand-built evidence: the edge cases the fixture sites do not have, mostly pages that look like
// the answer to a careless judge (a blog post quoting a price, a newsletter form, a CLI reference, a JSON link to
// an OpenAPI document) and must not count, next to the smallest page that does.
import { describe, expect, test } from 'bun:test'
import type { FetchedPage, JourneyEvidence } from '../types.ts'
import { fetchedPage } from '../../tests/support/journey-evidence.ts'
import { intentById } from './index.ts'

const ORIGIN = 'https://acme.test'

const page = (path: string, fields: Partial<FetchedPage> = {}) => fetchedPage(`${ORIGIN}${path}`, fields)

const evidence = (...pages: FetchedPage[]): JourneyEvidence => ({
  domain: 'acme.test',
  origin: ORIGIN,
  pages: pages.map((p, i) => ({ ...p, stepId: `s${i + 1}` })),
  disallowed: [],
})
const satisfied = (id: string, ...pages: FetchedPage[]) => intentById(id)!.judge([], evidence(...pages)).satisfied
const LONG =
  'Acme builds scheduling software for clinics: patients book online, staff see the day at a glance, and reminders go out by text. '.repeat(
    3,
  )

describe('find-pricing', () => {
  test('a page about plans with amounts is pricing', () => {
    expect(
      satisfied('find-pricing', page('/pricing', { title: 'Plans', text: 'Starter $9 per month, Pro $29 per month.' })),
    ).toBe(true)
    expect(satisfied('find-pricing', page('/plans', { title: 'Plans', text: 'Team: 12 € per seat.' }))).toBe(true)
  })

  test('"per seat" with no amount, the home page and llms.txt are not the pricing page (issue 23)', () => {
    expect(
      satisfied(
        'find-pricing',
        page('/pricing', { title: 'Pricing', text: 'Simple pricing: pay per seat, billed monthly. Contact sales.' }),
      ),
    ).toBe(false)
    expect(satisfied('find-pricing', page('/', { title: 'Acme pricing', text: 'Plans from $9 per month.' }))).toBe(
      false,
    )
    expect(
      satisfied(
        'find-pricing',
        page('/llms.txt', {
          contentType: 'text/plain',
          title: 'Acme',
          text: '# Acme\n\n- [Pricing](/pricing): from $9 per month',
        }),
      ),
    ).toBe(false)
  })

  test('a product page whose JSON-LD Offer states the price is pricing, and the answer quotes it', () => {
    const offer = { label: 'Trail Runner', amount: '189.00', currency: 'USD', period: null, from: 'jsonld' as const }
    const product = page('/products/trail-runner', {
      title: 'Trail Runner',
      text: 'A light shoe for long runs.',
      prices: [offer],
    })
    const judged = intentById('find-pricing')!.judge([], evidence(product))
    expect(judged).toMatchObject({
      satisfied: true,
      answer: {
        text: `Prices at ${ORIGIN}/products/trail-runner: Trail Runner: 189.00 USD.`,
        source_url: `${ORIGIN}/products/trail-runner`,
      },
    })
  })

  test('a blog post or a news story quoting an amount is not pricing', () => {
    expect(
      satisfied(
        'find-pricing',
        page('/posts/coffee', { title: 'My morning coffee', text: 'It costs $5 and is worth every cent.' }),
      ),
    ).toBe(false)
    expect(
      satisfied(
        'find-pricing',
        page('/news/budget', { title: 'Council passes budget', text: 'Bike lanes get $14 million.' }),
      ),
    ).toBe(false)
  })

  test('a pricing page without prices, a 404 and an app shell are not pricing', () => {
    expect(satisfied('find-pricing', page('/pricing', { title: 'Pricing', text: 'Contact sales for a quote.' }))).toBe(
      false,
    )
    expect(
      satisfied('find-pricing', page('/pricing', { status: 404, title: 'Pricing', text: 'From $9 per month' })),
    ).toBe(false)
    expect(satisfied('find-pricing', page('/pricing', { jsOnly: true, title: 'Pricing', text: '$9/mo' }))).toBe(false)
  })
})

describe('evaluate-product', () => {
  test('a home page with a title and a real description', () => {
    expect(satisfied('evaluate-product', page('/', { title: 'Acme', text: LONG }))).toBe(true)
  })

  test('llms.txt with an H1 and a summary', () => {
    const text = '# Acme\n\n> Acme builds scheduling software for clinics and their patients.\n\n## Docs\n'
    expect(satisfied('evaluate-product', page('/llms.txt', { contentType: 'text/plain', title: 'Acme', text }))).toBe(
      true,
    )
    expect(satisfied('evaluate-product', page('/llms.txt', { contentType: 'text/html', title: 'Acme', text }))).toBe(
      false,
    )
  })

  test('an app shell, a bare title or a long blog post are not a product description', () => {
    expect(satisfied('evaluate-product', page('/', { title: 'Acme', jsOnly: true, text: 'Loading' }))).toBe(false)
    expect(satisfied('evaluate-product', page('/', { title: 'Acme', text: 'Welcome to Acme.' }))).toBe(false)
    expect(satisfied('evaluate-product', page('/posts/a-long-walk', { title: 'A long walk', text: LONG }))).toBe(false)
  })
})

describe('find-support', () => {
  test('an address on a contact page, or a contact form', () => {
    expect(
      satisfied(
        'find-support',
        page('/contact', { title: 'Contact us', text: 'Write to help@acme.test, we answer within a day.' }),
      ),
    ).toBe(true)
    const form = { action: `${ORIGIN}/contact`, method: 'post', fields: ['email:email', 'message'] }
    expect(satisfied('find-support', page('/', { title: 'Acme', text: LONG, forms: [form] }))).toBe(true)
  })

  test('a mailto: link or a JSON-LD contact email on any page', () => {
    expect(satisfied('find-support', page('/', { title: 'Acme', text: LONG, emails: ['support@acme.test'] }))).toBe(
      true,
    )
  })

  test('a newsletter form, or an address in a blog post, is not support', () => {
    const newsletter = { action: `${ORIGIN}/subscribe`, method: 'post', fields: ['email:email', 'topic'] }
    expect(satisfied('find-support', page('/', { title: 'Acme', text: LONG, forms: [newsletter] }))).toBe(false)
    expect(
      satisfied(
        'find-support',
        page('/posts/git-tips', { title: 'Git tips', text: 'Set user.email to you@example.com first.' }),
      ),
    ).toBe(false)
  })
})

describe('find-terms', () => {
  test('a legal page that talks about data and use', () => {
    expect(
      satisfied(
        'find-terms',
        page('/legal', {
          title: 'Terms and privacy',
          text: 'We keep the personal data needed to ship and support your order, for as long as the law requires, and never sell it.',
        }),
      ),
    ).toBe(true)
  })

  test('terms alone do not settle the task: the answer wants the privacy notice too', () => {
    const intent = intentById('find-terms')!
    const terms = page('/terms', {
      title: 'Terms of service',
      text: 'These terms of service govern your use of Acme and its API. Governing law: the State of Delaware.',
    })
    expect(intent.judge([], evidence(terms))).toMatchObject({ satisfied: true, settled: false })
    const privacy = page('/privacy', {
      title: 'Privacy policy',
      text: 'We collect your email address and process personal data only to run the service for you.',
    })
    expect(intent.judge([], evidence(terms, privacy))).toMatchObject({
      settled: true,
      answer: { text: `Terms: ${ORIGIN}/terms; Privacy: ${ORIGIN}/privacy.` },
    })
  })

  test('an empty shell or a page merely titled Terms is not', () => {
    expect(satisfied('find-terms', page('/terms', { title: 'Acme', jsOnly: true, text: 'Loading' }))).toBe(false)
    expect(
      satisfied(
        'find-terms',
        page('/terms', {
          title: 'Terms',
          text: 'Coming soon. We are working on this page, check back next month please.',
        }),
      ),
    ).toBe(false)
  })
})

describe('find-api-reference and find-openapi', () => {
  const openapi = { openapi: '3.1.0', info: { title: 'Acme', version: '1' }, paths: { '/widgets': { get: {} } } }

  test('a developer page documenting endpoints with their parameters is an API reference; an OpenAPI or GraphQL description is too', () => {
    expect(
      satisfied(
        'find-api-reference',
        page('/docs', { title: 'API docs', text: 'GET /v1/appointments/{id} returns one appointment.' }),
      ),
    ).toBe(true)
    expect(
      satisfied(
        'find-api-reference',
        page('/docs/api', {
          title: 'API reference',
          text: 'GET /v1/appointments lists appointments. Query parameters: date (string, required), limit (integer, optional).',
        }),
      ),
    ).toBe(true)
    const sdl = page('/schema.graphql', {
      contentType: 'application/graphql',
      text: 'type Query { appointments(date: String!): [Appointment!]! }',
    })
    expect(satisfied('find-api-reference', sdl)).toBe(true)
    expect(
      satisfied('find-api-reference', page('/openapi.json', { contentType: 'application/json', json: openapi })),
    ).toBe(true)
    expect(satisfied('find-openapi', page('/openapi.json', { contentType: 'application/json', json: openapi }))).toBe(
      true,
    )
    expect(
      satisfied(
        'find-openapi',
        page('/swagger.yaml', { contentType: 'application/yaml', json: { swagger: '2.0', info: {}, paths: {} } }),
      ),
    ).toBe(true)
  })

  test('an endpoint named without parameters, or the home page mentioning one, is not an API reference (issue 23)', () => {
    expect(
      satisfied(
        'find-api-reference',
        page('/docs', { title: 'API docs', text: 'GET /v1/appointments lists appointments.' }),
      ),
    ).toBe(false)
    expect(
      satisfied(
        'find-api-reference',
        page('/', {
          title: 'Geocoding API',
          text: 'Call GET /v1/geocode?q=Paris and get coordinates back. Query parameters: q (string, required).',
        }),
      ),
    ).toBe(false)
  })

  test('an OpenAPI document satisfies the task, but does not settle it: a reference page may still be found', () => {
    const intent = intentById('find-api-reference')!
    const machine = intent.judge(
      [],
      evidence(page('/openapi.json', { contentType: 'application/json', json: openapi })),
    )
    expect(machine).toMatchObject({ satisfied: true, settled: false, answer: { source_url: `${ORIGIN}/openapi.json` } })
    const both = intent.judge(
      [],
      evidence(
        page('/openapi.json', { contentType: 'application/json', json: openapi }),
        page('/docs', { title: 'API reference', text: 'GET /widgets/{id} returns a widget.' }),
      ),
    )
    expect(both).toMatchObject({
      satisfied: true,
      settled: true,
      answer: { text: `API reference: ${ORIGIN}/docs; OpenAPI: ${ORIGIN}/openapi.json.`, source_url: `${ORIGIN}/docs` },
    })
  })

  test('a CLI command reference is not an API reference', () => {
    expect(
      satisfied(
        'find-api-reference',
        page('/reference/commands', {
          title: 'Command reference',
          text: 'quarry run FILE runs a pipeline. quarry check FILE validates it.',
        }),
      ),
    ).toBe(false)
  })

  test('a JSON index linking to the OpenAPI document, or a page about it, is not the document', () => {
    expect(
      satisfied(
        'find-openapi',
        page('/api', {
          contentType: 'application/json',
          json: { name: 'Acme API', openapi: `${ORIGIN}/openapi.json` },
        }),
      ),
    ).toBe(false)
    expect(
      satisfied(
        'find-openapi',
        page('/docs', { title: 'OpenAPI', text: 'Our OpenAPI 3.1 description lives at /openapi.json.' }),
      ),
    ).toBe(false)
    expect(
      satisfied('find-openapi', page('/openapi.json', { status: 404, contentType: 'application/json', json: openapi })),
    ).toBe(false)
  })
})

describe('read-docs-markdown', () => {
  const md = (path: string, title: string, contentType = 'text/markdown') =>
    page(path, { contentType, title, headings: [title], text: `# ${title}\n\n${LONG}` })

  test('a docs page as Markdown, negotiated or as a .md alternate', () => {
    expect(satisfied('read-docs-markdown', md('/getting-started.md', 'Getting started'))).toBe(true)
    expect(satisfied('read-docs-markdown', md('/docs', 'Developer documentation'))).toBe(true)
  })

  test('llms.txt, the home page in Markdown, HTML under a .md name and HTML docs are not', () => {
    expect(satisfied('read-docs-markdown', md('/llms.txt', 'Acme docs', 'text/plain'))).toBe(false)
    expect(satisfied('read-docs-markdown', md('/index.md', 'Acme'))).toBe(false)
    expect(satisfied('read-docs-markdown', md('/docs.md', 'Docs', 'text/html'))).toBe(false)
    expect(satisfied('read-docs-markdown', md('/docs', 'Docs', 'text/html'))).toBe(false)
  })
})

describe('find-agent-access', () => {
  const robots = (text: string, contentType = 'text/plain') => page('/robots.txt', { contentType, text })

  test('robots.txt groups for named AI agents, llms.txt, an MCP server card, an A2A card', () => {
    expect(satisfied('find-agent-access', robots('User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n'))).toBe(
      true,
    )
    expect(
      satisfied(
        'find-agent-access',
        page('/llms.txt', { contentType: 'text/plain', text: '# Acme\n\n> Scheduling.\n' }),
      ),
    ).toBe(true)
    const card = { name: 'acme/scheduling', remotes: [{ type: 'streamable-http', url: `${ORIGIN}/mcp` }] }
    expect(
      satisfied(
        'find-agent-access',
        page('/.well-known/mcp/server-card.json', { contentType: 'application/json', json: card }),
      ),
    ).toBe(true)
    expect(
      satisfied(
        'find-agent-access',
        page('/.well-known/agent-card.json', {
          contentType: 'application/json',
          json: { name: 'Acme agent', skills: [] },
        }),
      ),
    ).toBe(true)
  })

  test('robots.txt rules alone do not settle it; the answer leads with the MCP endpoint a server card names', () => {
    const intent = intentById('find-agent-access')!
    const rules = robots('User-agent: GPTBot\nDisallow: /\n')
    expect(intent.judge([], evidence(rules))).toMatchObject({ satisfied: true, settled: false })
    const card = page('/.well-known/mcp/server-card.json', {
      contentType: 'application/json',
      json: { name: 'acme', remotes: [{ type: 'streamable-http', url: `${ORIGIN}/mcp` }] },
    })
    const both = intent.judge([], evidence(rules, card))
    expect(both).toMatchObject({ settled: true, answer: { source_url: `${ORIGIN}/.well-known/mcp/server-card.json` } })
    expect(both.answer!.text).toStartWith(`Agent entry points: MCP endpoint ${ORIGIN}/mcp`)
  })

  test('a `*`-only robots.txt, robots.txt or llms.txt served as HTML, a card without an endpoint are not', () => {
    expect(satisfied('find-agent-access', robots('User-agent: *\nAllow: /\n# GPTBot is welcome too\n'))).toBe(false)
    expect(satisfied('find-agent-access', robots('User-agent: GPTBot\nDisallow: /\n', 'text/html'))).toBe(false)
    expect(
      satisfied('find-agent-access', page('/llms.txt', { contentType: 'text/html', text: 'Acme We sell things.' })),
    ).toBe(false)
    expect(
      satisfied(
        'find-agent-access',
        page('/.well-known/mcp.json', { contentType: 'application/json', json: { error: 'not found' } }),
      ),
    ).toBe(false)
  })
})

describe('authenticate', () => {
  const json = (path: string, body: unknown) => page(path, { contentType: 'application/json', json: body })

  test('authorization server metadata with a token endpoint, or protected resource metadata', () => {
    expect(
      satisfied(
        'authenticate',
        json('/.well-known/openid-configuration', { issuer: ORIGIN, token_endpoint: `${ORIGIN}/oauth/token` }),
      ),
    ).toBe(true)
    expect(
      satisfied(
        'authenticate',
        json('/.well-known/oauth-protected-resource', { resource: `${ORIGIN}/api`, authorization_servers: [ORIGIN] }),
      ),
    ).toBe(true)
  })

  test('protected resource metadata alone does not settle the task: the answer wants the token endpoint', () => {
    const intent = intentById('authenticate')!
    const resource = json('/.well-known/oauth-protected-resource', {
      resource: `${ORIGIN}/api`,
      authorization_servers: [ORIGIN],
    })
    expect(intent.judge([], evidence(resource))).toMatchObject({ satisfied: true, settled: false })
    const server = json('/.well-known/oauth-authorization-server', {
      issuer: ORIGIN,
      token_endpoint: `${ORIGIN}/oauth/token`,
    })
    const both = intent.judge([], evidence(resource, server))
    expect(both).toMatchObject({
      satisfied: true,
      settled: true,
      answer: { source_url: `${ORIGIN}/.well-known/oauth-authorization-server` },
    })
    expect(both.answer!.text).toStartWith(`OAuth issuer ${ORIGIN}; token endpoint ${ORIGIN}/oauth/token`)
  })

  test('an issuer without a token endpoint, a resource without servers, or a login page are not', () => {
    expect(satisfied('authenticate', json('/.well-known/openid-configuration', { issuer: ORIGIN }))).toBe(false)
    expect(
      satisfied(
        'authenticate',
        json('/.well-known/oauth-protected-resource', { resource: `${ORIGIN}/api`, authorization_servers: [] }),
      ),
    ).toBe(false)
    expect(
      satisfied(
        'authenticate',
        page('/login', { title: 'Sign in', text: 'Sign in with OAuth. Token endpoint: /oauth/token' }),
      ),
    ).toBe(false)
  })
})

describe('transact', () => {
  const requirements = { x402Version: 2, accepts: [{ scheme: 'exact', network: 'eip155:84532', amount: '10000' }] }

  test('an x402 challenge, in the header or the body; ACP discovery; a UCP profile', () => {
    const header = Buffer.from(JSON.stringify(requirements)).toString('base64')
    expect(
      satisfied(
        'transact',
        page('/api/report', {
          status: 402,
          contentType: 'application/problem+json',
          headers: { 'payment-required': header },
        }),
      ),
    ).toBe(true)
    expect(
      satisfied('transact', page('/api/report', { status: 402, contentType: 'application/json', json: requirements })),
    ).toBe(true)
    const acp = { protocol: { name: 'acp', version: '2026-04-17' }, api_base_url: `${ORIGIN}/api/acp` }
    expect(satisfied('transact', page('/.well-known/acp.json', { contentType: 'application/json', json: acp }))).toBe(
      true,
    )
    const ucp = { ucp: { version: '2026-04-08', services: { 'dev.ucp.shopping': [] } } }
    expect(satisfied('transact', page('/.well-known/ucp', { contentType: 'application/json', json: ucp }))).toBe(true)
  })

  test('a paywall 402 without requirements, a 404 at acp.json, a product page with a price are not', () => {
    expect(
      satisfied(
        'transact',
        page('/premium', { status: 402, title: 'Subscribe to read', text: 'Subscribe for $5 a month.' }),
      ),
    ).toBe(false)
    expect(
      satisfied(
        'transact',
        page('/.well-known/acp.json', {
          status: 404,
          contentType: 'application/json',
          json: { protocol: { name: 'acp' }, api_base_url: ORIGIN },
        }),
      ),
    ).toBe(false)
    expect(satisfied('transact', page('/products/widget', { title: 'Widget', text: 'Price: $49. Add to cart.' }))).toBe(
      false,
    )
  })
})
