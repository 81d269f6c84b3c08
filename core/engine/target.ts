import ipaddr from 'ipaddr.js'
import { ScanError } from './scan-error.ts'

export interface NormalizedInput {
  /** Lower-case host without port or trailing dot: the stored `domain`. */
  domain: string
  /** Scheme + host (+ port) fetched. */
  origin: string
  /** The normalised URL (origin + path, no fragment). */
  url: string
  /** True when the input named a path beyond `/` (an MCP endpoint candidate). */
  hasPath: boolean
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
const MAX_INPUT_LENGTH = 2048

/** Recent normalisations: hot read routes (score, badge) see the same few domains over and over. */
const MEMO_LIMIT = 5000
const memos = {
  public: new Map<string, Readonly<NormalizedInput>>(),
  local: new Map<string, Readonly<NormalizedInput>>(),
}

export interface NormalizeOptions {
  /**
   * Also accept local targets: `localhost` (and `*.localhost`) and loopback, private or link-local IP literals,
   * any port, so that CI can gate a dev server. Only where private targets are allowed (SCANNER_ALLOW_PRIVATE or
   * the CLI's --allow-private); the egress guard still decides what may be connected to.
   */
  allowLocal?: boolean
}

/**
 * Accepts a bare domain, a URL, or a URL-encoded URL (as the score route receives it) and normalises it. A
 * bare domain is scanned over https, a bare local target over http (dev servers rarely speak TLS). Refuses what
 * can never be a public target: other schemes, credentials in the URL, single-label hosts, malformed labels.
 */
export function normalizeInput(raw: string, options: NormalizeOptions = {}): Readonly<NormalizedInput> {
  const memo = options.allowLocal ? memos.local : memos.public
  const known = memo.get(raw)
  if (known) return known
  const normalized = Object.freeze(parse(raw, options.allowLocal === true))
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!)
  memo.set(raw, normalized)
  return normalized
}

/** What a scan is asked to measure, parsed once by its caller: the target and, when pinned, its MCP endpoint. */
export interface RequestedTarget {
  input: Readonly<NormalizedInput>
  /** The sole MCP target: a failing pinned endpoint is never replaced by a discovered one. */
  mcpUrl?: Readonly<NormalizedInput>
}

/** Parses what a caller asks to scan (the input, then a pinned MCP endpoint); refuses what normalizeInput refuses. */
export function requestTarget(input: string, options: NormalizeOptions & { mcpUrl?: string } = {}): RequestedTarget {
  const normalized = normalizeInput(input, options)
  return options.mcpUrl ? { input: normalized, mcpUrl: normalizeInput(options.mcpUrl, options) } : { input: normalized }
}

/** `localhost`, `*.localhost` (RFC 6761) and IP literals outside the public unicast range. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (!ipaddr.isValid(host)) return false
  const address = ipaddr.process(host)
  return address.range() !== 'unicast'
}

function parse(raw: string, allowLocal: boolean): NormalizedInput {
  let input = raw.trim()
  if (!input || input.length > MAX_INPUT_LENGTH) throw invalid(raw, 'expected a domain or an http(s) URL')
  if (/^https?%3A/i.test(input)) {
    try {
      input = decodeURIComponent(input)
    } catch {
      throw invalid(raw, 'malformed percent-encoding')
    }
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    const local = allowLocal && URL.canParse(`http://${input}`) && isLocalHost(new URL(`http://${input}`).hostname)
    input = `${local ? 'http' : 'https'}://${input}`
  }
  let url: URL
  try {
    url = new URL(input)
  } catch {
    throw invalid(raw, 'not a valid URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid(raw, `scheme "${url.protocol}" is not http or https`)
  if (url.username || url.password) throw invalid(raw, 'credentials in the URL are not accepted')
  const domain = url.hostname.toLowerCase().replace(/\.$/, '')
  const isIpLiteral = /^\[.*\]$/.test(url.hostname) || /^\d{1,3}(\.\d{1,3}){3}$/.test(domain)
  if (!isIpLiteral && !(allowLocal && isLocalHost(domain))) {
    const labels = domain.split('.')
    if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) {
      throw invalid(raw, `"${domain}" is not a fully qualified domain name`)
    }
  }
  // `example.com.` and `example.com` are the same site: fetch and store it one way.
  if (url.hostname.endsWith('.')) url.hostname = domain
  url.hash = ''
  const hasPath = url.pathname !== '/' && url.pathname !== ''
  return { domain, origin: url.origin, url: hasPath ? url.href : `${url.origin}/`, hasPath }
}

function invalid(raw: string, problem: string): ScanError {
  const input = raw.slice(0, 200)
  return new ScanError({ reason: 'invalid-target', input, problem }, `"${input}" is not a scannable target: ${problem}`)
}
