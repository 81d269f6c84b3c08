import type { Browser, BrowserContext, HTTPRequest, Page, Target } from 'puppeteer-core'
import type { Config } from '../config.ts'
import { type EgressEvent, type EgressProxy, startEgressProxy } from '../outbound/egress-proxy.ts'
import type { BrowserFetch, BrowserProvider, RenderResult } from './browser.ts'
import { MAX_HTML_CHARS } from '../parse/html.ts'

/** Flags for a headless Chromium on a closed network (background networking would only produce refused connections). */
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]

/**
 * Flags that leave the browser one way out: the egress proxy (core/outbound/egress-proxy.ts), which applies the
 * outbound client's address policy to every connection. Chromium bypasses a proxy for loopback unless told
 * `<-loopback>`; it resolves no name itself (the proxy does, once, and checks the answer); WebRTC may not send
 * UDP that does not go through the proxy (so STUN and TURN over UDP are off, TURN over TCP is a CONNECT); DNS
 * prefetching is off and new windows are refused.
 */
export function egressArgs(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--dns-prefetch-disable',
    '--block-new-web-contents',
  ]
}

const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']
/** Resource types a rendered check never needs; refusing them keeps renders fast and small. */
const SKIPPED_RESOURCES = new Set(['image', 'media', 'font'])
const MAX_SUBREQUESTS = 60

/**
 * Defence in depth behind the proxy: a rendered check needs no peer-to-peer connection, no WebTransport and no
 * service worker, so the page does not get them.
 */
const NETWORK_HARDENING = `(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCIceTransport', 'RTCSctpTransport', 'WebTransport']) {
    try { Object.defineProperty(window, name, { value: undefined, configurable: false, writable: false }); } catch {}
  }
  try {
    if (typeof ServiceWorkerContainer === 'function') ServiceWorkerContainer.prototype.register = () =>
      Promise.reject(new DOMException('Service workers are disabled', 'SecurityError'));
  } catch {}
})();`

/**
 * Records WebMCP registrations (navigator.modelContext / document.modelContext registerTool) made during load.
 * Where the browser has a native implementation its calls still go through; where it has none, the recorder
 * stands in, so that a site guarding its call with `?.` is seen doing it.
 */
const WEBMCP_RECORDER = `(() => {
  const tools = [];
  Object.defineProperty(window, '__agentReadinessWebmcpTools', { value: tools });
  const wrap = (target) => {
    const native = target && typeof target.registerTool === 'function' ? target.registerTool.bind(target) : null;
    const context = target || {};
    context.registerTool = (tool) => {
      try { tools.push({ name: String(tool && tool.name), description: tool && tool.description ? String(tool.description) : undefined }); } catch {}
      return native ? native(tool) : undefined;
    };
    if (typeof context.provideContext !== 'function') context.provideContext = (value) => {
      for (const tool of (value && value.tools) || []) context.registerTool(tool);
    };
    return context;
  };
  try { Object.defineProperty(navigator, 'modelContext', { value: wrap(navigator.modelContext), configurable: true }); } catch {}
  try { Object.defineProperty(document, 'modelContext', { value: navigator.modelContext, configurable: true }); } catch {}
})();`

function findChromium(): string | null {
  for (const name of CHROMIUM_NAMES) {
    const path = Bun.which(name)
    if (path) return path
  }
  return null
}

export interface BrowserProviderOptions {
  /** Every decision of the egress proxy (logging, tests). */
  onEgress?: (event: EgressEvent) => void
}

interface Running {
  browser: Browser
  /** The egress proxy this browser's contexts go through; null for a remote browser that cannot reach it. */
  proxy: EgressProxy | null
  /** Set for a remote browser: the proxy is imposed per context, not at launch. */
  contextProxy: string | null
}

export function createBrowserProvider(
  config: Pick<Config, 'browser' | 'scanner'>,
  options: BrowserProviderOptions = {},
): BrowserProvider | null {
  const executablePath = config.browser.chromiumPath ?? findChromium()
  const wsEndpoint = config.browser.wsEndpoint
  if (!wsEndpoint && !executablePath) return null
  let running: Promise<Running> | null = null

  const start = async (onGone: () => void): Promise<Running> => {
    // A remote browser elsewhere cannot reach a proxy on our loopback (README: BROWSER_WS_ENDPOINT).
    const proxy = !wsEndpoint || isLoopbackEndpoint(wsEndpoint) ? await startEgressProxy(config, { onEvent: options.onEgress }) : null
    try {
      // Loaded on the first render: a scan whose checks never render (or the CLI's --help) does not pay for it.
      const { default: puppeteer } = await import('puppeteer-core')
      const browser = wsEndpoint
        ? await puppeteer.connect({ browserWSEndpoint: wsEndpoint })
        : await puppeteer.launch({
            executablePath: executablePath!,
            args: [...CHROMIUM_ARGS, ...egressArgs(proxy!.url)],
            // Popups are refused, not opened (the proxy would refuse where they go, but they need not exist).
            ignoreDefaultArgs: ['--disable-popup-blocking'],
            headless: true,
            // Over a pipe, Chromium exits when this process dies, however it dies (even kill -9): no orphans.
            pipe: true,
          })
      browser.once('disconnected', () => {
        void proxy?.close()
        onGone()
      })
      return { browser, proxy, contextProxy: wsEndpoint && proxy ? proxy.url : null }
    } catch (error) {
      await proxy?.close()
      throw error
    }
  }
  const getBrowser = (): Promise<Running> => {
    if (running) return running
    const pending: Promise<Running> = start(() => {
      if (running === pending) running = null
    })
    running = pending
    // A browser that failed to start may start next time (e.g. installed meanwhile).
    pending.catch(() => {
      if (running === pending) running = null
    })
    return pending
  }

  return {
    warm() {
      getBrowser().catch(() => {})
    },
    async render(url, { timeoutMs, userAgent, fetch }): Promise<RenderResult> {
      const { browser, contextProxy } = await getBrowser()
      const context = await browser.createBrowserContext(
        contextProxy ? { proxyServer: contextProxy, proxyBypassList: ['<-loopback>'] } : {},
      )
      try {
        const page = await openGuardedPage(context)
        await page.setUserAgent(userAgent)
        await page.setBypassServiceWorker(true)
        await page.evaluateOnNewDocument(NETWORK_HARDENING)
        await page.evaluateOnNewDocument(WEBMCP_RECORDER)
        await page.setRequestInterception(true)
        let subrequests = 0
        page.on('request', (request) => void answer(request, fetch, ++subrequests))
        await page.goto(url, { waitUntil: 'networkidle0', timeout: timeoutMs })
        // Only what the HTML bound parses crosses the DevTools pipe (core/parse/html.ts cuts there anyway): an endless page
        // would otherwise come back whole, twice over (the message and its string).
        const rendered = await page.evaluate(
          (maxChars) => ({
            html: document.documentElement.outerHTML.slice(0, maxChars),
            textLength: (document.body?.innerText ?? '').trim().length,
            tools: (window as unknown as { __agentReadinessWebmcpTools?: { name: string; description?: string }[] })
              .__agentReadinessWebmcpTools ?? [],
          }),
          MAX_HTML_CHARS,
        )
        return { url: page.url(), html: `<!doctype html>${rendered.html}`, textLength: rendered.textLength, webmcpTools: rendered.tools }
      } finally {
        await context.close().catch(() => {})
      }
    },
    async close() {
      if (!running) return
      const current = await running.catch(() => null)
      running = null
      if (!current) return
      if (wsEndpoint) await current.browser.disconnect().catch(() => {})
      else await current.browser.close().catch(() => {})
      await current.proxy?.close()
    },
  }
}

/**
 * Opens the render's page in its own context and closes every other target that appears there: popups
 * (`window.open`, `target=_blank`, even with `noopener`), shared and service workers. The proxy already refuses
 * where they would go; closing them means they do not run at all.
 */
async function openGuardedPage(context: BrowserContext): Promise<Page> {
  let own: Promise<Page> | null = null
  context.on('targetcreated', (target: Target) => {
    void (async () => {
      // Events arrive after newPage() was called, so `own` is set; it settles once the page is known.
      const page = await own!.catch(() => null)
      if (!page || target === page.target()) return
      const type = target.type()
      if (type === 'page' || type === 'background_page' || type === 'webview') await (await target.page())?.close()
      else if (type === 'shared_worker' || type === 'service_worker') await (await target.worker())?.close()
    })().catch(() => {})
  })
  own = context.newPage()
  return own
}

function isLoopbackEndpoint(endpoint: string): boolean {
  try {
    const host = new URL(endpoint).hostname.replace(/^\[(.*)\]$/, '$1')
    return host === 'localhost' || host === '::1' || /^127\./.test(host)
  } catch {
    return false
  }
}

/** Answers one browser request through the scan session, so the browser obeys the same SSRF rules and host mapping. */
async function answer(request: HTTPRequest, fetch: BrowserFetch, count: number): Promise<void> {
  if (request.isInterceptResolutionHandled()) return
  const url = request.url()
  if (url.startsWith('data:') || url.startsWith('blob:')) return request.continue()
  if (SKIPPED_RESOURCES.has(request.resourceType()) || count > MAX_SUBREQUESTS || !/^https?:/.test(url)) {
    return request.abort('blockedbyclient')
  }
  try {
    const response = await fetch(url, { method: request.method(), headers: request.headers(), body: request.postData() })
    const headers = Object.fromEntries(
      Object.entries(response.headers).filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(name)),
    )
    // A view of the bytes, not a copy: the body may be the whole per-request cap.
    const body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength)
    await request.respond({ status: response.status, headers, body })
  } catch {
    await request.abort('addressunreachable').catch(() => {})
  }
}
