/**
 * The byte cap on what the outbound client reads, enforced while streaming and after decompression: a 1 GiB gzip
 * bomb, an endless gzip stream and an endless chunked body are cut at the cap, the connection is dropped (the server
 * sees its stream cancelled and stops writing), memory stays low; and the byte budget a scan shares across requests.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { gzipZeroChunks } from '../../tests/fixtures/hostile/server.ts'
import { loadConfig } from '../config.ts'
import { type ByteBudget, createOutboundClient, OutboundError } from './client.ts'
import { SCAN_MAX_BYTES, ScanSession } from './session.ts'
import { rssGrowth } from '../../tests/support/rss.ts'

const MiB = 1024 * 1024
const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true' })
const CAP = config.scanner.maxBytes
const client = createOutboundClient(config, null)

/** Per path: bytes the server wrote, and whether the client cancelled the body (dropped the connection). */
let sent: Record<string, number> = {}
let cancelled: Record<string, boolean> = {}
let server: ReturnType<typeof Bun.serve>
let origin: string

function streamed(path: string, next: (index: number) => Uint8Array | null): ReadableStream<Uint8Array> {
  let index = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = next(index++)
      if (chunk === null) return controller.close()
      sent[path] = (sent[path] ?? 0) + chunk.byteLength
      controller.enqueue(chunk)
    },
    cancel() {
      cancelled[path] = true
    },
  })
}

beforeAll(() => {
  const plain = new Uint8Array(64 * 1024).fill(0x61)
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    fetch(request) {
      const path = new URL(request.url).pathname
      const gzip = { 'content-type': 'text/plain', 'content-encoding': 'gzip' }
      if (path.startsWith('/bomb')) return new Response(streamed(path, gzipZeroChunks(1024)), { headers: gzip })
      if (path.startsWith('/endless-gzip')) return new Response(streamed(path, gzipZeroChunks(null)), { headers: gzip })
      if (path.startsWith('/endless'))
        return new Response(
          streamed(path, () => plain),
          { headers: { 'content-type': 'text/plain' } },
        )
      return new Response('small')
    },
  })
  origin = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))
beforeEach(() => {
  sent = {}
  cancelled = {}
})

async function eventually(condition: () => boolean, ms = 2_000): Promise<boolean> {
  const until = performance.now() + ms
  while (!condition() && performance.now() < until) await Bun.sleep(10)
  return condition()
}

describe('request(): the cap holds after decompression, while streaming', () => {
  test('a 1 GiB gzip bomb (1 MB on the wire) is cut at the cap with memory staying low', async () => {
    const { value: result, growthMb } = await rssGrowth(() => client.request(`${origin}/bomb`))
    expect(result.body.byteLength).toBe(CAP)
    expect(result.truncated).toBe(true)
    expect(result.body.every((byte) => byte === 0)).toBe(true)
    // Reading it all would be 1024 MiB; the cap is 5 MiB, held twice at most (chunks, then the body).
    expect(growthMb).toBeLessThan(64)
  })

  test('six bombs at once stay far below what one uncapped would cost', async () => {
    const { value: results, growthMb } = await rssGrowth(() =>
      Promise.all(Array.from({ length: 6 }, (_, index) => client.request(`${origin}/bomb-${index}`))),
    )
    expect(results.map((result) => result.body.byteLength)).toEqual(Array(6).fill(CAP))
    expect(growthMb).toBeLessThan(256)
  })

  test.each(['/endless-gzip', '/endless'])(
    '%s: cut at the cap, and the connection is dropped (the server stops writing)',
    async (path) => {
      const result = await client.request(`${origin}${path}`)
      expect(result.body.byteLength).toBe(CAP)
      expect(result.truncated).toBe(true)
      expect(await eventually(() => cancelled[path] === true)).toBe(true)
      const written = sent[path]!
      await Bun.sleep(100)
      // Nothing more is pulled once the client hung up; what was written is the cap plus socket buffers, not more.
      expect(sent[path]).toBe(written)
      expect(written).toBeLessThan(path === '/endless' ? CAP + 32 * MiB : 32 * MiB)
    },
  )
})

describe('stream(): passing the cap is an error that drops the connection', () => {
  test('an endless body errors with BODY_TOO_LARGE and the server sees the stream cancelled', async () => {
    const response = await client.stream(`${origin}/endless`, { maxBytes: MiB })
    const error = await response.arrayBuffer().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(OutboundError)
    expect((error as OutboundError).code).toBe('BODY_TOO_LARGE')
    expect(await eventually(() => cancelled['/endless'] === true)).toBe(true)
  })
})

describe('a byte budget shared by requests', () => {
  test('each body takes its share; once spent, bodies are cut (request) or fail (stream)', async () => {
    const budget: ByteBudget = { remaining: CAP + MiB }
    const first = await client.request(`${origin}/endless`, { budget })
    const second = await client.request(`${origin}/endless-gzip`, { budget })
    const third = await client.request(`${origin}/endless`, { budget })
    expect([first.body.byteLength, second.body.byteLength, third.body.byteLength]).toEqual([CAP, MiB, 0])
    expect([first.truncated, second.truncated, third.truncated]).toEqual([true, true, true])
    expect(budget.remaining).toBe(0)
    // A short body within the budget is read whole and is not truncated.
    expect((await client.request(`${origin}/small`, { budget: { remaining: 100 } })).truncated).toBe(false)

    const streamed = await client.stream(`${origin}/endless`, { budget })
    const error = await streamed.arrayBuffer().catch((caught: unknown) => caught)
    expect((error as OutboundError).code).toBe('BODY_TOO_LARGE')
  })

  test('a scan session reads at most SCAN_MAX_BYTES in all, however many endless bodies it meets', async () => {
    const session = new ScanSession(client, config)
    const paths = Array.from({ length: 12 }, (_, index) => `/endless-${index}`)
    const results = await Promise.all(paths.map((path) => session.request(`${origin}${path}`)))
    const total = results.reduce((sum, result) => sum + result.body.byteLength, 0)
    expect(total).toBe(SCAN_MAX_BYTES)
    expect(session.bytesLeft).toBe(0)
    expect(results.every((result) => result.truncated)).toBe(true)
  })

  test('maxBytes 0 answers the headers and reads none of the body: nothing is decompressed or taken from the budget', async () => {
    const session = new ScanSession(client, config)
    const [bomb, endless] = await Promise.all([
      session.request(`${origin}/bomb-headers`, { maxBytes: 0 }),
      session.request(`${origin}/endless-headers`, { maxBytes: 0 }),
    ])
    expect([bomb.status, bomb.body.byteLength, bomb.truncated, bomb.headers.get('content-encoding')]).toEqual([
      200,
      0,
      true,
      'gzip',
    ])
    expect([endless.body.byteLength, endless.truncated]).toEqual([0, true])
    expect(session.bytesLeft).toBe(SCAN_MAX_BYTES)
  })

  test('a caller with an allowance of its own (the browser) spends that one, not the scan’s', async () => {
    const session = new ScanSession(client, config)
    const own: ByteBudget = { remaining: MiB }
    const result = await session.request(`${origin}/endless-own`, { budget: own })
    expect(result.body.byteLength).toBe(MiB)
    expect(own.remaining).toBe(0)
    expect(session.bytesLeft).toBe(SCAN_MAX_BYTES)
  })
})
