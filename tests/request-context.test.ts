import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import pino from 'pino'
import { z } from 'zod'
import { request, testApp } from './helpers.ts'
import type { AppHandle } from '../app/app.ts'
import { contextPlugin } from '../core/context.ts'
import { AppError } from '../core/errors.ts'
import { SCAN_LIMITS } from '../plugins/scan/limits.ts'

let handle: AppHandle
let app: ReturnType<typeof probeApp>

// A small app over the real context plugin: the routes exist only to exercise validation, parsing, limits and
// callers the way every feature route does.
function probeApp(deps: AppHandle['pieces']) {
  return new Elysia()
    .use(contextPlugin(deps, deps.errors))
    .post('/echo', ({ body }) => body, {
      body: z.object({ url: z.string().min(3), count: z.number().int().optional() }),
    })
    .get('/whoami', ({ caller }) => caller)
    .get('/echo-query', ({ query }) => query, {
      query: z.object({ text: z.string(), tags: z.array(z.string()).optional() }),
    })
    .get('/limited', async ({ enforceLimit }) => {
      await enforceLimit(SCAN_LIMITS.scanDaily)
      return { ok: true }
    })
    .get('/burst', async ({ enforceLimit }) => {
      await enforceLimit(SCAN_LIMITS.scanBurst)
      return { ok: true }
    })
    .get('/boom', () => {
      throw new Error('secret internal detail')
    })
    .get('/ard-style', () => {
      throw new AppError('NOT_FOUND', { extra: { next: '/api/scan' } })
    })
}

beforeAll(async () => {
  handle = await testApp({ TRUST_PROXY: 'true' })
  app = probeApp(handle.pieces)
})
afterAll(() => handle.close())

describe('request validation', () => {
  test('a schema failure is 400 VALIDATION_FAILED with structured details', async () => {
    const response = await app.handle(request('/echo', { method: 'POST', json: { url: 7 } }))
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.code).toBe('VALIDATION_FAILED')
    expect(body.error).toBe('Invalid request')
    expect(body.details.in).toBe('body')
    expect(body.details.issues[0].message).toBeString()
  })

  test('malformed JSON is 400 INVALID_JSON', async () => {
    const response = await app.handle(
      request('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url": ' }),
    )
    expect(response.status).toBe(400)
    expect((await response.json()).code).toBe('INVALID_JSON')
  })

  test('a valid body passes through', async () => {
    const response = await app.handle(request('/echo', { method: 'POST', json: { url: 'example.com', count: 2 } }))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: 'example.com', count: 2 })
  })

  test('an unexpected exception is a 500 without its message', async () => {
    const response = await app.handle(request('/boom'))
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(JSON.parse(text).code).toBe('INTERNAL_ERROR')
    expect(text).not.toContain('secret internal detail')
  })
})

test('query values reach validation as sent: commas and brackets stay text, repeats become lists', async () => {
  const response = await app.handle(request('/echo-query?text=shoes%2C%20cheap%20%5B1%5D&tags=a&tags=b'))
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ text: 'shoes, cheap [1]', tags: ['a', 'b'] })
})

describe('callers', () => {
  test('no credential and an unknown bearer token are both anonymous, never an error', async () => {
    const plain = await app.handle(request('/whoami', { headers: { 'x-forwarded-for': '203.0.113.9' } }))
    expect(await plain.json()).toEqual({ kind: 'anonymous', ip: '203.0.113.9' })
    const unknown = await app.handle(
      request('/whoami', { headers: { authorization: 'Bearer ark_unknown', 'x-forwarded-for': '203.0.113.9' } }),
    )
    expect(unknown.status).toBe(200)
    expect((await unknown.json()).kind).toBe('anonymous')
  })

  test('a valid key resolves to its tier', async () => {
    const created = await handle.pieces.keys.create('partner', 'whoami test')
    const response = await app.handle(request('/whoami', { headers: { authorization: `Bearer ${created.key}` } }))
    expect(await response.json()).toMatchObject({ kind: 'key', tier: 'partner', keyId: created.id })
  })
})

describe('rate limits through the context', () => {
  test('a burst denial is 429 with Retry-After and no retry_after_ms', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.20' }
    for (let i = 0; i < 10; i++) expect((await app.handle(request('/burst', { headers: ip }))).status).toBe(200)
    const denied = await app.handle(request('/burst', { headers: ip }))
    expect(denied.status).toBe(429)
    const retryAfter = Number(denied.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    const body = await denied.json()
    expect(body.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(body.retry_after_ms).toBeUndefined()
    // Another IP is unaffected.
    expect((await app.handle(request('/burst', { headers: { 'x-forwarded-for': '198.51.100.21' } }))).status).toBe(200)
  })

  test('a durable denial carries retry_after_ms equal to Retry-After in milliseconds', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.30' }
    for (let i = 0; i < 30; i++) expect((await app.handle(request('/limited', { headers: ip }))).status).toBe(200)
    const denied = await app.handle(request('/limited', { headers: ip }))
    expect(denied.status).toBe(429)
    const body = await denied.json()
    expect(body.retry_after_ms).toBe(Number(denied.headers.get('retry-after')) * 1000)
  })

  test('a scan key is exempt from the scan family limits', async () => {
    const created = await handle.pieces.keys.create('scan', 'exempt test')
    const headers = { authorization: `Bearer ${created.key}`, 'x-forwarded-for': '198.51.100.40' }
    for (let i = 0; i < 15; i++) expect((await app.handle(request('/burst', { headers }))).status).toBe(200)
  })
})

test('errors under an ARD-style AppError keep extra fields', async () => {
  const response = await app.handle(request('/ard-style'))
  expect(response.status).toBe(404)
  expect(await response.json()).toMatchObject({ code: 'NOT_FOUND', next: '/api/scan' })
})

test('each request is logged once with its id, path, status and duration', async () => {
  const lines: Record<string, unknown>[] = []
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  const logged = probeApp({ ...handle.pieces, log })
  await logged.handle(request('/whoami', { headers: { 'x-request-id': 'req-logged-1' } }))
  await logged.handle(request('/boom'))
  await logged.handle(request('/no-such-route'))
  await Bun.sleep(20)
  const seen = lines.filter((line) => line.msg === 'request')
  expect(seen.map(({ path, status }) => ({ path, status }))).toEqual([
    { path: '/whoami', status: 200 },
    { path: '/boom', status: 500 },
    { path: '/no-such-route', status: 404 },
  ])
  expect(seen[0]).toMatchObject({ requestId: 'req-logged-1', method: 'GET', ms: expect.any(Number) })
})
