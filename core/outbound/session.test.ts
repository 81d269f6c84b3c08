import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../config.ts'
import { createOutboundClient, OutboundError } from './client.ts'
import { generateSigningKeyJwk, loadSigningKeys } from '../crypto/signing.ts'
import { createRequestSigner } from '../crypto/web-bot-auth.ts'
import { ScanSession } from './session.ts'

let server: ReturnType<typeof Bun.serve>
let origin: string
/** Requests the fixture received, per path. */
const hits = new Map<string, number>()
let inFlight = 0
let maxInFlight = 0

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1)
      inFlight += 1
      maxInFlight = Math.max(maxInFlight, inFlight)
      try {
        // Slow enough that concurrent callers overlap.
        await Bun.sleep(Number(url.searchParams.get('delay') ?? 30))
        if (url.pathname === '/missing') return new Response('no', { status: 404 })
        return Response.json({
          path: url.pathname,
          method: request.method,
          ua: request.headers.get('user-agent'),
          accept: request.headers.get('accept'),
          hit: hits.get(url.pathname),
        })
      } finally {
        inFlight -= 1
      }
    },
  })
  origin = `http://127.0.0.1:${server.port}`
})

afterAll(() => {
  server.stop(true)
})

function newSession(env: Record<string, string> = {}): ScanSession {
  const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', ...env })
  return new ScanSession(createOutboundClient(config, null), config)
}

describe('ScanSession memo', () => {
  test('concurrent identical GETs reach the server once and share the result', async () => {
    const session = newSession()
    const results = await Promise.all(Array.from({ length: 10 }, () => session.request(`${origin}/robots.txt`)))
    expect(hits.get('/robots.txt')).toBe(1)
    expect(new Set(results).size).toBe(1)
    expect(session.requestCount).toBe(1)
    // Later calls are memo hits as well.
    await session.request(`${origin}/robots.txt#fragment`)
    expect(hits.get('/robots.txt')).toBe(1)
    expect(session.log).toEqual([
      { method: 'GET', url: `${origin}/robots.txt`, status: 200, durationMs: expect.any(Number) },
    ])
  })

  test('a new session fetches again', async () => {
    await newSession().request(`${origin}/once-per-scan`)
    await newSession().request(`${origin}/once-per-scan`)
    expect(hits.get('/once-per-scan')).toBe(2)
  })

  test('a different Accept, User-Agent, method or header is a different request', async () => {
    const session = newSession()
    const url = `${origin}/variants`
    await Promise.all([
      session.request(url),
      session.request(url, { headers: { Accept: 'text/markdown' } }),
      session.request(url, { headers: { accept: 'text/markdown' } }),
      session.request(url, { headers: { 'user-agent': 'GPTBot/1.2' } }),
      session.request(url, { headers: { 'User-Agent': 'GPTBot/1.2' } }),
      session.request(url, { method: 'HEAD' }),
      session.request(url, { headers: { origin: 'https://elsewhere.example' } }),
      session.request(url, { redirect: 'manual' }),
    ])
    expect(hits.get('/variants')).toBe(6)
    expect(session.requestCount).toBe(6)
  })

  test('without a signing key, `sign: false` is the same request as the default and is fetched once', async () => {
    const session = newSession()
    await session.request(`${origin}/unsigned-either-way`)
    await session.request(`${origin}/unsigned-either-way`, { sign: false })
    expect(hits.get('/unsigned-either-way')).toBe(1)
  })

  test('with a signing key, signed and unsigned requests are distinct', async () => {
    const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', SIGNING_KEY: generateSigningKeyJwk() })
    const signer = createRequestSigner(loadSigningKeys(config).current!, 'https://scanner.example')
    const session = new ScanSession(createOutboundClient(config, signer), config)
    await session.request(`${origin}/signed-or-not`)
    await session.request(`${origin}/signed-or-not`, { sign: false })
    expect(hits.get('/signed-or-not')).toBe(2)
  })

  test('POST is never memoised', async () => {
    const session = newSession()
    await session.request(`${origin}/rpc`, { method: 'POST', body: '{}' })
    await session.request(`${origin}/rpc`, { method: 'POST', body: '{}' })
    expect(hits.get('/rpc')).toBe(2)
    expect(session.requestCount).toBe(2)
  })

  test('failures are memoised and logged with their code', async () => {
    const session = newSession({ SCANNER_ALLOW_PRIVATE: 'false' })
    const first = session.request(`${origin}/refused`)
    const second = session.request(`${origin}/refused`)
    expect(second).toBe(first)
    const error = await first.catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(OutboundError)
    expect((error as OutboundError).code).toBe('BLOCKED_ADDRESS')
    expect(session.requestCount).toBe(1)
    expect(session.log).toEqual([
      {
        method: 'GET',
        url: `${origin}/refused`,
        status: null,
        durationMs: expect.any(Number),
        error: 'BLOCKED_ADDRESS',
      },
    ])
  })

  test('an abort by the caller is not memoised', async () => {
    const session = newSession()
    const controller = new AbortController()
    const aborted = session.request(`${origin}/abortable?delay=200`, { signal: controller.signal })
    controller.abort(new Error('check timed out'))
    await expect(aborted).rejects.toThrow('check timed out')
    const retried = await session.request(`${origin}/abortable?delay=200`)
    expect(retried.status).toBe(200)
    expect(session.requestCount).toBe(2)
  })

  test('HTTP error statuses are results, memoised like any other', async () => {
    const session = newSession()
    const [a, b] = await Promise.all([session.request(`${origin}/missing`), session.request(`${origin}/missing`)])
    expect(a.status).toBe(404)
    expect(b).toBe(a)
    expect(hits.get('/missing')).toBe(1)
  })
})

describe('ScanSession host concurrency', () => {
  test('never more than SCANNER_HOST_CONCURRENCY requests in flight to one host', async () => {
    const session = newSession({ SCANNER_HOST_CONCURRENCY: '2' })
    maxInFlight = 0
    await Promise.all(Array.from({ length: 8 }, (_, index) => session.request(`${origin}/page-${index}?delay=40`)))
    expect(maxInFlight).toBe(2)
    expect(session.requestCount).toBe(8)
    expect(session.log).toHaveLength(8)
  })

  test('the bound is per host: another host has its own slots', async () => {
    const session = newSession({
      SCANNER_HOST_CONCURRENCY: '1',
      SCANNER_RESOLVE: `a.test:80:127.0.0.1:${server.port},b.test:80:127.0.0.1:${server.port}`,
    })
    maxInFlight = 0
    await Promise.all([
      session.request('http://a.test/one?delay=60'),
      session.request('http://a.test/two?delay=60'),
      session.request('http://b.test/one?delay=60'),
      session.request('http://b.test/two?delay=60'),
    ])
    expect(maxInFlight).toBe(2)
  })

  test('a stream holds its slot only until its headers arrive', async () => {
    const session = newSession({ SCANNER_HOST_CONCURRENCY: '1' })
    const response = await session.stream(`${origin}/streamed`)
    // The stream's body is still unread, yet the host's only slot is free again.
    const next = await session.request(`${origin}/after-stream`)
    expect(next.status).toBe(200)
    expect(await response.json()).toMatchObject({ path: '/streamed' })
    expect(session.log.map((entry) => entry.url)).toEqual([`${origin}/streamed`, `${origin}/after-stream`])
  })

  test('asFetch goes through the session: counted and logged', async () => {
    const session = newSession()
    const fetch = session.asFetch()
    const response = await fetch(`${origin}/via-fetch`, { method: 'POST', body: '{}' })
    expect(await response.json()).toMatchObject({ path: '/via-fetch', method: 'POST' })
    expect(session.requestCount).toBe(1)
    expect(session.log[0]).toMatchObject({ method: 'POST', url: `${origin}/via-fetch`, status: 200 })
  })
})
