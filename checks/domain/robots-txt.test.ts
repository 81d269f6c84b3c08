import { describe, expect, test } from 'bun:test'
import { parseRobots } from '../../core/engine/collectors/robots.ts'
import { context, snapshot } from '../../tests/support/artifacts.ts'
import check from './robots-txt.ts'

const text = (body: string, status = 200, contentType = 'text/plain; charset=utf-8') =>
  parseRobots(snapshot({ url: 'https://acme.test/robots.txt', status, headers: { 'content-type': contentType }, body }))

describe('robots-txt', () => {
  test.each([
    ['valid file', text('User-agent: *\nAllow: /\nSitemap: https://acme.test/sitemap.xml\n'), 'pass'],
    ['wrong content type', text('User-agent: *\nAllow: /\n', 200, 'text/html'), 'warning'],
    ['unparseable lines', text('User-agent: *\nAllow: /\nthis is not a record\n'), 'warning'],
    ['404', text('Not found', 404), 'warning'],
    ['500', text('oops', 500), 'fail'],
    ['HTML soft 404', text('<!doctype html><html><body>Home</body></html>', 200, 'text/html'), 'fail'],
    ['no group', text('# only a comment\nSitemap: https://acme.test/sitemap.xml\n'), 'fail'],
  ] as const)('%s -> %s', (_name, robots, expected) => {
    const outcome = check.run({ robots }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('only a success status serving HTML is a soft 404; an HTML 404 page is simply no robots file', () => {
    const soft = check.run({ robots: text('<!doctype html><html><body>Home</body></html>', 200, 'text/html') }, context)
    expect(soft.details).toContain('soft 404')
    const nginx404 =
      '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'
    const missing = check.run({ robots: text(nginx404, 404, 'text/html') }, context)
    expect(missing.status).toBe('warning')
    expect(missing.details).toBe(
      '/robots.txt answered 404: no robots file, so under RFC 9309 agents may fetch everything but learn no policy or sitemap from it',
    )
  })

  test('a 5xx explains the RFC 9309 complete-disallow rule', () => {
    expect(check.run({ robots: text('oops', 503) }, context).details).toContain('disallow everything')
  })
})
