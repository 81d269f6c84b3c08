import type { ScanSession } from '../outbound/session.ts'
import { collectList, LISTS } from '../mcp-client/lists.ts'
import { MCP_EXCHANGE_TIMEOUT_MS } from '../mcp-client/protocol.ts'
import { type McpAnswer, reachEndpoint } from '../mcp-client/reach.ts'
import type { AuthRefusal, Call, Limits } from '../mcp-client/types.ts'
import { CollectorError, type ScanKind } from './check.ts'
import { pathOf } from './lib/describe.ts'
import { isMcpLikeUrl } from './lib/mcp-wire.ts'
import { classifyMcpServer } from './lib/mcp-app.ts'
import { ScanError } from './scan-error.ts'
import { fetchPage, isOk, looksLikeHtml } from './snapshot.ts'

export interface DetectedKind {
  kind: ScanKind
  /** The MCP endpoint for mcp kinds. */
  mcpUrl?: string
  /** MCP endpoints a listing page embeds, in document order (the `embeddedMcpUrls` of kind_detected). */
  embeddedMcpUrls?: string[]
  /**
   * Set when initialize answered 401, or 403 with a Bearer challenge, or answered but the tools list after it was
   * refused that way (step-up authorization): the scan stops with ScanError mcp-auth-required.
   */
  authRequired?: { status: number; challenge: string | null }
  /** A short note on how the kind was decided (the `hint` of kind_detected). */
  hint: string
}

/** Detection as a whole, so that a hanging endpoint (or several embedded ones) cannot hold a scan at its start. */
const DETECT_BUDGET_MS = 25_000
const MAX_EMBEDDED = 10
/** Embedded URLs validated before giving up on a listing page: a docs link ending in /mcp may come first. */
const MAX_VALIDATED = 3

type EndpointProbe =
  | { state: 'mcp'; kind: ScanKind; hint: string }
  | { state: 'auth'; status: number; challenge: string | null }
  | { state: 'not-mcp' | 'unreachable'; reason: string }

/**
 * mcp or mcp-app by the rule fan-out applies too (classifyMcpServer), reading the server's lists only until one
 * decides: the tools, then the resources, each list followed through its pages. The tools are always asked for: a
 * server that answered initialize but refuses them for want of a token (step-up authorization) has nothing a scan
 * could judge, and is reported as one that requires authentication.
 */
async function classify(
  call: Call,
  capabilities: Record<string, unknown> | undefined,
): Promise<ScanKind | { refused: AuthRefusal }> {
  const listed = await collectList(call, 'tools', true, LISTS.tools)
  if (listed.refused) return { refused: listed.refused }
  const tools = listed.items
  if (classifyMcpServer({ capabilities, tools }) === 'mcp-app') return 'mcp-app'
  // Listed even when undeclared, as the collector lists them: a declaration missing must not change the kind.
  const resources = (await collectList(call, 'resources', true, LISTS.resources)).items
  return classifyMcpServer({ capabilities, tools, resources })
}

const ANSWER_HINTS: Record<McpAnswer, string> = {
  initialize: 'answered MCP initialize',
  discover: 'answered server/discover (2026-07-28 only)',
  sse: 'answered over the deprecated HTTP+SSE transport only',
}

/** docs/checks.md §0 steps 2 and 3: is the URL an MCP endpoint (reachEndpoint), and if so, mcp or mcp-app. */
async function probeEndpoint(http: ScanSession, url: string, limits: Limits): Promise<EndpointProbe> {
  const reach = await reachEndpoint(http, url, limits)
  if (reach.state === 'mcp-error')
    return { state: 'mcp', kind: 'mcp', hint: 'answered initialize with a JSON-RPC error' }
  if (reach.state !== 'mcp') return reach
  // The scan's collector opens its own conversation: this one ends once the kind is known.
  const kind = await classify(reach.call, reach.capabilities).finally(() => reach.close())
  if (typeof kind !== 'string') return { state: 'auth', ...kind.refused }
  return { state: 'mcp', kind, hint: ANSWER_HINTS[reach.answer] }
}

function decided(url: string, probe: EndpointProbe): DetectedKind | null {
  if (probe.state === 'auth') {
    return {
      kind: 'mcp',
      mcpUrl: url,
      authRequired: { status: probe.status, challenge: probe.challenge },
      hint: 'MCP server requires authentication',
    }
  }
  if (probe.state === 'mcp') return { kind: probe.kind, mcpUrl: url, hint: probe.hint }
  return null
}

const EMBEDDED_URL = /\bhref\s*=\s*["']([^"']+)["']|https?:\/\/[^\s"'`<>()[\]{},\\]+/gi

/** MCP endpoint URLs an HTML page names in links or text (configuration blocks), in document order. */
export function embeddedMcpUrls(html: string, pageUrl: string): string[] {
  const urls: string[] = []
  for (const match of html.matchAll(EMBEDDED_URL)) {
    const raw = (match[1] ?? match[0].replace(/[.;:!?]+$/, '')).replaceAll('&amp;', '&')
    const url = URL.parse(raw, pageUrl)
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) continue
    url.hash = ''
    if (url.href === pageUrl || urls.includes(url.href) || !isMcpLikeUrl(url.href)) continue
    urls.push(url.href)
    if (urls.length === MAX_EMBEDDED) break
  }
  return urls
}

/**
 * A page that is not an endpoint may be a catalog listing: the first embedded MCP URL that validates (at most
 * MAX_VALIDATED tried) decides the kind, with that URL as the MCP target (interface spec: "folded into mcp").
 */
async function detectListing(
  http: ScanSession,
  pageUrl: string,
  reason: string,
  limits: Limits,
): Promise<DetectedKind> {
  const page = await fetchPage(http, pageUrl).catch((error: unknown) => {
    if (error instanceof CollectorError) return null
    throw error
  })
  const urls =
    page && isOk(page) && (page.contentType === 'text/html' || looksLikeHtml(page.body))
      ? embeddedMcpUrls(page.body, page.url)
      : []
  for (const url of urls.slice(0, MAX_VALIDATED)) {
    const found = decided(url, await probeEndpoint(http, url, limits))
    if (found)
      return {
        ...found,
        embeddedMcpUrls: urls,
        hint: `listing page ${pathOf(pageUrl)} folded into the MCP server it embeds (${found.hint})`,
      }
  }
  return {
    kind: 'domain',
    ...(urls.length > 0 ? { embeddedMcpUrls: urls } : {}),
    hint: `${pathOf(pageUrl)} is not an MCP endpoint (${reason})${urls.length > 0 ? ' and none of the MCP URLs it embeds answered' : ''}; scanning the domain`,
  }
}

/**
 * Decides the scan kind (docs/checks.md §0 "Kind detection"). A bare host is a domain. A URL with a path, or a
 * pinned mcpUrl, is probed as an MCP endpoint (legacy initialize, then 2026-07-28 `server/discover`) and, when it
 * is one, classified as mcp or mcp-app. A path that is not an endpoint may be a listing page folded into the MCP
 * server it embeds; otherwise the origin is scanned as a domain.
 *
 * A pinned mcpUrl is the sole MCP target ("a failing endpoint is never replaced by a discovered one"): one that
 * answers but not as MCP is still scanned as the MCP target, so that its checks fail and say why; one that cannot
 * be reached at all is the scan's error, as an unreachable domain is.
 */
export async function detectKind(
  http: ScanSession,
  input: { url: string; hasPath: boolean; mcpUrl?: string },
): Promise<DetectedKind> {
  const candidate = input.mcpUrl ?? (input.hasPath ? input.url : null)
  if (!candidate) return { kind: 'domain', hint: 'bare domain' }
  const limits = { timeoutMs: MCP_EXCHANGE_TIMEOUT_MS, budget: AbortSignal.timeout(DETECT_BUDGET_MS) }
  const probe = await probeEndpoint(http, candidate, limits)
  const found = decided(candidate, probe)
  if (found) return found
  const reason = 'reason' in probe ? probe.reason : probe.state
  if (input.mcpUrl) {
    if (probe.state === 'unreachable') {
      throw new ScanError(
        { reason: 'mcp-unreachable', mcpUrl: candidate, cause: reason },
        `The pinned MCP endpoint ${candidate} is unreachable: ${reason}`,
      )
    }
    return {
      kind: 'mcp',
      mcpUrl: candidate,
      hint: `the pinned MCP endpoint did not answer MCP (${reason}); scanned as the sole MCP target`,
    }
  }
  return detectListing(http, input.url, reason, limits)
}
