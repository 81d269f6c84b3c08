import type { Browser, BrowserContext, HTTPRequest, Page, Target } from 'puppeteer-core'
import type { Config } from '../config.ts'
import { type EgressEvent, type EgressProxy, startEgressProxy } from '../outbound/egress-proxy.ts'
import type { BrowserFetch, BrowserProvider, RenderResult } from './browser.ts'
import { MAX_HTML_CHARS } from '../parse/html.ts'

/** Flags for a headless Chromium on a closed network (background networking would only produce refused connections). */
export const CHROMIUM_ARGS = [
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

/**
 * When a render has settled. Puppeteer's `networkidle0` waits for 500 ms without a connection after the last one
 * (about a second in all, most of a one-page scan's render). The page is observed instead: it has settled once its
 * load event fired, no request of its frames is in flight (counted at the interception every request goes through)
 * and, for a quiet window after the last request and the last pending short timer, nothing happened: a script that
 * will fetch soon does so from a promise callback (seen as a request within milliseconds of its response) or from a
 * timer (seen pending, and its request awaited for a window after it fired). The timers are read through the
 * page's main thread, so a script still executing (a bundle about to request its next chunk) holds the settle back
 * until it yields. A page that keeps short timers running for ever (an animation, a poll without network) settles
 * by networkidle0's rule, 500 ms without a request, once its timers have fired a few times with no request between
 * (CLOCKWORK_FIRINGS); a single pending timer is always waited for.
 */
const QUIET_MS = 200
const IDLE_MS = 500
/** A timer due within this horizon may still start a request that the render should see. */
const SHORT_TIMER_MS = 1_000
const SETTLE_POLL_MS = 25

/**
 * Counts the page's pending short timers and notes when the last one fired (on the page's own clock), so the settle
 * can tell a quiet page from one about to act, and can wait a quiet window from the moment a timer fired however
 * late its poll comes (see QUIET_MS).
 */
const TIMER_TRACKER = `(() => {
  const pending = new Set();
  let firedAt = -1e9, fired = 0;
  const schedule = window.setTimeout, cancel = window.clearTimeout;
  Object.defineProperty(window, '__agentReadinessTimers', {
    value: () => ({ pending: pending.size, sinceFired: performance.now() - firedAt, fired }),
  });
  window.setTimeout = function (handler, delay, ...args) {
    if (typeof handler !== 'function' || !(Number(delay || 0) <= ${SHORT_TIMER_MS})) return schedule.call(this, handler, delay, ...args);
    const id = schedule.call(this, function () { pending.delete(id); firedAt = performance.now(); fired++; return handler.apply(this, args); }, delay);
    pending.add(id);
    return id;
  };
  window.clearTimeout = function (id) { pending.delete(id); return cancel.call(this, id); };
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
    const proxy =
      !wsEndpoint || isLoopbackEndpoint(wsEndpoint)
        ? await startEgressProxy(config, { onEvent: options.onEgress })
        : null
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

  /**
   * A context and page opened ahead of the first render by warm() (opening them is a few hundred ms of a one-page
   * scan); used by one render only, so every render still has a context of its own.
   */
  let spare: Promise<PreparedPage> | null = null

  return {
    warm() {
      const pending = getBrowser().then(({ browser, contextProxy }) => openPreparedPage(browser, contextProxy))
      pending.catch(() => {
        if (spare === pending) spare = null
      })
      spare = pending
    },
    async render(url, { timeoutMs, userAgent, fetch }): Promise<RenderResult> {
      const { browser, contextProxy } = await getBrowser()
      const deadline = performance.now() + timeoutMs
      // Taken before any await: two renders never share one.
      const warmed = spare
      spare = null
      const { context, page } = (await warmed?.catch(() => null)) ?? (await openPreparedPage(browser, contextProxy))
      try {
        await page.setUserAgent(userAgent)
        const traffic = trackTraffic(page)
        let subrequests = 0
        page.on('request', (request) => {
          traffic.start(request)
          // Once answered it no longer holds the settle back: a dedicated worker's request has no finished event.
          void answer(request, fetch, ++subrequests)
            .catch(() => {})
            .finally(() => traffic.end(request))
        })
        await page.goto(url, { waitUntil: 'load', timeout: timeoutMs })
        await settle(page, traffic, deadline, timeoutMs)
        // Only what the HTML bound parses crosses the DevTools pipe (core/parse/html.ts cuts there anyway): an endless page
        // would otherwise come back whole, twice over (the message and its string).
        const rendered = await page.evaluate(
          (maxChars) => ({
            html: document.documentElement.outerHTML.slice(0, maxChars),
            textLength: (document.body?.innerText ?? '').trim().length,
            tools:
              (window as unknown as { __agentReadinessWebmcpTools?: { name: string; description?: string }[] })
                .__agentReadinessWebmcpTools ?? [],
          }),
          MAX_HTML_CHARS,
        )
        return {
          url: page.url(),
          html: `<!doctype html>${rendered.html}`,
          textLength: rendered.textLength,
          webmcpTools: rendered.tools,
        }
      } finally {
        await context.close().catch(() => {})
      }
    },
    async close() {
      if (!running) return
      const current = await running.catch(() => null)
      running = null
      spare = null
      if (!current) return
      if (wsEndpoint) await current.browser.disconnect().catch(() => {})
      else {
        // Our Chromium keeps nothing worth a graceful shutdown (its profile is temporary, and puppeteer deletes it once
        // the process has exited), and that shutdown was 0.3-0.5 s of a one-page CLI scan: its process group (the
        // browser and its renderers; puppeteer starts it as a group leader) is ended at once instead.
        const pid = current.browser.process()?.pid
        if (pid) killGroup(pid)
        await current.browser.close().catch(() => {})
      }
      await current.proxy?.close()
    },
  }
}

interface PreparedPage {
  context: BrowserContext
  page: Page
}

/** A fresh context with its guarded page, hardened and intercepting, ready for one render. */
async function openPreparedPage(browser: Browser, contextProxy: string | null): Promise<PreparedPage> {
  const context = await browser.createBrowserContext(
    contextProxy ? { proxyServer: contextProxy, proxyBypassList: ['<-loopback>'] } : {},
  )
  try {
    const page = await openGuardedPage(context)
    await page.setBypassServiceWorker(true)
    await page.evaluateOnNewDocument(NETWORK_HARDENING)
    await page.evaluateOnNewDocument(WEBMCP_RECORDER)
    await page.evaluateOnNewDocument(TIMER_TRACKER)
    // Until the render's own handler is attached, a request would wait unanswered; the blank page makes none.
    await page.setRequestInterception(true)
    return { context, page }
  } catch (error) {
    await context.close().catch(() => {})
    throw error
  }
}

interface Traffic {
  inFlight: Set<HTTPRequest>
  /** performance.now() of the last request that started or ended. */
  lastChange: number
  start(request: HTTPRequest): void
  end(request: HTTPRequest): void
}

/** The page's requests from their start until they are answered or done, whichever comes first. */
function trackTraffic(page: Page): Traffic {
  const traffic: Traffic = {
    inFlight: new Set(),
    lastChange: performance.now(),
    start(request) {
      traffic.inFlight.add(request)
      traffic.lastChange = performance.now()
    },
    end(request) {
      traffic.inFlight.delete(request)
      traffic.lastChange = performance.now()
    },
  }
  page.on('requestfinished', traffic.end)
  page.on('requestfailed', traffic.end)
  return traffic
}

/**
 * Short timers that fire this many times with no request between them are the page's own clockwork (an animation, a
 * poll without network), not a request about to start: IDLE_MS after the last request, such a page has settled.
 */
const CLOCKWORK_FIRINGS = 3

interface TimerState {
  pending: number
  sinceFired: number
  fired: number
}

/** Waits until the loaded page has settled (see QUIET_MS); past the deadline the render fails, as a navigation would. */
async function settle(page: Page, traffic: Traffic, deadline: number, timeoutMs: number): Promise<void> {
  // The windows count from the load event at the earliest: a timer that the load event set is seen pending.
  const loadedAt = performance.now()
  let lastChangeSeen = traffic.lastChange
  let firedAtLastRequest: number | null = null
  for (;;) {
    if (performance.now() > deadline) throw new Error(`the page did not settle within ${timeoutMs} ms`)
    const requestsSeenAt = Math.max(traffic.lastChange, loadedAt)
    if (traffic.inFlight.size === 0 && performance.now() - requestsSeenAt >= QUIET_MS) {
      const changeBefore = traffic.lastChange
      // Answered only once the main thread is free: a script still running is waited for. A page navigating meanwhile
      // has no answer to give: it is not settled yet.
      const timers = await page
        .evaluate(() => (window as unknown as { __agentReadinessTimers?: () => TimerState }).__agentReadinessTimers?.())
        .then((state) => state ?? { pending: 0, sinceFired: 1e9, fired: 0 })
        .catch(() => null)
      const unchanged = traffic.inFlight.size === 0 && traffic.lastChange === changeBefore
      if (timers && unchanged) {
        if (firedAtLastRequest === null || changeBefore !== lastChangeSeen) {
          firedAtLastRequest = timers.fired
          lastChangeSeen = changeBefore
        }
        // No timer pending, and a window has passed since the last one fired (on the page's clock, however late this
        // poll came): nothing is about to start a request.
        if (timers.pending === 0 && timers.sinceFired >= QUIET_MS) return
        const clockwork = timers.fired - firedAtLastRequest >= CLOCKWORK_FIRINGS
        if (clockwork && performance.now() - requestsSeenAt >= IDLE_MS) return
      }
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS))
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

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // Not a group leader after all (or gone already): the browser alone; its renderers exit with it.
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
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
    const response = await fetch(url, {
      method: request.method(),
      headers: request.headers(),
      body: request.postData(),
    })
    const headers = Object.fromEntries(
      Object.entries(response.headers).filter(
        ([name]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(name),
      ),
    )
    // A view of the bytes, not a copy: the body may be the whole per-request cap.
    const body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength)
    await request.respond({ status: response.status, headers, body })
  } catch {
    await request.abort('addressunreachable').catch(() => {})
  }
}
