import robotsParser from 'robots-parser'
import { defineCollector } from '../check.ts'
import { fetchSnapshot, type HttpSnapshot, isOk, looksLikeHtml } from '../snapshot.ts'

export interface RobotsRule {
  type: 'allow' | 'disallow'
  path: string
  line: number
}

export interface RobotsGroup {
  /** Product tokens as written (`GPTBot`, `*`). */
  agents: string[]
  rules: RobotsRule[]
  crawlDelay?: number
  /** Raw values of `Content-Signal:` lines in this group. */
  contentSignals: { value: string; line: number }[]
  /** Raw values of `Content-Usage:` lines (IETF AIPREF) in this group. */
  contentUsage: { value: string; line: number }[]
}

export interface RobotsArtifact {
  response: HttpSnapshot
  /** 2xx and not an HTML page. */
  found: boolean
  /** The body is an HTML document (a soft 404 when the status was a success). */
  isHtml: boolean
  /** Served only after a redirect to another host. */
  crossHostRedirect: boolean
  groups: RobotsGroup[]
  /** Absolute `Sitemap:` URLs. */
  sitemaps: string[]
  /** `Agentmap:` lines (AI catalog discovery). */
  agentmaps: string[]
  /** Lines that are neither a known record, a comment nor blank. */
  invalidLines: { line: number; text: string }[]
  /**
   * The RFC 9309 decision for a product token on a path: 4xx means everything is allowed, 5xx or an
   * unreachable file means everything is disallowed.
   */
  isAllowed(agent: string, path: string): boolean
  /** Crawl-delay for the group that applies to this token, if any. */
  crawlDelay(agent: string): number | undefined
}

const KNOWN_FIELDS = new Set([
  'user-agent',
  'allow',
  'disallow',
  'sitemap',
  'crawl-delay',
  'content-signal',
  'content-usage',
  'host',
  'agentmap',
  'clean-param',
  'request-rate',
  'visit-time',
  'noindex',
])

/** RFC 9309 §2.5: crawlers must parse at least the first 500 KiB. */
const PARSE_LIMIT = 500 * 1024

/**
 * Turns a /robots.txt response into the artifact. robots-parser makes the allow/disallow decisions (longest
 * match, wildcards, group merging); the line walk here keeps what it drops: Content-Signal and Content-Usage
 * lines per group, Agentmap lines and invalid lines.
 */
export function parseRobots(response: HttpSnapshot): RobotsArtifact {
  const isHtml =
    looksLikeHtml(response.body) || (response.contentType === 'text/html' && /<html|<body/i.test(response.body))
  const found = isOk(response) && !isHtml
  const body = found ? response.body.slice(0, PARSE_LIMIT) : ''
  const groups: RobotsGroup[] = []
  const sitemaps: string[] = []
  const agentmaps: string[] = []
  const invalidLines: { line: number; text: string }[] = []
  let current: RobotsGroup | null = null
  let lastWasAgent = false

  body.split(/\r\n|\r|\n/).forEach((rawLine, index) => {
    const lineNumber = index + 1
    const line = rawLine.replace(/#.*$/, '').trim()
    if (!line) return
    const separator = line.indexOf(':')
    const field = separator > 0 ? line.slice(0, separator).trim().toLowerCase() : ''
    const value = separator > 0 ? line.slice(separator + 1).trim() : ''
    if (!KNOWN_FIELDS.has(field)) {
      invalidLines.push({ line: lineNumber, text: rawLine.trim() })
      lastWasAgent = false
      return
    }
    switch (field) {
      case 'user-agent':
        if (!lastWasAgent || !current) {
          current = { agents: [], rules: [], contentSignals: [], contentUsage: [] }
          groups.push(current)
        }
        current.agents.push(value)
        lastWasAgent = true
        return
      case 'sitemap':
        try {
          sitemaps.push(new URL(value, response.url).href)
        } catch {
          invalidLines.push({ line: lineNumber, text: rawLine.trim() })
        }
        break
      case 'agentmap':
        agentmaps.push(value)
        break
      case 'allow':
      case 'disallow':
        current?.rules.push({ type: field, path: value, line: lineNumber })
        break
      case 'crawl-delay':
        if (current && Number.isFinite(Number(value))) current.crawlDelay = Number(value)
        break
      case 'content-signal':
        current?.contentSignals.push({ value, line: lineNumber })
        break
      case 'content-usage':
        current?.contentUsage.push({ value, line: lineNumber })
        break
    }
    lastWasAgent = false
  })

  const parser = robotsParser(response.url, body)
  const origin = new URL(response.url).origin
  const isAllowed = (agent: string, path: string): boolean => {
    if (found) return parser.isAllowed(new URL(path, origin).href, agent) ?? true
    // RFC 9309 §2.3.1: 4xx (and a soft-404 HTML page) means no restrictions; 5xx means complete disallow.
    return response.status < 500
  }
  const crossHostRedirect =
    response.redirects.length > 0 && new URL(response.url).host !== new URL(response.requestedUrl).host

  return {
    response,
    found,
    isHtml,
    crossHostRedirect,
    groups,
    sitemaps,
    agentmaps,
    invalidLines,
    isAllowed,
    crawlDelay: (agent) => (found ? parser.getCrawlDelay(agent) : undefined),
  }
}

export const robotsCollector = defineCollector({
  key: 'robots',
  async collect({ http, target }) {
    // Only PARSE_LIMIT is parsed; the byte after it is enough to say the file is longer (`truncated`).
    const response = await fetchSnapshot(http, `${target.origin}/robots.txt`, {
      headers: { accept: 'text/plain, */*;q=0.1' },
      maxBytes: PARSE_LIMIT + 1,
    })
    return parseRobots(response)
  },
})
