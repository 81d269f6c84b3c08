import type { Children } from '@kitajs/html'
import { SERVICE_NAME } from '../../core/version.ts'
import { assetPath } from './assets.ts'
import { OG_IMAGE } from './discovery.ts'
import { jsonForScript } from './respond.ts'

/** WebMCP's declarative form attributes (https://webmachinelearning.github.io/webmcp/), not yet in the JSX types. */
declare global {
  namespace JSX {
    interface HtmlFormTag {
      toolname?: string
      tooldescription?: string
    }
    interface HtmlInputTag {
      toolparamdescription?: string
    }
  }
}

export interface PageMeta {
  title: string
  description: string
  /** Absolute canonical URL of the page. */
  canonical: string
  nonce: string
  /** Open Graph / Twitter card title, when it should differ from `title` (a report's score). */
  shareTitle?: string
  jsonLd?: unknown
  /** Path of the page's Markdown alternate. */
  markdown?: string
  /** Error and not-found pages should not be indexed. */
  noindex?: boolean
  /** Loads the progressive-enhancement script. */
  script?: boolean
}

const NAV = [
  { href: '/', label: 'Scan' },
  { href: '/leaderboard', label: 'Leaderboard' },
  { href: '/checks', label: 'Checks' },
  { href: '/journeys', label: 'Journeys' },
  { href: '/api', label: 'API' },
]

/** The document around every page: head metadata, skip link, navigation, footer. */
export function Layout({ meta, children }: { meta: PageMeta; children: Children }): JSX.Element {
  const share = meta.shareTitle ?? meta.title
  return (
    '<!doctype html>' +
    (
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{meta.title}</title>
          <meta name="description" content={meta.description} />
          {meta.noindex ? <meta name="robots" content="noindex" /> : ''}
          <link rel="canonical" href={meta.canonical} />
          {meta.markdown ? <link rel="alternate" type="text/markdown" href={meta.markdown} /> : ''}
          <meta property="og:type" content="website" />
          <meta property="og:site_name" content={SERVICE_NAME} />
          <meta property="og:title" content={share} />
          <meta property="og:description" content={meta.description} />
          <meta property="og:url" content={meta.canonical} />
          <meta property="og:image" content={new URL(OG_IMAGE.path, meta.canonical).href} />
          <meta property="og:image:type" content={OG_IMAGE.type} />
          <meta property="og:image:width" content={String(OG_IMAGE.width)} />
          <meta property="og:image:height" content={String(OG_IMAGE.height)} />
          <meta property="og:image:alt" content={OG_IMAGE.alt} />
          <meta name="twitter:card" content="summary_large_image" />
          <meta name="twitter:title" content={share} />
          <meta name="twitter:description" content={meta.description} />
          <link rel="icon" href={assetPath('favicon.svg')} type="image/svg+xml" />
          <link rel="stylesheet" href={assetPath('site.css')} />
          {meta.jsonLd === undefined ? (
            ''
          ) : (
            <script type="application/ld+json" nonce={meta.nonce}>
              {jsonForScript(meta.jsonLd)}
            </script>
          )}
          {meta.script ? <script src={assetPath('app.js')} defer nonce={meta.nonce}></script> : ''}
        </head>
        <body>
          <a class="skip" href="#main">
            Skip to content
          </a>
          <header class="top">
            <a class="brand" href="/">
              {SERVICE_NAME}
            </a>
            <nav aria-label="Main">
              <ul>
                {NAV.map((item) => (
                  <li>
                    <a href={item.href}>{item.label}</a>
                  </li>
                ))}
              </ul>
            </nav>
          </header>
          <main id="main">{children}</main>
          <footer class="bottom">
            <p>
              Measures how ready websites and MCP servers are for AI agents. <a href="/llms.txt">llms.txt</a> ·{' '}
              <a href="/sitemap.xml">Sitemap</a> · <a href="/api">API</a>
            </p>
          </footer>
        </body>
      </html>
    )
  )
}

/** The scan form: posts without JavaScript; app.js streams progress instead when it can. */
export function ScanForm({
  value = '',
  label = 'Domain, MCP server URL or MCP App URL',
}: {
  value?: string
  label?: string
}): JSX.Element {
  return (
    // toolname/tooldescription: the declarative WebMCP form, so an in-browser agent can call the scan as a tool.
    <form
      class="scan-form"
      method="post"
      action="/scan"
      data-scan-form
      toolname="scan_site"
      tooldescription="Scan a website (a domain such as example.com), an MCP server URL or an MCP App URL for AI-agent readiness, and open its report: score, grade, per-layer results and ranked fixes."
    >
      <label for="scan-target">{label}</label>
      <div class="row">
        <input
          id="scan-target"
          name="url"
          toolparamdescription="The domain, MCP server URL or MCP App URL to scan"
          type="text"
          required
          maxlength="2048"
          inputmode="url"
          autocomplete="url"
          spellcheck="false"
          autocapitalize="none"
          placeholder="example.com"
          value={value}
        />
        <button type="submit">Scan</button>
      </div>
    </form>
  )
}

/** The exact target a stored result measured: its URL, and the MCP endpoint it scanned (pinned) for an MCP report. */
export interface RescanTarget {
  url: string
  mcpUrl?: string
}

/**
 * A one-click fresh scan of one stored target: a forced scan (the anonymous forced-scan budget applies; the page the
 * limit answers with says when the next one is possible), back to the same report.
 */
export function RescanForm({ target, label }: { target: RescanTarget; label: string }): JSX.Element {
  return (
    <form class="inline" method="post" action="/scan" data-rescan>
      <input type="hidden" name="url" value={target.url} />
      {target.mcpUrl ? <input type="hidden" name="mcpUrl" value={target.mcpUrl} /> : ''}
      <input type="hidden" name="force" value="1" />
      <button type="submit" class="secondary">
        {label}
      </button>
    </form>
  )
}
