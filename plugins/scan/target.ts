import { isLocalHost, normalizeInput, type NormalizeOptions } from '../../core/engine/target.ts'
import { AppError } from '../../core/errors.ts'

/**
 * What a stored result is the result of, and so which report it belongs to: a website is its origin (scheme, host
 * and port, so two dev servers on one host are two reports), an MCP or MCP App server is its MCP URL. A website
 * and an MCP server on the same host are two targets with a report each, and a scan of one never replaces the
 * other's. MCP and MCP App share the key: one endpoint is one server, whichever kind its latest scan detected.
 */
export type TargetKey = string

/** The columns a target key is derived from (a stored row or a fresh report). */
export interface TargetSource {
  urlKind: string
  url: string
  mcpUrl?: string | null
}

const SITE_PREFIX = 'site:'
const MCP_PREFIX = 'mcp:'

export const isMcpKind = (urlKind: string) => urlKind === 'mcp' || urlKind === 'mcp-app'

export function siteKey(origin: string): TargetKey {
  return `${SITE_PREFIX}${origin}`
}

export function mcpKey(mcpUrl: string): TargetKey {
  return `${MCP_PREFIX}${mcpUrl}`
}

export function targetKey(source: TargetSource): TargetKey {
  return isMcpKind(source.urlKind) ? mcpKey(source.mcpUrl ?? source.url) : siteKey(new URL(source.url).origin)
}

/**
 * Local and private hosts (`localhost`, loopback, private and link-local addresses): a developer's machine or an
 * internal network, whose results mean nothing to anyone else and change with every restart. Like tunnel hosts
 * they are stored as ephemeral, so they never reach the leaderboard, statistics or history.
 */
export const isPrivateTarget = (domain: string) => isLocalHost(domain)

/**
 * The report page of a target. A website whose origin is what a bare host would be scanned as keeps the short
 * `/site/{host}` address (every link made before targets had keys still works); another port adds `:{port}`,
 * another scheme makes the segment the encoded origin. An MCP server's report is `/mcp/{encoded MCP URL}`.
 */
export function reportPathFor(source: TargetSource): string {
  if (isMcpKind(source.urlKind)) return mcpReportPath(source.mcpUrl ?? source.url)
  return siteReportPath(new URL(source.url).origin)
}

export const mcpReportPath = (mcpUrl: string) => `/mcp/${encodeURIComponent(mcpUrl)}`

export function siteReportPath(origin: string): string {
  const { protocol, host, hostname } = new URL(origin)
  const bareScheme = isLocalHost(hostname) ? 'http:' : 'https:'
  // A port's colon stays readable (`/site/localhost:5160`); it is a valid path character after the first segment.
  return protocol === bareScheme
    ? `/site/${encodeURIComponent(host).replaceAll('%3A', ':')}`
    : `/site/${encodeURIComponent(origin)}`
}

/** A target as a person names it: `example.com`, `localhost:5160`, `http://example.com`, or the MCP URL. */
export function targetLabel(source: TargetSource): string {
  if (isMcpKind(source.urlKind)) return source.mcpUrl ?? source.url
  return decodeURIComponent(siteReportPath(new URL(source.url).origin).slice('/site/'.length))
}

/** The report key of an MCP server named on one of a domain's routes (`?mcp=`): it must be on that domain. */
export function mcpTargetOn(domain: string, mcpUrl: string, options: NormalizeOptions = {}): TargetKey {
  const mcp = normalizeInput(mcpUrl, options)
  if (mcp.domain !== domain)
    throw new AppError('VALIDATION_FAILED', { message: `The MCP URL ${mcp.url} is not on ${domain}` })
  return mcpKey(mcp.url)
}
