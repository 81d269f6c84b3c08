import { describe, expect, test } from 'bun:test'
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

describe('llms-txt', () => {
  test.each([
    ['well-formed markdown', llms(GOOD), 'pass'],
    ['text/plain is fine', llms(GOOD, 'text/plain'), 'pass'],
    ['no blockquote', llms(GOOD.replace(/^>.*$/m, '')), 'warning'],
    ['links but no H2 list', llms('# Acme\n\n> Anvils for everyone, shipped worldwide.\n\nSee [docs](https://acme.test/docs).\n'), 'warning'],
    ['served as text/html with a markdown body', llms(GOOD, 'text/html'), 'warning'],
    ['H1 only, no links', llms('# Acme\n\n> Anvils, anvils and more anvils for everyone.\n'), 'warning'],
    ['over 1 MiB', { ...llms(GOOD), truncated: true }, 'warning'],
    ['404', notFound('https://acme.test/llms.txt'), 'fail'],
    ['HTML page', llms('<!doctype html><html><body>Home</body></html>', 'text/html'), 'fail'],
    ['no H1', llms('Acme\n\n## Docs\n- [API](https://acme.test/api)\n'), 'fail'],
    ['H1 not first', llms('Intro line\n# Acme\n'), 'fail'],
    ['5xx', llms('oops', 'text/plain', 503), 'error'],
  ] as const)('%s -> %s', (_name, llmsTxt, expected) => {
    const outcome = check.run({ llmsTxt }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('details count sections and links', () => {
    expect(check.run({ llmsTxt: llms(GOOD) }, context).details).toContain('3 link(s)')
  })

  test('headings inside code fences do not count', () => {
    expect(check.run({ llmsTxt: llms('```\n# not a heading\n```\n# Acme\n') }, context).status).toBe('fail')
  })
})
