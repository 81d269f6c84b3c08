import { describe, expect, test } from 'bun:test'
import type { NotFoundArtifact } from '../../core/engine/collectors/not-found.ts'
import { context, jsonSnapshot, snapshot } from '../../tests/support/artifacts.ts'
import check from './http-error-semantics.ts'

const MISSING = 'https://acme.test/4f1c0b7e-0000-4000-8000-000000000000'
const API_MISSING = 'https://acme.test/api/4f1c0b7e-0000-4000-8000-000000000000'
const html404 = snapshot({
  url: MISSING,
  status: 404,
  headers: { 'content-type': 'text/html' },
  body: '<h1>Not found</h1>',
})
const problem404 = jsonSnapshot(
  { title: 'Not Found', status: 404 },
  { url: API_MISSING, status: 404, headers: { 'content-type': 'application/problem+json' } },
)

const artifact = (page: NotFoundArtifact['page'], api: NotFoundArtifact['api'] = null): NotFoundArtifact => ({
  page,
  api,
})

describe('http-error-semantics', () => {
  test.each([
    ['404 page, no API', 'pass', artifact(html404)],
    ['410 page and a problem+json API 404', 'pass', artifact({ ...html404, status: 410 }, problem404)],
    [
      'a plain JSON API 404 passes too',
      'pass',
      artifact(html404, jsonSnapshot({ error: 'not found' }, { url: API_MISSING, status: 404 })),
    ],
    [
      'an API that checks auth first (401 JSON)',
      'pass',
      artifact(html404, jsonSnapshot({ error: 'unauthorized' }, { url: API_MISSING, status: 401 })),
    ],
    [
      'a redirect to the homepage',
      'warning',
      artifact(
        snapshot({
          requestedUrl: MISSING,
          url: 'https://acme.test/',
          status: 200,
          redirects: [{ url: MISSING, status: 302 }],
          body: '<h1>Home</h1>',
        }),
      ),
    ],
    ['a 500 for a missing page', 'warning', artifact({ ...html404, status: 500 })],
    [
      'an HTML 404 on an API path',
      'warning',
      artifact(html404, { ...html404, url: API_MISSING, requestedUrl: API_MISSING }),
    ],
    ['a soft 404 (200)', 'fail', artifact({ ...html404, status: 200 })],
    ['a 200 on an unknown API path', 'fail', artifact(html404, jsonSnapshot({ ok: true }, { url: API_MISSING }))],
  ] as const)('%s -> %s', (_name, expected, notFound) => {
    const outcome = check.run({ notFound }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('details name the probed path and the redirect target', () => {
    const outcome = check.run(
      {
        notFound: artifact(
          snapshot({
            requestedUrl: MISSING,
            url: 'https://acme.test/',
            status: 200,
            redirects: [{ url: MISSING, status: 301 }],
          }),
        ),
      },
      context,
    )
    expect(outcome.details).toContain('/4f1c0b7e-0000-4000-8000-000000000000 redirected to /')
  })

  test('the body size is honest: bytes under 1 KB, one decimal above, "over" when the read was cut', () => {
    const sized = (body: string, truncated = false) =>
      check.run(
        {
          notFound: artifact(
            snapshot({ url: MISSING, status: 404, headers: { 'content-type': 'text/html' }, body, truncated }),
          ),
        },
        context,
      ).details
    expect(sized('{}')).toBe('GET /4f1c0b7e-0000-4000-8000-000000000000 answered 404 (2-byte body)')
    expect(sized('x'.repeat(153))).toContain('(153-byte body)')
    expect(sized('é'.repeat(600))).toContain('(1.2 KB body)')
    expect(sized('x'.repeat(2048), true)).toContain('(over 2.0 KB body)')
  })

  test('a failed API probe is reported, not scored', () => {
    const outcome = check.run({ notFound: { page: html404, api: null, apiError: 'timeout' } }, context)
    expect(outcome.status).toBe('pass')
    expect(outcome.details).toContain('the API probe failed (timeout)')
  })
})
