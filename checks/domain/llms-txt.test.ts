import { describe, expect, test } from 'bun:test'
import type { LlmsTxtArtifact, LlmsTxtLinksArtifact } from '../../core/engine/collectors/llms-txt.ts'
import { REMEDIES } from '../../core/report/remedies.ts'
import { context, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './llms-txt.ts'

const GOOD = `# Acme

> Acme sells anvils and publishes its catalog and API docs for agents.

Acme ships worldwide.

## Docs

- [API reference](https://acme.test/docs/api.md): every endpoint
- [Catalog](https://acme.test/catalog.md)

## Optional

- [Blog](https://acme.test/blog.md)
`

const llms = (body: string, contentType = 'text/markdown; charset=utf-8', status = 200) =>
  snapshot({ url: 'https://acme.test/llms.txt', status, headers: { 'content-type': contentType }, body })

const NO_LINKS: LlmsTxtLinksArtifact = { total: 0, probes: [] }
const run = (llmsTxt: LlmsTxtArtifact, llmsTxtLinks = NO_LINKS) => check.run({ llmsTxt, llmsTxtLinks }, context)

describe('llms-txt', () => {
  test.each([
    ['well-formed markdown', llms(GOOD), 'pass'],
    ['text/plain is fine', llms(GOOD, 'text/plain'), 'pass'],
    ['no blockquote', llms(GOOD.replace(/^>.*$/m, '')), 'warning'],
    ['served as text/html with a markdown body', llms(GOOD, 'text/html'), 'warning'],
    ['H1 only, no links', llms('# Acme\n\n> Anvils, anvils and more anvils for everyone.\n'), 'warning'],
    ['over 1 MiB', { ...llms(GOOD), truncated: true }, 'warning'],
    ['404', notFound('https://acme.test/llms.txt'), 'fail'],
    ['HTML page', llms('<!doctype html><html><body>Home</body></html>', 'text/html'), 'fail'],
    ['no H1', llms('Acme\n\n## Docs\n- [API](https://acme.test/api)\n'), 'fail'],
    ['H1 not first', llms('Intro line\n# Acme\n'), 'fail'],
    ['5xx', llms('oops', 'text/plain', 503), 'error'],
  ] as const)('%s -> %s', (_name, llmsTxt, expected) => {
    const outcome = check.run({ llmsTxt, llmsTxtLinks: NO_LINKS }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('details count sections and links', () => {
    expect(check.run({ llmsTxt: llms(GOOD), llmsTxtLinks: NO_LINKS }, context).details).toContain('3 link(s)')
  })

  test('headings inside code fences do not count', () => {
    expect(
      check.run({ llmsTxt: llms('```\n# not a heading\n```\n# Acme\n'), llmsTxtLinks: NO_LINKS }, context).status,
    ).toBe('fail')
  })

  test('llmstxt.org v2 (August 2026): H1 + summary + links without H2 passes', () => {
    const outcome = run(
      llms('# Acme\n\n> Anvils for everyone, shipped worldwide.\n\nSee [docs](https://acme.test/docs).\n'),
    )
    expect(outcome.status).toBe('pass')
    expect(outcome.details).toContain('0 H2 section(s)')
  })

  test('llmstxt.org v2 (August 2026): a leading byte-order mark is allowed', () => {
    expect(run(llms(`\uFEFF${GOOD}`)).status).toBe('pass')
  })

  test('llmstxt.org v2 (August 2026): a file found through rel="describedby" while /llms.txt is 404 passes and says where', () => {
    const found: LlmsTxtArtifact = {
      ...llms(GOOD),
      url: 'https://acme.test/docs/llms.txt',
      foundAt: { via: 'describedby-header', rootStatus: 404 },
    }
    const outcome = run(found)
    expect(outcome.status).toBe('pass')
    expect(outcome.details).toContain(
      '/docs/llms.txt is well-formed (found through the homepage\'s Link rel="describedby" header; /llms.txt answered 404)',
    )
  })

  describe('content over presence', () => {
    test("the report's own llms.txt template, pasted unedited, fails and quotes its placeholder", () => {
      const template = REMEDIES['llms-txt']!({ domain: 'acme.test', origin: 'https://acme.test' }).snippet.code
      const outcome = run(llms(template))
      expect(outcome.status).toBe('fail')
      expect(outcome.details).toContain('One sentence on what acme.test offers')
    })

    test.each([
      ['an angle-bracket name', '# <site name>\n\n> Anvils.\n\n- [Docs](https://acme.test/docs)\n'],
      [
        "the recommendation's [title](url)",
        '# Acme\n\n> Anvils for everyone, shipped worldwide.\n\n## Docs\n\n- [title](url)\n',
      ],
      ['a "one-line summary"', '# Acme\n\n> one-line summary\n\n## Docs\n\n- [Docs](https://acme.test/docs)\n'],
    ])('a file still carrying a placeholder (%s) fails', (_name, body) => {
      expect(run(llms(body)).status).toBe('fail')
    })

    test('dead sampled links make it a warning that names them; 403 and unanswered links are not dead', () => {
      const links: LlmsTxtLinksArtifact = {
        total: 4,
        probes: [
          { url: 'https://acme.test/docs/api.md', status: 200 },
          { url: 'https://acme.test/catalog.md', status: 404 },
          { url: 'https://acme.test/blog.md', status: 410 },
          { url: 'https://acme.test/private', status: 403 },
          { url: 'https://acme.test/slow', status: null, error: 'timeout' },
        ],
      }
      const outcome = run(llms(GOOD), links)
      expect(outcome.status).toBe('warning')
      expect(outcome.details).toContain('2 of 5 sampled link(s) are dead: /catalog.md (404), /blog.md (410)')
    })

    test('live sampled links are reported on a pass', () => {
      const links: LlmsTxtLinksArtifact = { total: 12, probes: [{ url: 'https://acme.test/docs/api.md', status: 200 }] }
      expect(run(llms(GOOD), links).details).toContain('1 of 1 sampled same-origin link(s) answered (of 12), none dead')
    })
  })
})
