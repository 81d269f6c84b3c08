import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import net from 'node:net'
import { loadConfig } from '../config.ts'
import { type EgressEvent, type EgressProxy, startEgressProxy } from './egress-proxy.ts'

/**
 * The browser's egress proxy applies the outbound client's address policy: refused destinations get 403 and not
 * one byte; allowed ones are fetched (plain HTTP, redirects handed back) or tunnelled (CONNECT) to the address
 * that was checked.
 */

let target: ReturnType<typeof Bun.serve>
const targetHost = '127.0.0.2'
const origin = () => `${targetHost}:${target.port}`

beforeAll(() => {
  target = Bun.serve({
    port: 0,
    hostname: targetHost,
    fetch(request) {
      const url = new URL(request.url)
      if (url.pathname === '/redirect')
        return new Response(null, { status: 302, headers: { location: 'http://127.0.0.3/next' } })
      const headers = new Headers({ 'x-path': url.pathname })
      headers.append('set-cookie', 'a=1')
      headers.append('set-cookie', 'b=2')
      return new Response(
        `hello ${request.method} ${url.pathname} ${request.headers.get('proxy-connection') ?? 'no-proxy-header'}`,
        { headers },
      )
    },
  })
})
afterAll(() => target.stop(true))

/** Sends raw bytes to the proxy and returns everything it answers until it closes (or `until` matches). */
async function talk(proxy: EgressProxy, text: string, until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.port, '127.0.0.1', () => socket.write(text))
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(received)
    }, 5_000)
    socket.on('data', (data) => {
      received += data.toString('latin1')
      if (until?.test(received)) {
        clearTimeout(timer)
        socket.destroy()
        resolve(received)
      }
    })
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(received)
    })
    socket.on('error', reject)
  })
}

async function withProxy(
  env: Record<string, string>,
  run: (proxy: EgressProxy, events: EgressEvent[]) => Promise<void>,
): Promise<void> {
  const events: EgressEvent[] = []
  const proxy = await startEgressProxy(loadConfig(env), { onEvent: (event) => events.push(event) })
  try {
    await run(proxy, events)
  } finally {
    await proxy.close()
  }
}

describe('egress proxy, SCANNER_ALLOW_PRIVATE=false', () => {
  const env = { SCANNER_ALLOW_PRIVATE: 'false', SCANNER_RESOLVE: '' }

  test.each([
    ['a loopback address', () => `${origin()}`],
    ['an IPv4 address in hex', () => `0x7f.0.0.2:${target.port}`],
    ['an IPv4 address as one number', () => `${0x7f000002}:${target.port}`],
    ['an IPv4-mapped IPv6 address', () => `[::ffff:127.0.0.2]:${target.port}`],
    ['a name that resolves to loopback', () => `localhost:${target.port}`],
  ])('CONNECT to %s is refused with 403', async (_name, destination) => {
    await withProxy(env, async (proxy, events) => {
      const answer = await talk(proxy, `CONNECT ${destination()} HTTP/1.1\r\nhost: ${destination()}\r\n\r\n`)
      expect(answer).toStartWith('HTTP/1.1 403')
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({ kind: 'connect', allowed: false })
      expect(events[0]!.reason).toContain('(loopback')
    })
  })

  test('a plain request to a loopback address is refused with 403 and never sent', async () => {
    await withProxy(env, async (proxy, events) => {
      const answer = await talk(
        proxy,
        `GET http://${origin()}/secret HTTP/1.1\r\nhost: ${origin()}\r\nconnection: close\r\n\r\n`,
      )
      expect(answer).toStartWith('HTTP/1.1 403')
      expect(events).toMatchObject([{ kind: 'request', destination: `http://${origin()}/secret`, allowed: false }])
    })
  })

  test('a SCANNER_RESOLVE mapping to loopback obeys the private-address rule', async () => {
    await withProxy(
      {
        ...env,
        SCANNER_RESOLVE: `evil.test:443:${targetHost}:${target.port},evil.test:80:${targetHost}:${target.port}`,
      },
      async (proxy, events) => {
        expect(await talk(proxy, 'CONNECT evil.test:443 HTTP/1.1\r\nhost: evil.test:443\r\n\r\n')).toStartWith(
          'HTTP/1.1 403',
        )
        expect(
          await talk(proxy, 'GET http://evil.test/ HTTP/1.1\r\nhost: evil.test\r\nconnection: close\r\n\r\n'),
        ).toStartWith('HTTP/1.1 403')
        expect(events.map((event) => event.reason)).toEqual([
          expect.stringContaining('for evil.test (mapped to 127.0.0.2 by SCANNER_RESOLVE)'),
          expect.stringContaining('for evil.test (mapped to 127.0.0.2 by SCANNER_RESOLVE)'),
        ])
      },
    )
  })
})

describe('egress proxy, SCANNER_ALLOW_PRIVATE=true', () => {
  const env = { SCANNER_ALLOW_PRIVATE: 'true', SCANNER_RESOLVE: '' }

  test('a plain request is fetched through the guarded client; hop-by-hop headers stay here, cookies come back', async () => {
    await withProxy(env, async (proxy, events) => {
      const answer = await talk(
        proxy,
        `GET http://${origin()}/page HTTP/1.1\r\nhost: ${origin()}\r\nproxy-connection: keep-alive\r\nconnection: close\r\n\r\n`,
        /no-proxy-header/,
      )
      expect(answer).toStartWith('HTTP/1.1 200')
      expect(answer).toContain('hello GET /page no-proxy-header')
      expect(answer.toLowerCase()).toContain('set-cookie: a=1')
      expect(answer.toLowerCase()).toContain('set-cookie: b=2')
      expect(events).toEqual([{ kind: 'request', destination: `http://${origin()}/page`, allowed: true }])
    })
  })

  test('a redirect is handed back to the browser, not followed (the next hop comes through here again)', async () => {
    await withProxy(env, async (proxy) => {
      const answer = await talk(
        proxy,
        `GET http://${origin()}/redirect HTTP/1.1\r\nhost: ${origin()}\r\nconnection: close\r\n\r\n`,
        /\r\n\r\n/,
      )
      expect(answer).toStartWith('HTTP/1.1 302')
      expect(answer.toLowerCase()).toContain('location: http://127.0.0.3/next')
    })
  })

  test('CONNECT tunnels to the checked address', async () => {
    await withProxy(env, async (proxy, events) => {
      const answer = await talk(
        proxy,
        `CONNECT ${origin()} HTTP/1.1\r\nhost: ${origin()}\r\n\r\nGET /tunnelled HTTP/1.1\r\nhost: ${origin()}\r\nconnection: close\r\n\r\n`,
        /no-proxy-header/,
      )
      expect(answer).toStartWith('HTTP/1.1 200 Connection Established\r\n\r\nHTTP/1.1 200')
      expect(answer).toContain('hello GET /tunnelled')
      expect(events).toEqual([{ kind: 'connect', destination: origin(), allowed: true }])
    })
  })

  test('CONNECT follows a SCANNER_RESOLVE mapping', async () => {
    await withProxy({ ...env, SCANNER_RESOLVE: `shop.test:8443:${targetHost}:${target.port}` }, async (proxy) => {
      const answer = await talk(
        proxy,
        'CONNECT shop.test:8443 HTTP/1.1\r\nhost: shop.test:8443\r\n\r\nGET /mapped HTTP/1.1\r\nhost: shop.test\r\nconnection: close\r\n\r\n',
        /no-proxy-header/,
      )
      expect(answer).toContain('hello GET /mapped')
    })
  })

  test.each([
    ['cloud metadata', '169.254.169.254:80'],
    ['the unspecified address', '0.0.0.0:80'],
    ['multicast', '224.0.0.1:80'],
  ])('%s is refused even so', async (_name, destination) => {
    await withProxy(env, async (proxy, events) => {
      expect(await talk(proxy, `CONNECT ${destination} HTTP/1.1\r\nhost: ${destination}\r\n\r\n`)).toStartWith(
        'HTTP/1.1 403',
      )
      expect(
        await talk(proxy, `GET http://${destination}/ HTTP/1.1\r\nhost: ${destination}\r\nconnection: close\r\n\r\n`),
      ).toStartWith('HTTP/1.1 403')
      expect(events.every((event) => !event.allowed && /never allowed/.test(event.reason ?? ''))).toBe(true)
    })
  })

  test('the proxy is not a web server, and a WebSocket upgrade must be a CONNECT', async () => {
    await withProxy(env, async (proxy) => {
      expect(await talk(proxy, `GET /page HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`)).toStartWith(
        'HTTP/1.1 400',
      )
      const upgrade = await talk(
        proxy,
        `GET http://${origin()}/ws HTTP/1.1\r\nhost: ${origin()}\r\nconnection: upgrade\r\nupgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      )
      expect(upgrade).toStartWith('HTTP/1.1 403')
    })
  })
})
