import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import dgram from 'node:dgram'
import net from 'node:net'
import { loadConfig } from '../config.ts'
import { createOutboundClient } from '../outbound/client.ts'
import type { EgressEvent } from '../outbound/egress-proxy.ts'
import type { BrowserFetch } from './browser.ts'
import { createBrowserProvider } from './browser-puppeteer.ts'

/**
 * A hostile page, scanned as a public host (`hostile.test`, reached through SCANNER_RESOLVE, SCANNER_ALLOW_PRIVATE
 * false), tries every way a browser has to reach the network at ground-truth listeners on other loopback
 * addresses. None of them may receive a single connection or datagram; the page itself must still render.
 * Skipped only when no Chromium is installed (.ci/run installs it, so CI runs it).
 */

const HOSTILE = 'hostile.test'
// Two Chromium launches and a render each.
setDefaultTimeout(60_000)

/** A TCP listener that counts every connection (HTTP, TLS, WebSocket, TURN over TCP alike) and answers HTTP. */
interface TcpTrap {
  label: string
  origin: string
  host: string
  port: number
  hits: string[]
  close(): void
}

async function tcpTrap(host: string, label: string): Promise<TcpTrap | null> {
  const hits: string[] = []
  const server = net.createServer((socket) => {
    socket.on('error', () => {})
    socket.once('data', (data) => {
      hits.push(
        `${label}: ${data
          .toString('latin1')
          .split('\r\n')[0]!
          .slice(0, 80)
          .replace(/[^\x20-\x7e]/g, '.')}`,
      )
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 3\r\nconnection: close\r\n\r\nhit')
    })
    // A connection that sends nothing (a preconnect) is a hit all the same.
    hits.push(`${label}: connection`)
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, host, () => resolve())
    })
  } catch {
    return null // e.g. no IPv6 loopback on this machine
  }
  const port = (server.address() as net.AddressInfo).port
  const bracketed = host.includes(':') ? `[${host}]` : host
  return { label, origin: `${bracketed}:${port}`, host, port, hits, close: () => server.close() }
}

interface UdpTrap {
  host: string
  port: number
  hits: string[]
  close(): void
}

async function udpTrap(host: string): Promise<UdpTrap> {
  const hits: string[] = []
  const socket = dgram.createSocket('udp4')
  socket.on('message', (message, remote) =>
    hits.push(`udp ${host}: ${message.byteLength} bytes from ${remote.address}:${remote.port}`),
  )
  await new Promise<void>((resolve) => socket.bind(0, host, () => resolve()))
  return { host, port: socket.address().port, hits, close: () => socket.close() }
}

/** The hostile page: every vector aims at the traps; the last lines are the controls. */
function hostilePage(t: { a: string; b: string; c: string | null; d: string; stun: string; turn: string }): string {
  const http = [
    `http://${t.a}`,
    `http://${t.d}`,
    `http://localhost:${t.d.split(':')[1]}`,
    'http://mapped-loop.test',
    ...(t.c ? [`http://${t.c}`] : []),
  ]
  const https = [`https://${t.b}`, ...(t.c ? [`https://${t.c}`] : [])]
  const ws = [
    `ws://${t.a}`,
    `wss://${t.b}`,
    `ws://localhost:${t.d.split(':')[1]}`,
    'ws://mapped-loop.test',
    ...(t.c ? [`ws://${t.c}`] : []),
  ]
  const A = http[0]
  const script = String.raw`
// Controls first (the render serves a bounded number of requests): the page registers a WebMCP tool and reaches its own origin.
navigator.modelContext && navigator.modelContext.registerTool({ name: 'hostile-probe', description: 'proves the page ran' });
fetch('/same-origin').then((r) => r.text()).then((text) => { document.getElementById('same').textContent = text; });
const HTTP = ${JSON.stringify(http)}, HTTPS = ${JSON.stringify(https)}, WS = ${JSON.stringify(ws)};
const log = (line) => { document.getElementById('log').textContent += line + '\n'; };
const attempt = (name, fn) => { try { fn(); } catch (error) { log(name + ': ' + error); } };
for (const [i, base] of [...HTTP, ...HTTPS].entries()) {
  attempt('fetch', () => fetch(base + '/v/fetch', { mode: 'no-cors' }).catch(() => {}));
  attempt('fetch-post', () => fetch(base + '/v/fetch-post', { method: 'POST', body: 'x', mode: 'no-cors' }).catch(() => {}));
  attempt('xhr', () => { const x = new XMLHttpRequest(); x.open('GET', base + '/v/xhr'); x.send(); });
  attempt('img', () => { new Image().src = base + '/v/img'; });
  attempt('beacon', () => navigator.sendBeacon(base + '/v/beacon', 'x'));
  attempt('eventsource', () => new EventSource(base + '/v/sse'));
  attempt('iframe', () => { const f = document.createElement('iframe'); f.src = base + '/v/iframe'; document.body.append(f); });
  attempt('script', () => { const s = document.createElement('script'); s.src = base + '/v/script'; document.head.append(s); });
  attempt('link-prefetch', () => { const l = document.createElement('link'); l.rel = 'prefetch'; l.href = base + '/v/prefetch'; document.head.append(l); });
  attempt('link-preconnect', () => { const l = document.createElement('link'); l.rel = 'preconnect'; l.href = base; document.head.append(l); });
  attempt('link-dns-prefetch', () => { const l = document.createElement('link'); l.rel = 'dns-prefetch'; l.href = base; document.head.append(l); });
  attempt('window.open', () => window.open(base + '/v/window-open'));
  attempt('window.open-noopener', () => window.open(base + '/v/window-open-noopener', '_blank', 'noopener'));
  attempt('about-blank', () => { const w = open('about:blank'); if (w) w.location = base + '/v/about-blank'; });
  attempt('target-blank', () => { const a = document.createElement('a'); a.href = base + '/v/target-blank'; a.target = '_blank'; document.body.append(a); a.click(); });
  attempt('form-get', () => { const f = document.createElement('form'); f.method = 'GET'; f.action = base + '/v/form-get'; f.target = 'sink' + i; document.body.append(f); f.submit(); });
  attempt('form-post', () => { const f = document.createElement('form'); f.method = 'POST'; f.action = base + '/v/form-post'; f.target = 'sink' + i; document.body.append(f); f.submit(); });
  attempt('form-blank', () => { const f = document.createElement('form'); f.method = 'POST'; f.action = base + '/v/form-blank'; f.target = '_blank'; document.body.append(f); f.submit(); });
  attempt('srcdoc-location', () => { const f = document.createElement('iframe'); f.srcdoc = '<script>location.href=' + JSON.stringify(base + '/v/location-href') + '<\/script>'; document.body.append(f); });
  attempt('srcdoc-refresh', () => { const f = document.createElement('iframe'); f.srcdoc = '<meta http-equiv="refresh" content="0;url=' + base + '/v/meta-refresh">'; document.body.append(f); });
  attempt('css', () => { const s = document.createElement('style'); s.textContent = '@import url("' + base + '/v/css-import"); div.x' + i + ' { background: url("' + base + '/v/css-url") }'; document.head.append(s); const d = document.createElement('div'); d.className = 'x' + i; d.textContent = '.'; document.body.append(d); });
}
for (const url of WS) attempt('websocket', () => new WebSocket(url + '/v/ws'));
const workerCode = 'const H=' + JSON.stringify(HTTP.concat(HTTPS)) + ',W=' + JSON.stringify(WS) + ';for(const b of H){fetch(b+"/v/worker-fetch").catch(()=>{});try{const x=new XMLHttpRequest();x.open("GET",b+"/v/worker-xhr");x.send()}catch{}}for(const w of W){try{new WebSocket(w+"/v/worker-ws")}catch{}}try{importScripts(H[0]+"/v/worker-import")}catch{}';
const workerUrl = URL.createObjectURL(new Blob([workerCode], { type: 'text/javascript' }));
attempt('worker', () => new Worker(workerUrl));
attempt('shared-worker', () => new SharedWorker(workerUrl));
attempt('service-worker', () => navigator.serviceWorker.register('/sw.js').catch((e) => log('service-worker: ' + e)));
// WebRTC: the page's own RTCPeerConnection, or a pristine one from a fresh about:blank frame.
const fresh = document.body.appendChild(document.createElement('iframe')).contentWindow;
const RTC = window.RTCPeerConnection || (fresh && fresh.RTCPeerConnection);
log('rtc: ' + (RTC ? (RTC === window.RTCPeerConnection ? 'page' : 'fresh frame') : 'none'));
if (RTC) attempt('rtc', async () => {
  const pc = new RTC({ iceServers: [
    { urls: 'stun:${t.stun}' },
    { urls: ['turn:${t.turn}?transport=udp', 'turn:${t.a}?transport=tcp', 'turns:${t.b}?transport=tcp'], username: 'u', credential: 'p' },
  ], iceTransportPolicy: 'all' });
  pc.createDataChannel('x');
  await pc.setLocalDescription(await pc.createOffer());
});
const WT = window.WebTransport || (fresh && fresh.WebTransport);
if (WT) attempt('webtransport', () => new WT('https://${t.stun}/v/webtransport').ready.catch(() => {}));
`
  return `<!doctype html><html><head><title>hostile</title>
<link rel="stylesheet" href="${A}/v/link-stylesheet">
<link rel="preconnect" href="https://${t.b}"><link rel="dns-prefetch" href="//localhost">
<meta http-equiv="refresh" content="30;url=${A}/v/meta-refresh-top">
<style>@import url("${A}/v/style-import"); body { background: url("${A}/v/style-url") }</style>
</head><body>
<h1>hostile page rendered</h1><p id="same"></p><pre id="log"></pre>
${http.map((_, i) => `<iframe name="sink${i}"></iframe>`).join('')}
<iframe src="/redirect?v=iframe"></iframe><script src="/redirect?v=script"></script>
<form action="${A}/v/static-form" method="post" target="_blank" id="static-form"></form>
<a href="${A}/v/static-link" target="_blank" id="static-link">link</a>
<script>${script}
fetch('/redirect?v=fetch').catch(() => {});
document.getElementById('static-link').click();
document.getElementById('static-form').submit();
</script>
</body></html>`
}

const provider = createBrowserProvider(loadConfig({ SCANNER_ALLOW_PRIVATE: 'false' }))

describe.skipIf(provider === null)('rendered pages cannot reach non-public addresses', () => {
  const traps: TcpTrap[] = []
  let udp: UdpTrap[] = []
  let hostile: ReturnType<typeof Bun.serve>
  const served: string[] = []

  beforeAll(async () => {
    for (const [host, label] of [
      ['127.0.0.2', 'a'],
      ['127.0.0.3', 'b'],
      ['::1', 'c'],
      ['127.0.0.1', 'd'],
    ] as const) {
      const trap = await tcpTrap(host, label)
      if (trap) traps.push(trap)
    }
    udp = [await udpTrap('127.0.0.1'), await udpTrap('127.0.0.2')]
    const find = (label: string) => traps.find((trap) => trap.label === label) ?? null
    const a = find('a')!
    hostile = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(request) {
        const url = new URL(request.url)
        served.push(`${url.pathname}${url.search}`)
        if (url.pathname === '/') {
          const page = hostilePage({
            a: a.origin,
            b: find('b')!.origin,
            c: find('c')?.origin ?? null,
            d: find('d')!.origin,
            stun: `127.0.0.1:${udp[0]!.port}`,
            turn: `127.0.0.2:${udp[1]!.port}`,
          })
          return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } })
        }
        if (url.pathname === '/same-origin') return new Response('same-origin-ok')
        if (url.pathname === '/redirect') {
          return new Response(null, {
            status: 302,
            headers: { location: `http://${a.origin}/v/redirect-${url.searchParams.get('v')}` },
          })
        }
        return new Response('not found', { status: 404 })
      },
    })
  })

  afterAll(async () => {
    await provider?.close()
    hostile?.stop(true)
    for (const trap of traps) trap.close()
    for (const trap of udp) trap.close()
  })

  test('every vector (fetch, XHR, CSS, frames, forms, popups, sockets, workers, WebRTC, prefetch, redirects) is refused; the page still renders', async () => {
    const events: EgressEvent[] = []
    const a = traps.find((trap) => trap.label === 'a')!
    const env = {
      SCANNER_ALLOW_PRIVATE: 'false',
      SCANNER_RESOLVE: [
        `${HOSTILE}:443:127.0.0.1:${hostile.port!}`,
        `${HOSTILE}:80:127.0.0.1:${hostile.port!}`,
        `mapped-loop.test:80:${a.host}:${a.port}`,
      ].join(','),
    }
    const config = loadConfig(env)
    const browser = createBrowserProvider(config, { onEgress: (event) => events.push(event) })!
    const fetch = scanFetch(config, hostile.port!)
    try {
      // Over http, so that mixed-content blocking does not stop ws:// and http:// vectors before they are tried.
      const result = await browser.render(`http://${HOSTILE}/`, { timeoutMs: 20_000, userAgent: 'test', fetch })
      // Stragglers: popups, workers, ICE gathering, retries.
      await Bun.sleep(2_500)

      // Controls: the page ran, registered its tool, and reached its own origin (through the scan's fetch).
      expect(result.html).toContain('hostile page rendered')
      expect(result.webmcpTools).toContainEqual({ name: 'hostile-probe', description: 'proves the page ran' })
      expect(result.html).toContain('same-origin-ok')
      expect(served).toContain('/same-origin')
      // The redirect was served and refused, not followed.
      expect(served.some((path) => path.startsWith('/redirect'))).toBe(true)

      // Ground truth: nothing arrived anywhere.
      const hits = [...traps.flatMap((trap) => trap.hits), ...udp.flatMap((trap) => trap.hits)]
      expect(hits).toEqual([])
      // What did reach the proxy was refused, every time; and it did reach it (the sockets went there).
      expect(events.filter((event) => event.allowed)).toEqual([])
      expect(events.some((event) => event.kind === 'connect' && event.destination === a.origin)).toBe(true)
    } finally {
      await browser.close()
    }
  })

  test('the proxy is the way out, not a wall: with SCANNER_ALLOW_PRIVATE a WebSocket reaches a private listener through it', async () => {
    const events: EgressEvent[] = []
    const a = traps.find((trap) => trap.label === 'a')!
    a.hits.length = 0
    const config = loadConfig({
      SCANNER_ALLOW_PRIVATE: 'true',
      SCANNER_RESOLVE: `${HOSTILE}:443:127.0.0.1:${hostile.port!}`,
    })
    const browser = createBrowserProvider(config, { onEgress: (event) => events.push(event) })!
    const page = `<!doctype html><body><p>allowed</p><script>
      new WebSocket('ws://${a.origin}/v/allowed-ws');
    </script></body>`
    const fetch: BrowserFetch = async (url) => {
      if (new URL(url).hostname !== HOSTILE) throw new Error('only the page itself here')
      return { status: 200, headers: { 'content-type': 'text/html' }, body: new TextEncoder().encode(page) }
    }
    try {
      await browser.render(`http://${HOSTILE}/`, { timeoutMs: 20_000, userAgent: 'test', fetch })
      for (let waited = 0; waited < 5_000 && !a.hits.some((hit) => hit.includes('/v/allowed')); waited += 100)
        await Bun.sleep(100)
      expect(a.hits).toContainEqual(expect.stringContaining('GET /v/allowed-ws'))
      expect(events).toContainEqual({ kind: 'connect', destination: a.origin, allowed: true })
    } finally {
      await browser.close()
      a.hits.length = 0
    }
  })
})

/**
 * The scan's fetch, as the rendered collector builds it from the session, with one difference: `hostile.test`
 * stands for a public host, so it is fetched from its loopback server directly (redirects handed to the browser,
 * which asks again for the next hop). Every other URL goes through the real guarded client, which refuses it.
 */
function scanFetch(config: ReturnType<typeof loadConfig>, hostilePort: number): BrowserFetch {
  const client = createOutboundClient(config, null)
  return async (url, init) => {
    const target = new URL(url)
    if (target.hostname === HOSTILE) {
      const response = await globalThis.fetch(`http://127.0.0.1:${hostilePort}${target.pathname}${target.search}`, {
        method: init.method,
        headers: init.headers,
        body: init.body,
        redirect: 'manual',
      })
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: new Uint8Array(await response.arrayBuffer()),
      }
    }
    const response = await client.request(url, { method: init.method, headers: init.headers, body: init.body })
    return { status: response.status, headers: Object.fromEntries(response.headers), body: response.body }
  }
}
