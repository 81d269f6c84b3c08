import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import SwaggerParser from '@apidevtools/swagger-parser'
import { sql } from 'drizzle-orm'
import { type AppHandle, createApp } from '../app/app.ts'
import { CONTRACT_VERSION } from '../core/version.ts'
import { MemoryStore } from '../core/store/memory.ts'
import { request, testApp, testConfig } from './helpers.ts'

let handle: AppHandle
beforeAll(async () => {
  handle = await testApp()
})
afterAll(() => handle.close())

async function readiness(app: AppHandle, status: number) {
  const response = await app.app.handle(request('/readyz'))
  expect(response.status).toBe(status)
  return (await response.json()) as {
    status: string
    checks: Record<'database' | 'store', { ok: boolean; kind: string }>
  }
}

describe('operations routes', () => {
  test('GET /healthz is 200', async () => {
    const response = await handle.app.handle(request('/healthz'))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
  })

  test('GET /readyz reports the database and the store', async () => {
    const body = await readiness(handle, 200)
    expect(body.status).toBe('ready')
    expect(body.checks.database.ok).toBe(true)
    expect(body.checks.store.ok).toBe(true)
    expect(body.checks.database.kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite')
    expect(body.checks.store.kind).toBe(process.env.REDIS_URL ? 'redis' : 'memory')
  })

  test('every response carries a request id, and a sane presented one is echoed', async () => {
    const generated = await handle.app.handle(request('/healthz'))
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const echoed = await handle.app.handle(request('/healthz', { headers: { 'x-request-id': 'trace-12345678' } }))
    expect(echoed.headers.get('x-request-id')).toBe('trace-12345678')
    const refused = await handle.app.handle(request('/healthz', { headers: { 'x-request-id': 'bad id <script>' } }))
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('error envelope', () => {
  test('unknown route: 404 ENDPOINT_NOT_FOUND in the ErrorResponse shape', async () => {
    const response = await handle.app.handle(request('/api/nope'))
    expect(response.status).toBe(404)
    const body = await response.json()
    expect(body.code).toBe('ENDPOINT_NOT_FOUND')
    expect(typeof body.error).toBe('string')
    expect(typeof body.message).toBe('string')
    expect(response.headers.get('x-request-id')).toBeTruthy()
  })

  test('unknown ARD route answers in the ArdErrorResponse shape', async () => {
    const response = await handle.app.handle(request('/api/ard/nope'))
    expect(response.status).toBe(404)
    const body = await response.json()
    expect(body).toEqual({ errorCode: 'NOT_FOUND', message: expect.any(String) })
  })

  test('a body over 1 MiB is refused with 413, by its Content-Length or while it is read', async () => {
    const big = JSON.stringify({ url: 'x'.repeat(1024 * 1024 + 10) })
    const declared = await handle.app.handle(
      request('/api/scan', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
        body: big,
      }),
    )
    expect(declared.status).toBe(413)
    expect((await declared.json()).code).toBe('PAYLOAD_TOO_LARGE')
    // A chunked body announces no length: the parser counts bytes as they arrive.
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big))
        controller.close()
      },
    })
    const streamed = await handle.app.handle(
      new Request('http://localhost/api/scan', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: chunked,
      }),
    )
    expect(streamed.status).toBe(413)
    expect((await streamed.json()).code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('no stack trace or internals in an error body', async () => {
    const response = await handle.app.handle(request('/api/nope'))
    const text = await response.text()
    expect(text).not.toMatch(/at .*\.ts:\d+/)
    expect(text).not.toContain('node_modules')
  })
})

describe('API description', () => {
  test('/openapi.json is a valid OpenAPI 3.1 document versioned with the contract', async () => {
    const response = await handle.app.handle(request('/openapi.json'))
    expect(response.status).toBe(200)
    const document = await response.json()
    expect(document.openapi).toStartWith('3.1')
    expect(document.info.version).toBe(CONTRACT_VERSION)
    expect(document.paths['/healthz']).toBeDefined()
    expect(document.paths['/readyz']).toBeDefined()
    await SwaggerParser.validate(structuredClone(document))
  })

  test('/swagger serves Swagger UI with locally hosted assets', async () => {
    const page = await handle.app.handle(request('/swagger'))
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('swagger-ui')
    expect(html).toContain('/swagger/assets/swagger-ui-bundle.js')
    // The spec URL is relative so the docs also work behind a proxy under a subpath; from /swagger it is /openapi.json.
    const specUrl = /"url":"([^"]+)"/.exec(html)![1]!
    expect(new URL(specUrl, 'http://localhost/swagger').pathname).toBe('/openapi.json')
    const bundle = await handle.app.handle(request('/swagger/assets/swagger-ui-bundle.js'))
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get('content-type')).toContain('javascript')
  })
})

describe('API keys', () => {
  test('a created key resolves to its tier; only a hash is stored', async () => {
    const created = await handle.pieces.keys.create('scan', 'ci pipeline')
    expect(created.key).toStartWith('ark_')
    const resolved = await handle.pieces.keys.resolve(created.key)
    expect(resolved).toEqual({ id: created.id, tier: 'scan', label: 'ci pipeline' })
    const rows = await handle.pieces.database.db.execute(sql`select * from api_keys where id = ${created.id}`)
    const serialized = JSON.stringify(rows)
    expect(serialized).not.toContain(created.key)
    expect(serialized).not.toContain(created.key.slice(12))
  })

  test('revoking one key leaves the others working; unknown tokens resolve to null', async () => {
    const first = await handle.pieces.keys.create('partner', 'first')
    const second = await handle.pieces.keys.create('partner', 'second')
    expect(await handle.pieces.keys.revoke(first.id)).toBe(true)
    expect(await handle.pieces.keys.revoke(first.id)).toBe(false)
    expect(await handle.pieces.keys.resolve(first.key)).toBeNull()
    expect((await handle.pieces.keys.resolve(second.key))?.id).toBe(second.id)
    expect(await handle.pieces.keys.resolve('ark_not-a-real-key')).toBeNull()
    expect(await handle.pieces.keys.resolve('garbage')).toBeNull()
    const listed = await handle.pieces.keys.list()
    expect(listed.find((row) => row.id === first.id)?.revokedAt).toBeInstanceOf(Date)
    expect(listed.find((row) => row.id === second.id)?.revokedAt).toBeNull()
  })
})

test('every route that takes a JSON body documents it in OpenAPI', async () => {
  const document = await (await handle.app.handle(request('/openapi.json'))).json()
  const posts = Object.entries(
    document.paths as Record<string, { post?: { requestBody?: { content?: Record<string, unknown> } } }>,
  ).filter(([path, item]) => item.post && path !== '/api/mcp')
  expect(posts.length).toBeGreaterThan(3)
  for (const [path, item] of posts) {
    expect(`${path}: ${Object.keys(item.post!.requestBody?.content ?? {}).join(',')}`).toBe(`${path}: application/json`)
  }
})

test('GET /readyz is 503 naming the part that is down when the store cannot be reached', async () => {
  const store = new MemoryStore(() => {})
  const down = await createApp(testConfig(), { store })
  try {
    store.ping = () => Promise.reject(new Error('connection refused'))
    const body = await readiness(down, 503)
    expect(body.status).toBe('not_ready')
    expect(body.checks.store.ok).toBe(false)
    expect(body.checks.database.ok).toBe(true)
  } finally {
    await down.close()
  }
})
