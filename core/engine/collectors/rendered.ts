import type { CheerioAPI } from 'cheerio'
import { loadBoundedHtml } from '../../parse/html.ts'
import { NO_BROWSER_MESSAGE } from '../browser.ts'
import { CollectorError, defineCollector } from '../check.ts'

/** The homepage after JavaScript ran in a real browser. */
export interface RenderedPage {
  url: string
  html: string
  $: CheerioAPI
  /** Tools registered through WebMCP (`navigator.modelContext` / `document.modelContext`) during load. */
  webmcpTools: { name: string; description?: string }[]
  /** Visible text length after rendering. */
  textLength: number
}

const RENDER_TIMEOUT_MS = 20_000
/**
 * Decoded bytes of the subresources one render may fetch (scripts, styles, images): an allowance of its own, so that
 * a heavy page does not spend the documents' budget (SCAN_MAX_BYTES), and a page pulling endless resources stops here.
 */
const RENDER_MAX_BYTES = 64 * 1024 * 1024

export const renderedCollector = defineCollector({
  key: 'rendered',
  deep: true,
  async collect({ browser, http, page, config }) {
    if (!browser) throw new CollectorError(NO_BROWSER_MESSAGE)
    const budget = { remaining: RENDER_MAX_BYTES }
    try {
      const result = await browser.render(page, {
        timeoutMs: RENDER_TIMEOUT_MS,
        userAgent: config.scanner.userAgent,
        fetch: async (url, init) => {
          const response = await http.request(url, {
            method: init.method,
            headers: init.headers,
            body: init.body,
            budget,
          })
          const headers: Record<string, string> = {}
          response.headers.forEach((value, name) => {
            headers[name] = value
          })
          return { status: response.status, headers, body: response.body }
        },
      })
      return { ...result, $: loadBoundedHtml(result.html) }
    } catch (error) {
      throw new CollectorError(`rendering ${page} failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      })
    }
  },
})
