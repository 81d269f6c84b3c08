import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { drizzle } from 'drizzle-orm/postgres-js'
import pino from 'pino'
import postgres from 'postgres'
import { type AppHandle, createApp } from '../app/app.ts'
import { type Database, type Db, openDatabase } from '../core/db/index.ts'
import { isDatabaseUnavailableError } from '../core/errors.ts'
import { listenOptions } from '../app/serve.ts'
import { Outage } from '../core/outage.ts'
import { MAX_JSON_DEPTH } from '../core/parse/nesting.ts'
import { openStore } from '../core/store/index.ts'
import { request, testApp, testConfig } from './helpers.ts'

/**
 * Hostile request input (deep, oversized, mistyped or garbled bodies, NULs in queries and paths, ids beyond their
 * column) and a database outage: every answer is a 4xx in the error envelope, or the spec's 500
 * DATABASE_UNAVAILABLE, with a request id; never an unhandled 500.
 */

let handle: AppHandle
let clients = 0

/** Every request from its own client address, so that rate limits never answer in place of validation. */
function send(app: AppHandle['app'], req: Request): Promise<Response> {
  clients++
  req.headers.set('x-forwarded-for', `10.77.${clients >> 8}.${clients & 255}`)
  return app.handle(req)
}

const call = (req: Request) => send(handle.app, req)

function post(path: string, body: BodyInit | null, contentType?: string): Request {
  return request(path, { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} })
}

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('x-request-id')).toBeTruthy()
  const body = await response.json()
  expect(body).toMatchObject({ error: expect.any(String), code, message: expect.any(String) })
  return body
}

async function expectArdError(response: Response, status: number, errorCode: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('x-request-id')).toBeTruthy()
  const body = await response.json()
  expect(body).toMatchObject({ errorCode, message: expect.any(String) })
  return body
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

/** Every route that takes a JSON body, with a valid-looking body to graft hostile values onto. */
const JSON_ROUTES = [
  { path: '/api/scan', ard: false },
  { path: '/api/scan/checks', ard: false },
  { path: '/api/v2/scan', ard: false },
  { path: '/api/feedback/check', ard: false },
  { path: '/api/contact', ard: false },
  { path: '/api/ard/search', ard: true },
  { path: '/api/ard/explore', ard: true },
  { path: '/api/mcp', ard: false },
]

beforeAll(async () => {
  handle = await testApp({ TRUST_PROXY: 'true', V2_SCAN_ENABLED: 'true', WORKER_CONCURRENCY: '0' }, { start: true })
})
afterAll(() => handle.close())

describe('body depth is bounded before parsing and validation', () => {
  for (const { path, ard } of JSON_ROUTES) {
    test(`${path}: a 100,000-deep body is a 400, not a 500`, async () => {
      const response = await call(post(path, `{"url":${nested(100_000)}}`, 'application/json'))
      if (ard) await expectArdError(response, 400, 'INVALID_ARGUMENT')
      else {
        const body = await expectError(response, 400, 'VALIDATION_FAILED')
        expect(body.details).toEqual({
          in: 'body',
          issues: [{ path: '', message: expect.stringContaining(String(MAX_JSON_DEPTH)) }],
        })
      }
    })
  }

  test('nesting up to the bound still reaches schema validation', async () => {
    const body = await expectError(
      await call(post('/api/scan', `{"url":${nested(MAX_JSON_DEPTH - 1)}}`, 'application/json')),
      400,
      'VALIDATION_FAILED',
    )
    expect(body.details.issues[0].path).toBe('url')
  })

  test('a validation failure never echoes the rejected value', async () => {
    const marker = 'x'.repeat(64)
    const value = `${'['.repeat(60)}${Array(10_000).fill(`"${marker}"`).join(',')}${']'.repeat(60)}`
    const response = await call(post('/api/scan', `{"url":${value}}`, 'application/json'))
    const text = await response.text()
    expect(response.status).toBe(400)
    expect(text).not.toContain(marker)
    expect(text.length).toBeLessThan(2000)
  })
})

describe('only JSON bodies are accepted', () => {
  const form = new FormData()
  form.set('url', 'example.test')
  const cases: [string, () => Request][] = [
    ['form-urlencoded', () => post('/api/scan', 'url=example.test', 'application/x-www-form-urlencoded')],
    ['multipart', () => request('/api/scan', { method: 'POST', body: form })],
    ['text/plain', () => post('/api/scan', '{"url":"example.test"}', 'text/plain')],
    ['no content type', () => post('/api/scan', '{"url":"example.test"}')],
    [
      'contact as a form',
      () => post('/api/contact', 'name=a&email=a%40b.test&message=hello+there', 'application/x-www-form-urlencoded'),
    ],
    ['MCP as text', () => post('/api/mcp', '{"jsonrpc":"2.0","id":1,"method":"ping"}', 'text/plain')],
  ]
  for (const [name, build] of cases) {
    test(`${name}: 415 UNSUPPORTED_MEDIA_TYPE`, async () => {
      await expectError(await call(build()), 415, 'UNSUPPORTED_MEDIA_TYPE')
    })
  }

  test('an ARD route answers 415 in its own envelope', async () => {
    await expectArdError(
      await call(post('/api/ard/search', 'query=shoes', 'application/x-www-form-urlencoded')),
      415,
      'INVALID_ARGUMENT',
    )
  })

  test('a JSON content type with parameters or in capitals is JSON', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      const body = await expectError(await call(post('/api/contact', '{"name":"A"}', type)), 400, 'VALIDATION_FAILED')
      expect(body.details.in).toBe('body')
    }
  })

  test('an empty JSON body is a schema failure', async () => {
    await expectError(await call(post('/api/scan', '', 'application/json')), 400, 'VALIDATION_FAILED')
    await expectError(await call(request('/api/scan', { method: 'POST' })), 400, 'VALIDATION_FAILED')
  })
})

describe('text that PostgreSQL or a log line cannot take is a 400', () => {
  const contact = (message: string) => JSON.stringify({ name: 'Ada', email: 'ada@example.test', message })

  for (const [name, escaped] of [
    ['NUL', '\\u0000'],
    ['ESC', '\\u001b'],
    ['a lone high surrogate', '\\ud800'],
    ['a lone low surrogate', '\\udc00'],
  ]) {
    test(`${name} in a body string`, async () => {
      const body = await expectError(
        await call(
          post(
            '/api/contact',
            `{"name":"Ada","email":"ada@example.test","message":"hello ${escaped} world"}`,
            'application/json',
          ),
        ),
        400,
        'VALIDATION_FAILED',
      )
      expect(body.details).toEqual({ in: 'body', issues: [{ path: 'message', message: expect.any(String) }] })
    })
  }

  test('NUL in a feedback message, in a nested ARD filter and in a member name', async () => {
    const feedback = {
      reporterType: 'human',
      domain: 'example.test',
      checkId: 'robots-txt',
      reason: 'other',
      message: 'a\u0000b',
    }
    const body = await expectError(
      await call(request('/api/feedback/check', { method: 'POST', json: feedback })),
      400,
      'VALIDATION_FAILED',
    )
    expect(body.details.issues[0].path).toBe('message')
    const ard = await expectArdError(
      await call(
        request('/api/ard/search', { method: 'POST', json: { query: { filter: { tags: ['ok', 'b\u0000d'] } } } }),
      ),
      400,
      'INVALID_ARGUMENT',
    )
    expect(ard.details.issues[0].path).toBe('query.filter.tags.1')
    await expectError(
      await call(request('/api/scan', { method: 'POST', json: { url: 'example.test', 'x\u0000': 1 } })),
      400,
      'VALIDATION_FAILED',
    )
  })

  test('tab, line feed, carriage return and a surrogate pair are text', async () => {
    const response = await call(
      post('/api/contact', contact('line one\r\nline two\tand a 😀 in it'), 'application/json'),
    )
    expect(response.status).toBe(200)
  })

  test('query values and names', async () => {
    const body = await expectError(await call(request('/api/discover?intent=a%00b')), 400, 'VALIDATION_FAILED')
    expect(body.details).toEqual({ in: 'query', issues: [{ path: 'intent', message: expect.any(String) }] })
    await expectError(await call(request('/api/discover?intent=shoes&x%01=1')), 400, 'VALIDATION_FAILED')
    await expectError(await call(request('/api/leaderboard?page=%1b')), 400, 'VALIDATION_FAILED')
    await expectArdError(await call(request('/api/ard/agents?filter=type%20%3D%20%00')), 400, 'INVALID_ARGUMENT')
  })

  for (const path of ['/api/score/%00', '/api/badge/a%00b.test', '/api/feedback/%00', '/api/feedback/%00/stats']) {
    test(`path parameter: ${path}`, async () => {
      const body = await expectError(await call(request(path)), 400, 'VALIDATION_FAILED')
      expect(body.details.in).toBe('params')
    })
  }

  for (const segment of ['%E0%A4%A', '%C0%80', '%ED%A0%80', '%FF']) {
    test(`a path segment that does not decode (${segment}) is a 400, not a 500`, async () => {
      await expectError(await call(request(`/api/score/${segment}`)), 400, 'VALIDATION_FAILED')
      await expectArdError(await call(request(`/api/ard/attestation/${segment}`)), 400, 'INVALID_ARGUMENT')
    })
  }
})

describe('ids beyond their column', () => {
  for (const id of ['2147483648', '99999999999999999999', '0', '-1', '1e3', '0x10', '007']) {
    test(`GET /api/v2/scan/${id} is 404 NOT_FOUND`, async () => {
      await expectError(await call(request(`/api/v2/scan/${id}`)), 404, 'NOT_FOUND')
    })
  }

  test('the largest int4 id is a plain lookup', async () => {
    await expectError(await call(request('/api/v2/scan/2147483647')), 404, 'NOT_FOUND')
  })

  test('revoking a key id that cannot exist is false, not a database error', async () => {
    for (const id of [2_147_483_648, 0, -1, 1.5, Number.NaN]) expect(await handle.pieces.keys.revoke(id)).toBe(false)
  })
})

describe('oversized bodies get the envelope', () => {
  const big = () => new Uint8Array(2 * 1024 * 1024).fill(0x20)
  const chunked = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new Uint8Array(64 * 1024).fill(0x20))
        controller.close()
      },
    })

  test('through app.handle: declared and chunked', async () => {
    await expectError(await call(post('/api/contact', big(), 'application/json')), 413, 'PAYLOAD_TOO_LARGE')
    const streamed = new Request('http://localhost/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunked(),
    })
    expect(streamed.headers.get('content-length')).toBeNull()
    await expectError(await call(streamed), 413, 'PAYLOAD_TOO_LARGE')
  })

  test('through a listening server with the production listen options', async () => {
    const options = listenOptions({ port: 0, host: '127.0.0.1' })
    const server = handle.app.listen(options).server!
    try {
      const base = `http://127.0.0.1:${server.port}`
      const declared = await fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: big(),
      })
      await expectError(declared, 413, 'PAYLOAD_TOO_LARGE')
      const streamed = await fetch(`${base}/api/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: chunked(),
      })
      await expectError(streamed, 413, 'PAYLOAD_TOO_LARGE')
    } finally {
      await handle.app.stop(true)
    }
  })
})

/**
 * A database that works until `down` is set, then fails every query as PostgreSQL does when nobody listens:
 * postgres.js ECONNREFUSED, wrapped by drizzle. Each query gets a client of its own, since one client retries
 * with a growing backoff. The job queue keeps its own working connection.
 */
async function switchableDatabase() {
  const real = await openDatabase(testConfig({ DATABASE_URL: 'memory://' }))
  const refused: ReturnType<typeof postgres>[] = []
  const deadDb = () => {
    const client = postgres('postgres://nobody:nothing@127.0.0.1:1/none', {
      max: 1,
      connect_timeout: 1,
      onnotice: () => {},
    })
    refused.push(client)
    return drizzle({ client }) as unknown as Db
  }
  let down = false
  const db = new Proxy(real.db, {
    get(target, property) {
      const source = down ? deadDb() : target
      const value = Reflect.get(source, property, source)
      return typeof value === 'function' ? value.bind(source) : value
    },
  })
  const database: Database = { ...real, db }
  return {
    database,
    setDown: (value: boolean) => {
      down = value
    },
    close: () => Promise.all(refused.map((client) => client.end({ timeout: 1 }))),
  }
}

describe('with the database down', () => {
  let app: AppHandle
  let switchable: Awaited<ReturnType<typeof switchableDatabase>>
  const lines: { msg?: string; level?: number }[] = []
  let key = ''

  beforeAll(async () => {
    switchable = await switchableDatabase()
    const config = testConfig({ DATABASE_URL: 'memory://', TRUST_PROXY: 'true', WORKER_CONCURRENCY: '0' })
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const store = await openStore(config, { prefix: `test:${randomUUID()}:` })
    app = await createApp(config, { store, database: switchable.database, log })
    await app.start()
    key = (await app.pieces.keys.create('scan', 'outage test')).key
    switchable.setDown(true)
  })
  afterAll(async () => {
    await app.close()
    await switchable.close()
  })

  const keyed = (path: string, init: RequestInit = {}) =>
    send(app.app, request(path, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } }))

  test('a keyed request to a route that needs no database still works', async () => {
    expect((await keyed('/healthz')).status).toBe(200)
    const catalog = await keyed('/api/checks')
    expect(catalog.status).toBe(200)
    expect(catalog.headers.get('x-request-id')).toBeTruthy()
    expect((await keyed('/api/ard/jwks')).status).toBe(200)
  })

  test('routes that need the database answer 500 DATABASE_UNAVAILABLE, keyed or not', async () => {
    await expectError(await keyed('/api/score/example.test'), 500, 'DATABASE_UNAVAILABLE')
    await expectError(await send(app.app, request('/api/score/example.test')), 500, 'DATABASE_UNAVAILABLE')
    await expectError(
      await keyed('/api/scan', {
        method: 'POST',
        body: '{"url":"example.test"}',
        headers: { 'content-type': 'application/json' },
      }),
      500,
      'DATABASE_UNAVAILABLE',
    )
    await expectError(await send(app.app, request('/api/leaderboard')), 500, 'DATABASE_UNAVAILABLE')
    await expectArdError(await send(app.app, request('/api/ard/agents')), 500, 'INTERNAL_ERROR')
  })

  test('the outage is logged once, and its end once', async () => {
    for (let i = 0; i < 5; i++) await send(app.app, request('/api/leaderboard'))
    const unavailable = lines.filter((line) => line.msg === 'database unavailable')
    expect(unavailable).toHaveLength(1)
    expect(lines.filter((line) => line.msg === 'unhandled error')).toHaveLength(0)

    switchable.setDown(false)
    await Bun.sleep(1100) // past the key-lookup backoff
    const score = await keyed('/api/score/example.test')
    expect(score.status).toBe(404)
    expect(lines.filter((line) => line.msg === 'database available again')).toHaveLength(1)
    switchable.setDown(true)
  })
})

test('a closed PGlite is DATABASE_UNAVAILABLE too', async () => {
  const app = await testApp({ TRUST_PROXY: 'true', WORKER_CONCURRENCY: '0' }, { start: true })
  try {
    const { key } = await app.pieces.keys.create('scan', 'closed pglite')
    await app.pieces.database.close()
    const headers = { authorization: `Bearer ${key}` }
    expect((await send(app.app, request('/healthz', { headers }))).status).toBe(200)
    await expectError(await send(app.app, request('/api/score/example.test', { headers })), 500, 'DATABASE_UNAVAILABLE')
    await expectError(await send(app.app, request('/api/score/example.test')), 500, 'DATABASE_UNAVAILABLE')
  } finally {
    await app.close().catch(() => {})
  }
})

describe('isDatabaseUnavailableError', () => {
  const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code })

  test('connection failures, directly or as the cause drizzle wraps them in', () => {
    for (const code of ['ECONNREFUSED', 'CONNECTION_CLOSED', 'CONNECT_TIMEOUT', '08006', '57P01']) {
      expect(isDatabaseUnavailableError(withCode(code))).toBe(true)
      expect(isDatabaseUnavailableError(new Error('Failed query', { cause: withCode(code) }))).toBe(true)
    }
    expect(isDatabaseUnavailableError(new Error('PGlite is closed'))).toBe(true)
  })

  test('a query the database refused is not an outage', () => {
    for (const error of [
      withCode('22003', 'integer out of range'),
      withCode('23505'),
      new Error('boom'),
      'ECONNREFUSED',
      null,
    ]) {
      expect(isDatabaseUnavailableError(error)).toBe(false)
    }
  })
})

test('Outage logs the start and the end of an outage once each, and a new outage after a quiet minute', () => {
  const lines: { msg: string }[] = []
  const outage = new Outage(
    pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
    'database',
  )
  outage.succeeded(0)
  for (let t = 0; t < 10; t++) outage.failed(new Error('down'), 1000 + t)
  expect(outage.failedWithin(1000, 1500)).toBe(true)
  outage.succeeded(2000)
  expect(outage.failedWithin(1000, 2001)).toBe(false)
  outage.failed(new Error('down'), 3000)
  outage.failed(new Error('down'), 70_000)
  expect(lines.map((line) => line.msg)).toEqual([
    'database unavailable',
    'database available again',
    'database unavailable',
    'database unavailable',
  ])
})
