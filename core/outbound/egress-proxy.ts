import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import net from 'node:net'
import type { Duplex } from 'node:stream'
import { Readable } from 'node:stream'
import type { Config } from '../config.ts'
import { createOutboundClient, OutboundError, type OutboundClient } from './client.ts'
import { checkDestination, EgressRefusal } from './egress-guard.ts'

/**
 * The browser's only way out. Chromium is launched with `--proxy-server` pointing here (browser-puppeteer.ts),
 * so every request of every frame, worker, popup and socket arrives at this proxy, which applies the outbound
 * client's address policy before a single byte leaves:
 * - plain HTTP (`GET http://host/…`) is fetched through the SSRF-guarded outbound client, redirects returned to
 *   the browser (which asks again, through here, so every hop is checked);
 * - CONNECT (https, ws, wss, TURN over TCP) resolves and checks the destination with the same policy
 *   (SCANNER_RESOLVE, address classes, SCANNER_ALLOW_PRIVATE), then pipes to the address it checked;
 * - anything refused gets 403 and never reaches the network.
 * It listens on 127.0.0.1 on an ephemeral port, one per browser.
 */

export interface EgressEvent {
  kind: 'request' | 'connect'
  /** `http://host/path` for requests, `host:port` for tunnels. */
  destination: string
  allowed: boolean
  /** Why it was refused (or failed). */
  reason?: string
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for `--proxy-server`. */
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

export interface EgressProxyOptions {
  /** The guarded client that fetches plain-HTTP requests; by default an unsigned one built from the config. */
  client?: OutboundClient
  /** Every decision, allowed or refused (logging, tests). */
  onEvent?: (event: EgressEvent) => void
  /** Simultaneous browser connections (tunnels included); more are refused. */
  maxConnections?: number
}

/** Hop-by-hop and proxy headers: they describe this leg, not the request the browser wants made. */
const HOP_HEADERS = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
])
/** The outbound client decodes bodies, so the encoding and length it was sent with no longer apply. */
const DECODED_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'])
const MAX_CONNECTIONS = 128

export async function startEgressProxy(
  config: Pick<Config, 'scanner'>,
  options: EgressProxyOptions = {},
): Promise<EgressProxy> {
  const { scanner } = config
  const client = options.client ?? createOutboundClient(config, null)
  const emit = (event: EgressEvent): void => {
    try {
      options.onEvent?.(event)
    } catch {
      // An observer's failure is not the proxy's.
    }
  }
  const open = new Set<Duplex>()
  const track = (socket: Duplex): void => {
    open.add(socket)
    socket.once('close', () => open.delete(socket))
  }

  const server = http.createServer((request, response) => {
    void forward(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502).end()
      else response.destroy()
    })
  })
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS
  server.on('connection', track)
  server.on('connect', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    track(socket)
    void tunnel(request, socket, head)
  })
  // A WebSocket upgrade sent as a plain request would bypass the CONNECT check: there is no such thing here.
  server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => {
    track(socket)
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
  })
  server.on('clientError', (_error, socket) => {
    socket.destroy()
  })

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = request.url ?? ''
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      // Origin-form: someone talked to the proxy as if it were a web server.
      response.writeHead(400, { 'content-type': 'text/plain' }).end('absolute URL required\n')
      return
    }
    const destination = url.href
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_HEADERS.has(name)) continue
      headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    const body = await readBody(request, scanner.maxBytes)
    if (body === 'too large') {
      emit({ kind: 'request', destination, allowed: false, reason: 'request body too large' })
      response.writeHead(413).end()
      return
    }
    const controller = new AbortController()
    response.once('close', () => controller.abort())
    let upstream: Response
    try {
      upstream = await client.stream(url, {
        method: request.method ?? 'GET',
        headers,
        body,
        redirect: 'manual',
        sign: false,
        signal: controller.signal,
      })
    } catch (error) {
      const code = error instanceof OutboundError ? error.code : 'CONNECTION_FAILED'
      const status =
        code === 'BLOCKED_ADDRESS'
          ? 403
          : code === 'INVALID_URL' || code === 'UNSUPPORTED_SCHEME'
            ? 400
            : code === 'TIMEOUT'
              ? 504
              : 502
      emit({
        kind: 'request',
        destination,
        allowed: false,
        reason: error instanceof Error ? error.message : String(error),
      })
      if (!response.headersSent) response.writeHead(status, { 'content-type': 'text/plain' }).end(`${code}\n`)
      return
    }
    emit({ kind: 'request', destination, allowed: true })
    const out: Record<string, string | string[]> = {}
    upstream.headers.forEach((value, name) => {
      if (DECODED_HEADERS.has(name) || name === 'set-cookie') return
      out[name] = value
    })
    const cookies = upstream.headers.getSetCookie()
    if (cookies.length > 0) out['set-cookie'] = cookies
    response.writeHead(upstream.status, upstream.statusText || undefined, out)
    if (!upstream.body) {
      response.end()
      return
    }
    const stream = Readable.fromWeb(upstream.body as unknown as import('node:stream/web').ReadableStream)
    stream.on('error', () => response.destroy())
    stream.pipe(response)
  }

  async function tunnel(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const raw = request.url ?? ''
    socket.on('error', () => socket.destroy())
    const refuse = (status: number, reason: string): void => {
      emit({ kind: 'connect', destination: raw, allowed: false, reason })
      socket.end(
        `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Bad Gateway'}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
      )
    }
    // CONNECT names host:port and nothing else; the URL parser canonicalises every IPv4 and IPv6 spelling.
    const port = /:(\d{1,5})$/.exec(raw)?.[1]
    let host: string
    try {
      const url = new URL(`http://${raw}`)
      if (!port || url.username || url.password || url.pathname !== '/' || url.search) throw new Error('not host:port')
      host = url.hostname
    } catch {
      refuse(403, `"${raw}" is not host:port`)
      return
    }
    let destination
    try {
      destination = await checkDestination(scanner, host, Number(port))
    } catch (error) {
      refuse(
        error instanceof EgressRefusal && error.code !== 'BLOCKED_ADDRESS' ? 502 : 403,
        error instanceof Error ? error.message : String(error),
      )
      return
    }
    if (socket.destroyed) return
    let upstream: net.Socket
    try {
      upstream = await connectFirst(
        destination.addresses.map(({ address }) => address),
        destination.port,
        scanner.timeoutMs,
      )
    } catch (error) {
      refuse(502, error instanceof Error ? error.message : String(error))
      return
    }
    track(upstream)
    if (socket.destroyed) {
      upstream.destroy()
      return
    }
    emit({ kind: 'connect', destination: raw, allowed: true })
    upstream.on('error', () => socket.destroy())
    socket.on('error', () => upstream.destroy())
    upstream.on('close', () => socket.destroy())
    socket.on('close', () => upstream.destroy())
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    if (head.length > 0) upstream.write(head)
    upstream.pipe(socket)
    socket.pipe(upstream)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as net.AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const socket of open) socket.destroy()
      server.closeAllConnections?.()
      await closed
    },
  }
}

async function readBody(request: IncomingMessage, maxBytes: number): Promise<Uint8Array | undefined | 'too large'> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.byteLength
    if (size > maxBytes) return 'too large'
    chunks.push(chunk)
  }
  return size === 0 ? undefined : new Uint8Array(Buffer.concat(chunks))
}

/** Connects to the first checked address that answers, in order, within the timeout. */
async function connectFirst(addresses: string[], port: number, timeoutMs: number): Promise<net.Socket> {
  let last: unknown = new Error('no address')
  for (const address of addresses) {
    try {
      return await new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect({ host: address, port })
        const timer = setTimeout(() => {
          socket.destroy()
          reject(new Error(`connecting to ${address}:${port} timed out`))
        }, timeoutMs)
        socket.once('connect', () => {
          clearTimeout(timer)
          socket.removeAllListeners('error')
          resolve(socket)
        })
        socket.once('error', (error) => {
          clearTimeout(timer)
          reject(error)
        })
      })
    } catch (error) {
      last = error
    }
  }
  throw last
}
