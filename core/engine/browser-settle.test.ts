import { afterAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../config.ts'
import type { BrowserFetch } from './browser.ts'
import { createBrowserProvider } from './browser-puppeteer.ts'

/**
 * A render returns once the page has settled, not after a fixed wait: what a page still does after its load event
 * (a chained fetch, a request from a timer, a script busy before it requests) is in the rendered HTML, and a page
 * whose timers never stop still renders.
 */
const PAGES: Record<string, string> = {
  '/chained': `<p id="out">waiting</p><script>
    fetch('/data/first').then((r) => r.text()).then(() => fetch('/data/second')).then((r) => r.text())
      .then((text) => { document.getElementById('out').textContent = text; });
  </script>`,
  '/timer': `<p id="out">waiting</p><script>
    addEventListener('load', () => setTimeout(() => fetch('/data/late').then((r) => r.text())
      .then((text) => { document.getElementById('out').textContent = text; }), 400));
  </script>`,
  '/busy': `<p id="out">waiting</p><script>
    addEventListener('load', () => {
      const until = Date.now() + 300;
      while (Date.now() < until) {}
      fetch('/data/busy').then((r) => r.text()).then((text) => { document.getElementById('out').textContent = text; });
    });
  </script>`,
  '/ticking': `<p id="out">0</p><script>
    const tick = () => { const out = document.getElementById('out'); out.textContent = String(Number(out.textContent) + 1); setTimeout(tick, 50); };
    tick();
  </script>`,
}

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(request) {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith('/data/')) return new Response(`${pathname.slice('/data/'.length)}-ok`)
    const page = PAGES[pathname]
    return page
      ? new Response(`<!doctype html><title>settle</title>${page}`, { headers: { 'content-type': 'text/html' } })
      : new Response('', { status: 404 })
  },
})

const fetch: BrowserFetch = async (url, init) => {
  const response = await globalThis.fetch(url, { method: init.method, headers: init.headers, body: init.body })
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: new Uint8Array(await response.arrayBuffer()),
  }
}

const provider = createBrowserProvider(loadConfig({ SCANNER_ALLOW_PRIVATE: 'true' }))
const render = (path: string) =>
  provider!.render(`http://127.0.0.1:${server.port}${path}`, { timeoutMs: 15_000, userAgent: 'test', fetch })

describe.skipIf(provider === null)('a render settles when the page has', () => {
  afterAll(async () => {
    await provider?.close()
    server.stop(true)
  })

  test.each([
    ['/chained', 'second-ok'],
    ['/timer', 'late-ok'],
    ['/busy', 'busy-ok'],
  ])('%s: the late request is in the rendered page', async (path, expected) => {
    expect((await render(path)).html).toContain(`<p id="out">${expected}</p>`)
  })

  test('a page whose short timers never stop still renders', async () => {
    const result = await render('/ticking')
    expect(Number(/<p id="out">(\d+)<\/p>/.exec(result.html)?.[1])).toBeGreaterThan(1)
  })

  test('the context opened ahead by warm() serves one render; renders side by side each get their own', async () => {
    provider!.warm!()
    const [first, second] = await Promise.all([render('/chained'), render('/timer')])
    expect(first.html).toContain('second-ok')
    expect(second.html).toContain('late-ok')
  })
})
