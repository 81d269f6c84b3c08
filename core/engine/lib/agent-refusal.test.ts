import { describe, expect, test } from 'bun:test'
import { snapshot } from '../../../tests/support/artifacts.ts'
import { needsBrowserCopy, refusalVerdict } from './agent-refusal.ts'

const page = snapshot({
  headers: { 'content-type': 'text/html' },
  body: '<!doctype html><title>Acme</title><main><h1>Acme</h1></main>',
})
const bare = (status: number) => snapshot({ status, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' })
const challenge = snapshot({
  status: 403,
  headers: { 'content-type': 'text/html', 'cf-mitigated': 'challenge' },
  body: '<title>Just a moment...</title>',
})
const rpc = snapshot({ headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"result":{}}' })

describe('one rule for an agent turned away', () => {
  test.each([
    ['a bare 403 while a browser got 200', bare(403), page, 'domain', 'blocked', '403 while a browser got 200'],
    ['a bare 429 while a browser got 200', bare(429), page, 'domain', 'blocked', '429 while a browser got 200'],
    ['a bare 503 while a browser got 200', bare(503), page, 'domain', 'blocked', '503 while a browser got 200'],
    ['a bare 403 that a browser got too', bare(403), bare(403), 'domain', null, null],
    ['a bare 403 with no browser copy', bare(403), null, 'domain', null, null],
    ['a 404 while a browser got 200', bare(404), page, 'domain', null, null],
    ['a challenge page, browser copy or not', challenge, null, 'domain', 'challenge', 'cf-mitigated: challenge'],
    [
      'an HTML page where a browser got JSON-RPC (MCP)',
      page,
      rpc,
      'mcp',
      'challenge',
      '200 with an HTML page instead of the JSON-RPC answer a browser got',
    ],
    ['an HTML page where a browser got JSON (a website)', page, rpc, 'domain', null, null],
  ] as const)('%s', (_, response, browser, kind, verdict, reason) => {
    expect(refusalVerdict(response, browser, kind)).toEqual({ kind: verdict, reason })
  })

  test('a browser copy is needed only for a 403/429/503 that carries no challenge marker', () => {
    expect([403, 429, 503].map((status) => needsBrowserCopy(bare(status)))).toEqual([true, true, true])
    expect(needsBrowserCopy(bare(404))).toBe(false)
    expect(needsBrowserCopy(bare(500))).toBe(false)
    expect(needsBrowserCopy(page)).toBe(false)
    expect(needsBrowserCopy(challenge)).toBe(false)
  })
})
