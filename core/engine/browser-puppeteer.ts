import puppeteer, { type Browser, type HTTPRequest } from 'puppeteer-core'
import type { Config } from '../config.ts'
import type { BrowserFetch, BrowserProvider, RenderResult } from './browser.ts'

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
const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']
/** Resource types a rendered check never needs; refusing them keeps renders fast and small. */
const SKIPPED_RESOURCES = new Set(['image', 'media', 'font'])
const MAX_SUBREQUESTS = 60

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

export function createBrowserProvider(config: Pick<Config, 'browser'>): BrowserProvider | null {
  const executablePath = config.browser.chromiumPath ?? findChromium()
  if (!config.browser.wsEndpoint && !executablePath) return null
  let browser: Promise<Browser> | null = null
  const getBrowser = () => {
    browser ??= config.browser.wsEndpoint
      ? puppeteer.connect({ browserWSEndpoint: config.browser.wsEndpoint })
      : puppeteer.launch({ executablePath: executablePath!, args: CHROMIUM_ARGS, headless: true })
    // A browser that failed to start may start next time (e.g. installed meanwhile).
    browser.catch(() => {
      browser = null
    })
    return browser
  }

  return {
    async render(url, { timeoutMs, userAgent, fetch }): Promise<RenderResult> {
      const context = await (await getBrowser()).createBrowserContext()
      try {
        const page = await context.newPage()
        await page.setUserAgent(userAgent)
        await page.evaluateOnNewDocument(WEBMCP_RECORDER)
        await page.setRequestInterception(true)
        let subrequests = 0
        page.on('request', (request) => void answer(request, fetch, ++subrequests))
        await page.goto(url, { waitUntil: 'networkidle0', timeout: timeoutMs })
        const rendered = await page.evaluate(() => ({
          html: document.documentElement.outerHTML,
          textLength: (document.body?.innerText ?? '').trim().length,
          tools: (window as unknown as { __agentReadinessWebmcpTools?: { name: string; description?: string }[] })
            .__agentReadinessWebmcpTools ?? [],
        }))
        return { url: page.url(), html: `<!doctype html>${rendered.html}`, textLength: rendered.textLength, webmcpTools: rendered.tools }
      } finally {
        await context.close().catch(() => {})
      }
    },
    async close() {
      if (!browser) return
      const current = await browser.catch(() => null)
      browser = null
      if (!current) return
      if (config.browser.wsEndpoint) await current.disconnect()
      else await current.close()
    },
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
    await request.respond({ status: response.status, headers, body: Buffer.from(response.body) })
  } catch {
    await request.abort('addressunreachable').catch(() => {})
  }
}
