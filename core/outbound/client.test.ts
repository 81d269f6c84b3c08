import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { loadConfig } from '../config.ts'
import { loadSigningKeys } from '../crypto/signing.ts'
import { createRequestSigner } from '../crypto/web-bot-auth.ts'
import { createOutboundClient, OutboundError, type OutboundErrorCode } from './client.ts'

/** What the fixture saw of a request. */
interface Echo {
  method: string
  path: string
  host: string | null
  headers: Record<string, string>
  body: string
}

const TEST_KEY_JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
}
const DIRECTORY_ORIGIN = 'https://agent-readiness.example'

/** A self-signed certificate for fixture.test (test only): no public CA vouches for it. */
const SELF_SIGNED = {
  cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUSgAwIBAgIUBBeO5UBln4HuCXobsSUfj8MCpmQwCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMZml4dHVyZS50ZXN0MCAXDTI2MTEyMjA1MTA1OVoYDzIxMjYx
MDI5MDUxMDU5WjAXMRUwEwYDVQQDDAxmaXh0dXJlLnRlc3QwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAATwulRmL7MHx0NgJB7ZgVUwksjgwtvwzMJv6U0YD1/TU25s
5hfhVueS6gaVHv406depYCbRREWlZWcnN7Z3Vls+o2wwajAdBgNVHQ4EFgQU+vfo
TD/+hSqU/MyLIz6NRnskibcwHwYDVR0jBBgwFoAU+vfoTD/+hSqU/MyLIz6NRnsk
ibcwDwYDVR0TAQH/BAUwAwEB/zAXBgNVHREEEDAOggxmaXh0dXJlLnRlc3QwCgYI
KoZIzj0EAwIDSQAwRgIhAPmqROK1xuztbF5EAP4vBFaTRvWMQd//faSmCNzbCRJC
AiEAoEast/F1frvSYbc3HpNGFDlSBWYsSQGwTEQ8ojsSBDo=
-----END CERTIFICATE-----`,
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg6xaFUKZcvZKCEWAC
Y1135cAJI0xxxUKrdzhYjQOj9XahRANCAATwulRmL7MHx0NgJB7ZgVUwksjgwtvw
zMJv6U0YD1/TU25s5hfhVueS6gaVHv406depYCbRREWlZWcnN7Z3Vls+
-----END PRIVATE KEY-----`,
}

const BOMB_BYTES = 64 * 1024 * 1024
const encoder = new TextEncoder()
let bomb: Uint8Array<ArrayBuffer>
let server: ReturnType<typeof Bun.serve>
let tlsServer: ReturnType<typeof Bun.serve>
let origin: string
let port: number
/** Resolves the fixture's hanging handlers so the servers stop cleanly. */
let releaseHanging: () => void
const hanging = new Promise<void>((resolve) => {
  releaseHanging = resolve
})
let releaseSse: () => void = () => {}

beforeAll(() => {
  // 64 MiB of zeros compress to about 64 KiB: a small download that would blow up an uncapped decoder.
  bomb = new Uint8Array(gzipSync(new Uint8Array(BOMB_BYTES)))
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      const param = (name: string): string => url.searchParams.get(name) ?? ''
      switch (url.pathname) {
        case '/echo':
        case '/x': {
          const echo: Echo = {
            method: request.method,
            path: `${url.pathname}${url.search}`,
            host: request.headers.get('host'),
            headers: Object.fromEntries(request.headers),
            body: await request.text(),
          }
          return Response.json(echo)
        }
        case '/to':
          return new Response(null, {
            status: Number(param('status') || 302),
            headers: { location: param('location') },
          })
        case '/chain': {
          const left = Number(param('n'))
          if (left === 0) return new Response('end of chain')
          return new Response(null, { status: 302, headers: { location: `/chain?n=${left - 1}` } })
        }
        case '/loop':
          return new Response(null, { status: 301, headers: { location: '/loop' } })
        case '/bomb':
          return new Response(bomb, { headers: { 'content-encoding': 'gzip', 'content-type': 'text/plain' } })
        case '/encoded': {
          const text = encoder.encode(param('text'))
          const coding = param('coding')
          const body =
            coding === 'gzip'
              ? gzipSync(text)
              : coding === 'deflate'
                ? deflateSync(text)
                : coding === 'br'
                  ? brotliCompressSync(text)
                  : text
          return new Response(body, {
            headers: { 'content-encoding': coding, 'content-type': 'text/plain; charset=utf-8' },
          })
        }
        case '/latin1':
          return new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), {
            headers: { 'content-type': 'text/plain; charset=ISO-8859-1' },
          })
        case '/bom':
          return new Response(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), {
            headers: { 'content-type': 'application/json; charset=iso-8859-1' },
          })
        case '/not-json':
          return new Response('<!doctype html><p>soft 404</p>', { headers: { 'content-type': 'text/html' } })
        case '/hang':
          await hanging
          return new Response('too late')
        case '/trickle':
          return new Response(
            new ReadableStream({
              async start(controller) {
                controller.enqueue(encoder.encode('first bytes '))
                await hanging
                controller.close()
              },
            }),
          )
        case '/sse': {
          const released = new Promise<void>((resolve) => {
            releaseSse = resolve
          })
          return new Response(
            new ReadableStream({
              async start(controller) {
                controller.enqueue(encoder.encode('event: message\ndata: one\n\n'))
                // The second event only exists once the client has read the first: proof of streaming.
                await released
                controller.enqueue(encoder.encode('event: message\ndata: two\n\n'))
                controller.close()
              },
            }),
            { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } },
          )
        }
        case '/big':
          return new Response(new Uint8Array(Number(param('bytes'))).fill(0x61))
        default:
          return new Response('not found', { status: 404 })
      }
    },
  })
  port = server.port!
  origin = `http://127.0.0.1:${port}`
  tlsServer = Bun.serve({ port: 0, hostname: '127.0.0.1', tls: SELF_SIGNED, fetch: () => new Response('secret') })
})

afterAll(() => {
  releaseHanging()
  releaseSse()
  server.stop(true)
  tlsServer.stop(true)
})

/** Fixture config: private addresses allowed (the fixtures listen on 127.0.0.1), unless a test says otherwise. */
const configWith = (env: Record<string, string> = {}) => loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', ...env })
const testKey = loadSigningKeys({ signingKey: JSON.stringify(TEST_KEY_JWK), signingKeysPrevious: [] }).current!
const signer = createRequestSigner(testKey, `${DIRECTORY_ORIGIN}/.well-known/http-message-signatures-directory`)

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof OutboundError) return error
    throw error
  }
  throw new Error('expected an OutboundError, the request succeeded')
}

async function expectCode(promise: Promise<unknown>, code: OutboundErrorCode): Promise<OutboundError> {
  const error = await failure(promise)
  expect(error.code).toBe(code)
  return error
}

/** Independent RFC 9421 verification of a signed request as the fixture received it. */
function verifyWebBotAuth(echo: Echo, authority: string): boolean {
  const input = echo.headers['signature-input']!
  const signature = /^sig1=:([A-Za-z0-9+/=]+):$/.exec(echo.headers.signature!)![1]!
  const base = [
    `"@authority": ${authority}`,
    `"@method": ${echo.method}`,
    `"@path": ${echo.path.split('?')[0]}`,
    `"signature-agent";key="sig1": "${DIRECTORY_ORIGIN}"`,
    `"@signature-params": ${input.replace(/^sig1=/, '')}`,
  ].join('\n')
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: TEST_KEY_JWK.x }, format: 'jwk' })
  return verify(null, Buffer.from(base), publicKey, Buffer.from(signature, 'base64'))
}

describe('address checks', () => {
  test('loopback is refused without SCANNER_ALLOW_PRIVATE, with a message that says how to allow it', async () => {
    const client = createOutboundClient(loadConfig({}), null)
    const error = await expectCode(client.request(`${origin}/echo`), 'BLOCKED_ADDRESS')
    expect(error.message).toBe(
      'refused 127.0.0.1 (loopback) for 127.0.0.1: set SCANNER_ALLOW_PRIVATE=true to scan private networks',
    )
    expect(error.url).toBe(`${origin}/echo`)
  })

  test('loopback is reachable with SCANNER_ALLOW_PRIVATE', async () => {
    const result = await createOutboundClient(configWith(), null).request(`${origin}/echo`)
    expect(result.status).toBe(200)
    expect(result.remoteAddress).toBe('127.0.0.1')
    expect(result.json<Echo>().path).toBe('/echo')
  })

  test('numeric spellings of loopback are judged as loopback', async () => {
    const blocked = createOutboundClient(loadConfig({}), null)
    for (const host of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]']) {
      await expectCode(blocked.request(`http://${host}:${port}/echo`), 'BLOCKED_ADDRESS')
    }
    const allowed = createOutboundClient(configWith(), null)
    expect((await allowed.request(`http://0x7f.1:${port}/echo`)).status).toBe(200)
  })

  test('a name whose DNS answer is private is refused (localhost → 127.0.0.1)', async () => {
    const error = await expectCode(
      createOutboundClient(loadConfig({}), null).request(`http://localhost:${port}/echo`),
      'BLOCKED_ADDRESS',
    )
    expect(error.message).toContain('(loopback) for localhost')
  })

  test('a SCANNER_RESOLVE mapping to a private address obeys the private-address rule', async () => {
    const client = createOutboundClient(loadConfig({ SCANNER_RESOLVE: `acme.test:443:127.0.0.1:${port}` }), null)
    const error = await expectCode(client.request('https://acme.test/x'), 'BLOCKED_ADDRESS')
    expect(error.message).toBe(
      'refused 127.0.0.1 (loopback) for acme.test (mapped to 127.0.0.1 by SCANNER_RESOLVE): set SCANNER_ALLOW_PRIVATE=true to scan private networks',
    )
  })

  test('metadata, unspecified and multicast addresses are refused even with SCANNER_ALLOW_PRIVATE', async () => {
    const client = createOutboundClient(configWith(), null)
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      `http://0.0.0.0:${port}/echo`,
      'http://[fd00:ec2::254]/',
      'http://224.0.0.1/',
    ]) {
      const error = await expectCode(client.request(url), 'BLOCKED_ADDRESS')
      expect(error.message).toContain('never allowed')
    }
  })

  // With private addresses allowed (the fixture is on loopback), only the forbidden tier is left to refuse:
  // an allowed first hop redirecting there proves that each hop is checked on its own.
  test('every redirect hop is checked again: an allowed first hop cannot lead to a forbidden address', async () => {
    const client = createOutboundClient(configWith(), null)
    for (const target of [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://0xA9FEA9FE/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      `http://0.0.0.0:${port}/echo`,
    ]) {
      const first = `${origin}/to?location=${encodeURIComponent(target)}`
      const error = await expectCode(client.request(first), 'BLOCKED_ADDRESS')
      expect(error.redirects).toEqual([{ url: first, status: 302 }])
    }
  })
})

describe('URLs', () => {
  const client = () => createOutboundClient(configWith(), null)

  test.each([
    ['not a url', 'INVALID_URL'],
    ['/relative/path', 'INVALID_URL'],
    ['ftp://example.com/file', 'UNSUPPORTED_SCHEME'],
    ['file:///etc/passwd', 'UNSUPPORTED_SCHEME'],
    ['http://user:secret@127.0.0.1/', 'INVALID_URL'],
  ] as const)('%s → %s', async (url, code) => {
    const error = await expectCode(client().request(url), code)
    expect(error.message).not.toContain('secret')
  })

  test('a redirect to another scheme or to a URL with credentials is refused', async () => {
    await expectCode(
      client().request(`${origin}/to?location=${encodeURIComponent('file:///etc/passwd')}`),
      'UNSUPPORTED_SCHEME',
    )
    await expectCode(
      client().request(`${origin}/to?location=${encodeURIComponent(`http://a:b@127.0.0.1:${port}/echo`)}`),
      'INVALID_URL',
    )
  })

  test('an unknown name is a DNS failure', async () => {
    await expectCode(client().request('http://no-such-host.invalid/'), 'DNS_FAILURE')
  })

  test('a closed port is a connection failure', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const closedPort = closed.port
    closed.stop(true)
    await expectCode(client().request(`http://127.0.0.1:${closedPort}/`), 'CONNECTION_FAILED')
  })

  test('a certificate no CA vouches for is a TLS failure', async () => {
    const error = await expectCode(client().request(`https://127.0.0.1:${tlsServer.port}/`), 'TLS_FAILURE')
    expect(error.message).toContain('TLS failed')
  })
})

describe('SCANNER_RESOLVE', () => {
  test('https://acme.test/x reaches the fixture over http, which sees Host: acme.test', async () => {
    const client = createOutboundClient(configWith({ SCANNER_RESOLVE: `acme.test:443:127.0.0.1:${port}` }), null)
    const result = await client.request('https://acme.test/x?q=1')
    const echo = result.json<Echo>()
    expect(echo.host).toBe('acme.test')
    expect(echo.path).toBe('/x?q=1')
    expect(result.url).toBe('https://acme.test/x?q=1')
    expect(result.remoteAddress).toBe('127.0.0.1')
  })

  test('the rule applies only to its port', async () => {
    const client = createOutboundClient(configWith({ SCANNER_RESOLVE: `acme.test:443:127.0.0.1:${port}` }), null)
    await expectCode(client.request('http://acme.test/x'), 'DNS_FAILURE')
    await expectCode(client.request('https://acme.test:8443/x'), 'DNS_FAILURE')
  })

  test('relative redirects stay on the mapped host', async () => {
    const client = createOutboundClient(configWith({ SCANNER_RESOLVE: `acme.test:443:127.0.0.1:${port}` }), null)
    const result = await client.request('https://acme.test/to?location=/echo')
    expect(result.url).toBe('https://acme.test/echo')
    expect(result.json<Echo>().host).toBe('acme.test')
  })
})

describe('redirects', () => {
  const client = () => createOutboundClient(configWith(), null)

  test('up to 5 are followed and recorded', async () => {
    const result = await client().request(`${origin}/chain?n=5`)
    expect(result.status).toBe(200)
    expect(result.text()).toBe('end of chain')
    expect(result.url).toBe(`${origin}/chain?n=0`)
    expect(result.requestedUrl).toBe(`${origin}/chain?n=5`)
    expect(result.redirects).toEqual([5, 4, 3, 2, 1].map((n) => ({ url: `${origin}/chain?n=${n}`, status: 302 })))
  })

  test('a sixth is TOO_MANY_REDIRECTS, with the chain', async () => {
    const error = await expectCode(client().request(`${origin}/chain?n=6`), 'TOO_MANY_REDIRECTS')
    expect(error.redirects).toHaveLength(6)
    expect(error.redirects[0]).toEqual({ url: `${origin}/chain?n=6`, status: 302 })
    const loop = await expectCode(client().request(`${origin}/loop`), 'TOO_MANY_REDIRECTS')
    expect(loop.redirects.every((hop) => hop.status === 301)).toBe(true)
    expect(loop.message).toContain('more than 5 redirects')
  })

  test('manual mode returns the redirect itself', async () => {
    const result = await client().request(`${origin}/to?location=/echo`, { redirect: 'manual' })
    expect(result.status).toBe(302)
    expect(result.headers.get('location')).toBe('/echo')
    expect(result.redirects).toEqual([])
  })

  test('303 turns POST into GET without the body; 307 keeps both', async () => {
    const post = { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } }
    const seeOther = (await client().request(`${origin}/to?status=303&location=/echo`, post)).json<Echo>()
    expect(seeOther.method).toBe('GET')
    expect(seeOther.body).toBe('')
    expect(seeOther.headers['content-type']).toBeUndefined()
    const temporary = (await client().request(`${origin}/to?status=307&location=/echo`, post)).json<Echo>()
    expect(temporary.method).toBe('POST')
    expect(temporary.body).toBe('{"a":1}')
  })

  test('credentials are dropped when a redirect changes origin', async () => {
    const client = createOutboundClient(configWith({ SCANNER_RESOLVE: `other.test:80:127.0.0.1:${port}` }), null)
    const headers = { authorization: 'Bearer t', cookie: 'a=b' }
    const same = (await client.request(`${origin}/to?location=/echo`, { headers })).json<Echo>()
    expect(same.headers.authorization).toBe('Bearer t')
    const cross = (await client.request(`${origin}/to?location=http://other.test/echo`, { headers })).json<Echo>()
    expect(cross.host).toBe('other.test')
    expect(cross.headers.authorization).toBeUndefined()
    expect(cross.headers.cookie).toBeUndefined()
  })
})

describe('bodies', () => {
  test('a gzip bomb is cut at maxBytes after decompression', async () => {
    const client = createOutboundClient(configWith(), null)
    const result = await client.request(`${origin}/bomb`, { maxBytes: 1_000_000 })
    expect(bomb.byteLength).toBeLessThan(200_000)
    expect(result.truncated).toBe(true)
    expect(result.body.byteLength).toBe(1_000_000)
    expect(result.body.every((byte) => byte === 0)).toBe(true)
  })

  test.each(['gzip', 'deflate', 'br', ''])('Content-Encoding "%s" is decoded', async (coding) => {
    const client = createOutboundClient(configWith(), null)
    const text = 'héllo '.repeat(100)
    const result = await client.request(`${origin}/encoded?coding=${coding}&text=${encodeURIComponent(text)}`)
    expect(result.text()).toBe(text)
    expect(result.truncated).toBe(false)
  })

  test('a body of exactly maxBytes is not truncated; one byte more is', async () => {
    const client = createOutboundClient(configWith(), null)
    const exact = await client.request(`${origin}/big?bytes=1000`, { maxBytes: 1000 })
    expect(exact.truncated).toBe(false)
    expect(exact.body.byteLength).toBe(1000)
    const over = await client.request(`${origin}/big?bytes=1001`, { maxBytes: 1000 })
    expect(over.truncated).toBe(true)
    expect(over.body.byteLength).toBe(1000)
  })

  test('config.scanner.maxBytes is the default cap', async () => {
    const client = createOutboundClient(configWith({ SCANNER_MAX_BYTES: '5000' }), null)
    const result = await client.request(`${origin}/big?bytes=20000`)
    expect(result.truncated).toBe(true)
    expect(result.body.byteLength).toBe(5000)
  })

  test('text() honours the declared charset, a BOM overrides it', async () => {
    const client = createOutboundClient(configWith(), null)
    expect((await client.request(`${origin}/latin1`)).text()).toBe('café')
    expect((await client.request(`${origin}/bom`)).json()).toEqual({})
  })

  test('json() on a non-JSON body throws an error naming the URL and what came back', async () => {
    const result = await createOutboundClient(configWith(), null).request(`${origin}/not-json`)
    expect(() => result.json()).toThrow(SyntaxError)
    expect(() => result.json()).toThrow(`${origin}/not-json (status 200, text/html) is not valid JSON`)
  })

  test('HEAD has an empty body', async () => {
    const result = await createOutboundClient(configWith(), null).request(`${origin}/big?bytes=10`, { method: 'HEAD' })
    expect(result.status).toBe(200)
    expect(result.body.byteLength).toBe(0)
  })
})

describe('timeouts and aborts', () => {
  test('no response within timeoutMs → TIMEOUT', async () => {
    const client = createOutboundClient(configWith(), null)
    const started = performance.now()
    const error = await expectCode(client.request(`${origin}/hang`, { timeoutMs: 200 }), 'TIMEOUT')
    expect(performance.now() - started).toBeLessThan(5000)
    expect(error.message).toContain('200 ms')
  })

  test('the timeout covers a body that never ends', async () => {
    const client = createOutboundClient(configWith({ SCANNER_TIMEOUT_MS: '300' }), null)
    await expectCode(client.request(`${origin}/trickle`), 'TIMEOUT')
  })

  test("the caller's abort rejects with the caller's reason", async () => {
    const client = createOutboundClient(configWith(), null)
    const controller = new AbortController()
    const pending = client.request(`${origin}/hang`, { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('scan cancelled')), 50)
    await expect(pending).rejects.toThrow('scan cancelled')
  })
})

describe('headers and Web Bot Auth', () => {
  test('an honest User-Agent by default; a caller may send another one', async () => {
    const config = configWith()
    const client = createOutboundClient(config, null)
    expect((await client.request(`${origin}/echo`)).json<Echo>().headers['user-agent']).toBe(config.scanner.userAgent)
    expect(config.scanner.userAgent).toContain('AgentReadiness')
    const asBot = await client.request(`${origin}/echo`, { headers: { 'User-Agent': 'GPTBot/1.2' } })
    expect(asBot.json<Echo>().headers['user-agent']).toBe('GPTBot/1.2')
  })

  test('no signer: no signature headers', async () => {
    const echo = (await createOutboundClient(configWith(), null).request(`${origin}/echo`)).json<Echo>()
    expect(echo.headers.signature).toBeUndefined()
    expect(echo.headers['signature-input']).toBeUndefined()
    expect(echo.headers['signature-agent']).toBeUndefined()
  })

  test('with a signer every request is signed, verifiably, over the authority the target sees', async () => {
    const client = createOutboundClient(configWith({ SCANNER_RESOLVE: `acme.test:443:127.0.0.1:${port}` }), signer)
    const direct = (await client.request(`${origin}/echo`)).json<Echo>()
    expect(direct.headers['signature-agent']).toBe(`sig1="${DIRECTORY_ORIGIN}"`)
    expect(verifyWebBotAuth(direct, `127.0.0.1:${port}`)).toBe(true)
    const mapped = (await client.request('https://acme.test/x')).json<Echo>()
    expect(verifyWebBotAuth(mapped, 'acme.test')).toBe(true)
    expect(verifyWebBotAuth(mapped, `127.0.0.1:${port}`)).toBe(false)
  })

  test('each redirect hop is signed afresh', async () => {
    const client = createOutboundClient(configWith(), signer)
    const echo = (await client.request(`${origin}/to?location=/echo`)).json<Echo>()
    expect(echo.path).toBe('/echo')
    expect(verifyWebBotAuth(echo, `127.0.0.1:${port}`)).toBe(true)
  })

  test('a POST body is covered through Content-Digest', async () => {
    const client = createOutboundClient(configWith(), signer)
    const echo = (await client.request(`${origin}/echo`, { method: 'POST', body: 'payload' })).json<Echo>()
    expect(echo.headers['content-digest']).toBe(
      `sha-256=:${new Bun.CryptoHasher('sha256').update('payload').digest('base64')}:`,
    )
    expect(echo.headers['signature-input']).toContain('"content-digest"')
  })

  test('sign: false sends an unsigned request', async () => {
    const echo = (
      await createOutboundClient(configWith(), signer).request(`${origin}/echo`, { sign: false })
    ).json<Echo>()
    expect(echo.headers.signature).toBeUndefined()
  })
})

describe('stream() and asFetch()', () => {
  test('asFetch streams server-sent events as they are sent', async () => {
    const fetch = createOutboundClient(configWith(), signer).asFetch()
    const response = await fetch(`${origin}/sse`, { headers: { accept: 'text/event-stream' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.url).toBe(`${origin}/sse`)
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    let received = ''
    while (!received.includes('data: one\n\n')) received += (await reader.read()).value
    expect(received).not.toContain('two')
    releaseSse()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      received += value
    }
    expect(received).toBe('event: message\ndata: one\n\nevent: message\ndata: two\n\n')
  })

  test('asFetch accepts a Request object with a body and headers', async () => {
    const fetch = createOutboundClient(configWith(), null).asFetch()
    const request = new Request(`${origin}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize' }),
    })
    const echo = (await (await fetch(request)).json()) as Echo
    expect(echo.method).toBe('POST')
    expect(echo.headers.accept).toBe('application/json, text/event-stream')
    expect(JSON.parse(echo.body)).toEqual({ jsonrpc: '2.0', id: 1, method: 'initialize' })
  })

  test('asFetch applies the same address rules', async () => {
    const fetch = createOutboundClient(loadConfig({}), null).asFetch()
    await expectCode(fetch(`${origin}/sse`), 'BLOCKED_ADDRESS')
  })

  test('an AbortSignal ends a stream in progress', async () => {
    const fetch = createOutboundClient(configWith(), null).asFetch()
    const controller = new AbortController()
    const response = await fetch(`${origin}/trickle`, { signal: controller.signal })
    const reader = response.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first bytes ')
    controller.abort(new Error('client gave up'))
    await expect(reader.read()).rejects.toThrow('client gave up')
  })

  test('stream(): the timeout covers the headers only, not a long body', async () => {
    const client = createOutboundClient(configWith(), null)
    await expectCode(client.stream(`${origin}/hang`, { timeoutMs: 200 }), 'TIMEOUT')
    const response = await client.stream(`${origin}/trickle`, { timeoutMs: 200 })
    const reader = response.body!.getReader()
    await reader.read()
    // Well past the timeout, the stream is still open and usable.
    await Bun.sleep(400)
    const next = await Promise.race([reader.read().then(() => 'data'), Bun.sleep(100).then(() => 'still open')])
    expect(next).toBe('still open')
    await reader.cancel()
  })

  test('stream(): decodes, and errors with BODY_TOO_LARGE past the cap', async () => {
    const client = createOutboundClient(configWith(), null)
    const decoded = await client.stream(`${origin}/encoded?coding=gzip&text=streamed`)
    expect(await decoded.text()).toBe('streamed')
    const big = await client.stream(`${origin}/big?bytes=100000`, { maxBytes: 1000 })
    const error = await failure(big.arrayBuffer())
    expect(error.code).toBe('BODY_TOO_LARGE')
  })
})
