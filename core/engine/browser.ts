/**
 * A real browser for rendered checks: the system Chromium (CHROMIUM_PATH or `chromium` on PATH) or a remote one
 * (BROWSER_WS_ENDPOINT). Implemented in browser-puppeteer.ts; null when neither is configured, in which case
 * deep checks resolve to `error` saying no browser is configured.
 */
export interface RenderResult {
  url: string
  html: string
  webmcpTools: { name: string; description?: string }[]
  textLength: number
}

/**
 * How the page reaches the network: what the page's own frames request is answered through the scan's SSRF-guarded
 * session. Everything else the browser sends (popups, shared and service workers, sockets, WebRTC) can only go
 * through the egress proxy (core/outbound/egress-proxy.ts), which applies the same address policy.
 */
export type BrowserFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; headers: Record<string, string>; body: Uint8Array }>

export interface BrowserProvider {
  render(url: string, options: { timeoutMs: number; userAgent: string; fetch: BrowserFetch }): Promise<RenderResult>
  close(): Promise<void>
  /**
   * Starts the browser ahead of its first render, so that a caller that will render (the CLI's full scan) overlaps
   * the launch with the static phase; a launch that fails is reported by the render, as before.
   */
  warm?(): void
}

export const NO_BROWSER_MESSAGE =
  'No browser is configured: install Chromium (or set CHROMIUM_PATH) or set BROWSER_WS_ENDPOINT to run rendered checks'
