import { describe, expect, test } from 'bun:test'
import { recordingSite, scanSession } from '../../tests/support/collector.ts'
import { SseChannel } from './sse.ts'
import type { Limits } from './types.ts'

/**
 * A hand-written HTTP+SSE server: GET /sse opens a stream announcing `endpoint`; each POST to /messages is
 * accepted with 202 and `reply` decides what the stream says next (or whether it ends).
 */
type Reply = (body: string, stream: { send(data: unknown): void; end(): void }) => void
const state: { endpoint: string; reply: Reply } = { endpoint: '/messages?sessionId=s1', reply: () => {} }
let stream: ReadableStreamDefaultController<Uint8Array> | null = null
const encoder = new TextEncoder()
const control = {
  send: (data: unknown) => stream?.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(data)}\n\n`)),
  end: () => stream?.close(),
}

const site = recordingSite({
  routes: {
    '/sse': () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            stream = controller
            controller.enqueue(encoder.encode(`event: endpoint\ndata: ${state.endpoint}\n\n`))
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
    '/html': () =>
      new Response('<!doctype html><html><body>Hello</body></html>', { headers: { 'content-type': 'text/html' } }),
    '/messages': async (request) => {
      const body = await request.text()
      setTimeout(() => state.reply(body, control), 5)
      return new Response('Accepted', { status: 202 })
    },
  },
})

const limits = (): Limits => ({ timeoutMs: 1_000, budget: AbortSignal.timeout(10_000) })

async function open(endpoint = '/messages?sessionId=s1'): Promise<SseChannel> {
  state.endpoint = endpoint
  const opened = await SseChannel.open(scanSession(), `${site.origin}/sse`, limits())
  if (opened.error !== undefined) throw new Error(opened.error)
  return opened.channel
}

const request = (id: string, method = 'ping') => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id, method }),
  id,
})

describe('SseChannel', () => {
  test('the answer is the stream message with the request id; other sessions’ answers and notifications are ignored', async () => {
    state.reply = (body, out) => {
      const { id } = JSON.parse(body) as { id: string }
      out.send({ jsonrpc: '2.0', id: 1, result: { foreign: true } })
      out.send({ jsonrpc: '2.0', id: 'ar-other-1', result: { foreign: true } })
      out.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } })
      out.send({ jsonrpc: '2.0', id, result: { mine: true } })
    }
    const channel = await open()
    expect(channel.messageUrl).toBe(`${site.origin}/messages?sessionId=s1`)
    expect(channel.opening).toMatchObject({ status: 200, contentType: 'text/event-stream' })
    const exchange = await channel.post(request('ar-x-1'))
    expect(exchange).toMatchObject({ status: 202, response: { result: { mine: true } } })
    expect(exchange.messages).toHaveLength(1)
    await channel.close()
  })

  test('a body the server cannot read draws its parse error (id null) on the stream', async () => {
    state.reply = (_body, out) =>
      out.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    const channel = await open()
    const exchange = await channel.post({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    })
    expect(exchange.response?.error?.code).toBe(-32700)
    await channel.close()
  })

  test('an answer that never comes, or a stream that ends first, leaves the exchange unfinished with the reason', async () => {
    state.reply = () => {}
    const silent = await open()
    expect((await silent.post(request('ar-x-2'))).error).toContain('no answer on the SSE stream')
    await silent.close()
    state.reply = (_body, out) => out.end()
    const ending = await open()
    const exchange = await ending.post(request('ar-x-3'))
    expect(exchange.response).toBeUndefined()
    expect(exchange.error).toContain('ended before the answer')
  })

  test('an endpoint on another origin is refused; an HTML page is no stream', async () => {
    state.endpoint = 'https://elsewhere.example/messages'
    const foreign = await SseChannel.open(scanSession(), `${site.origin}/sse`, limits())
    expect(foreign.error).toContain("not a URL on the stream's origin")
    const page = await SseChannel.open(scanSession(), `${site.origin}/html`, limits())
    expect(page.error).toContain('not an event stream')
    expect(page.error === undefined ? null : page.opening.html).toBe(true)
  })
})
