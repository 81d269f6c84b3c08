import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../core/config.ts'
import { clientIp, startWorld, type World } from '../../tests/support/world.ts'

/**
 * DNS-rebinding protection of /api/mcp: a page on a name its attacker controls, rebound to a self-hosted instance,
 * reaches the server with that name as Host and Origin. Only the deployment's own names pass.
 */

let world: World

beforeAll(async () => {
  world = await startWorld([], {
    browser: null,
    env: { PUBLIC_BASE_URL: 'https://scan.example.com', ALLOWED_HOSTS: 'mcp.internal.test, 10.1.2.3' },
  })
})
afterAll(() => world.close())

function send(url: string, headers: Record<string, string> = {}, method = 'POST'): Promise<Response> {
  return world.handle.app.handle(
    new Request(url, {
      method,
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'x-forwarded-for': clientIp(),
        ...headers,
      },
      body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) : undefined,
    }),
  )
}

describe('Host and Origin of /api/mcp', () => {
  test("the deployment's own names pass: PUBLIC_BASE_URL's host, loopback and ALLOWED_HOSTS, with any port", async () => {
    for (const url of [
      'https://scan.example.com/api/mcp',
      'http://localhost/api/mcp',
      'http://127.0.0.1:3000/api/mcp',
      'http://[::1]:3000/api/mcp',
      'http://mcp.internal.test/api/mcp',
      'http://10.1.2.3:8080/api/mcp',
    ]) {
      const response = await send(url)
      expect({ url, status: response.status }).toEqual({ url, status: 200 })
    }
    for (const origin of ['http://localhost:6274', 'https://scan.example.com', 'http://mcp.internal.test:8080']) {
      expect((await send('http://localhost/api/mcp', { origin })).status).toBe(200)
    }
  })

  test('a foreign Host or Origin gets 403 HOST_NOT_ALLOWED in the error envelope, on every method', async () => {
    const cases: [string, Record<string, string>][] = [
      ['http://evil.example.com/api/mcp', {}],
      ['http://localhost/api/mcp', { host: 'evil.example.com' }],
      ['http://localhost/api/mcp', { origin: 'http://evil.example.com' }],
      ['http://localhost/api/mcp', { origin: 'http://scan.example.com.evil.example' }],
      ['http://localhost/api/mcp', { origin: 'null' }],
    ]
    for (const [url, headers] of cases) {
      const response = await send(url, headers)
      expect({ url, headers, status: response.status }).toEqual({ url, headers, status: 403 })
      const body = await response.json()
      expect(body).toMatchObject({
        error: 'Host not allowed',
        code: 'HOST_NOT_ALLOWED',
        message: expect.stringContaining('ALLOWED_HOSTS'),
      })
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
    }
    for (const method of ['GET', 'DELETE', 'OPTIONS']) {
      expect((await send('http://localhost/api/mcp', { origin: 'http://evil.example.com' }, method)).status).toBe(403)
      expect((await send('http://localhost/api/mcp', {}, method)).status).toBe(method === 'OPTIONS' ? 204 : 405)
    }
  })

  test('a refused request spends nothing of the rate limit of the browser it came from', async () => {
    const ip = clientIp()
    for (let i = 0; i < 61; i++)
      expect(
        (await send('http://localhost/api/mcp', { origin: 'http://evil.example.com', 'x-forwarded-for': ip })).status,
      ).toBe(403)
    expect((await send('http://localhost/api/mcp', { 'x-forwarded-for': ip })).status).toBe(200)
  })

  test('the discovery documents stay readable from anywhere', async () => {
    const card = await world.handle.app.handle(
      new Request('http://evil.example.com/api/mcp/server-card', { headers: { origin: 'http://evil.example.com' } }),
    )
    expect(card.status).toBe(200)
  })
})

describe('ALLOWED_HOSTS', () => {
  test('is parsed once into lower-case host names; anything else stops start-up naming the variable', () => {
    expect(loadConfig({ ALLOWED_HOSTS: ' Scan.Example.com, 10.0.0.5,[::1] ' }).allowedHosts).toEqual([
      'scan.example.com',
      '10.0.0.5',
      '[::1]',
    ])
    expect(loadConfig({}).allowedHosts).toEqual([])
    for (const bad of ['https://scan.example.com', 'scan.example.com:3000', 'two words', '::1', 'a/b']) {
      expect(() => loadConfig({ ALLOWED_HOSTS: bad })).toThrow(ConfigError)
      expect(() => loadConfig({ ALLOWED_HOSTS: bad })).toThrow(/ALLOWED_HOSTS/)
    }
  })
})
