import { type CollectorContext, defineCollector, type ScanKind } from '../check.ts'
import { isBearerChallenge } from '../lib/mcp-wire.ts'
import { nullOnCollectorError, settle } from './lib/fetch.ts'
import { isSameSite } from '../lib/links.ts'
import { fetchSnapshot, type HttpSnapshot, isOk, isRecord, looksLikeHtml, parseJson } from '../snapshot.ts'

export interface OauthProbe {
  url: string
  response: HttpSnapshot | null
  error?: string
}

export interface OauthArtifact {
  /** The resource URL the metadata should name (the MCP URL, or the API base / origin for domains). */
  resource: string
  /** `WWW-Authenticate` challenges seen (401/403 responses), with their resource_metadata parameter. */
  challenges: { url: string; status: number; header: string; resourceMetadata?: string }[]
  /** Protected resource metadata probes: resource_metadata from a challenge, path-aware, then root. */
  protectedResource: (OauthProbe & {
    /** The resource this URL was derived from, which the document's `resource` must equal (RFC 9728 §3.3). */
    expectedResource?: string
    via?: 'challenge' | 'path-aware' | 'root'
  })[]
  /** The issuer whose metadata was looked up (authorization_servers[0], or the origin for domains). */
  issuer: string | null
  /** Where the issuer came from: the protected resource metadata, or the domain's own origin as a fallback. */
  issuerSource?: 'protected-resource' | 'origin'
  /** AS metadata probes in RFC 8414 / OIDC order until one answered 2xx JSON. */
  authorizationServer: (OauthProbe & { kind?: 'oauth-authorization-server' | 'openid-configuration' })[]
  /** Domain scans only: the API and auth signals (from apiSignals) that gate the OAuth checks. */
  signals?: { hasApi: boolean; hasAuth: boolean; reasons: string[] } | null
}

const JSON_ACCEPT = 'application/json'

/** RFC 9728 §3.1: `/.well-known/oauth-protected-resource` inserted between the host and the resource's path. */
export function protectedResourceMetadataUrls(resource: string): { url: string; via: 'path-aware' | 'root' }[] {
  const url = new URL(resource)
  const root = `${url.origin}/.well-known/oauth-protected-resource`
  // The terminating slash after the host is dropped; any other path (trailing slash included) is kept.
  const suffix = `${url.pathname === '/' ? '' : url.pathname}${url.search}`
  return suffix
    ? [
        { url: `${root}${suffix}`, via: 'path-aware' },
        { url: root, via: 'root' },
      ]
    : [{ url: root, via: 'root' }]
}

/** Authorization server metadata URLs in the order MCP clients try them (docs/checks.md §8). */
export function authorizationServerMetadataUrls(
  issuer: string,
): { url: string; kind: 'oauth-authorization-server' | 'openid-configuration' }[] {
  const url = new URL(issuer)
  const path = url.pathname.replace(/\/$/, '')
  if (!path) {
    return [
      { url: `${url.origin}/.well-known/oauth-authorization-server`, kind: 'oauth-authorization-server' },
      { url: `${url.origin}/.well-known/openid-configuration`, kind: 'openid-configuration' },
    ]
  }
  return [
    { url: `${url.origin}/.well-known/oauth-authorization-server${path}`, kind: 'oauth-authorization-server' },
    { url: `${url.origin}/.well-known/openid-configuration${path}`, kind: 'openid-configuration' },
    { url: `${url.origin}${path}/.well-known/openid-configuration`, kind: 'openid-configuration' },
  ]
}

/** The `resource_metadata` parameter of a `WWW-Authenticate: Bearer …` challenge (RFC 9728 §5.1). */
export function resourceMetadataParam(header: string): string | undefined {
  const match = /resource_metadata\s*=\s*(?:"([^"]*)"|([^\s,]+))/i.exec(header)
  return match ? (match[1] ?? match[2]) : undefined
}

/** A 2xx body that is not an HTML page: the server did publish something at that URL. */
export function publishedAt(response: HttpSnapshot | null): response is HttpSnapshot {
  return response !== null && isOk(response) && response.contentType !== 'text/html' && !looksLikeHtml(response.body)
}

/** The first probe that answered 2xx with a JSON object, with the parsed document. */
export function firstJsonDocument<P extends OauthProbe>(
  probes: readonly P[],
): { probe: P & { response: HttpSnapshot }; document: Record<string, unknown> } | null {
  for (const probe of probes) {
    if (!publishedAt(probe.response)) continue
    const document = parseJson(probe.response.body)
    if (isRecord(document)) return { probe: probe as P & { response: HttpSnapshot }, document }
  }
  return null
}

/** Each probe's URL and status (or failure), for a check's details. */
export function describeProbes(probes: readonly OauthProbe[]): string {
  return probes
    .map((probe) => `${probe.url} → ${probe.response ? probe.response.status : `failed (${probe.error})`}`)
    .join('; ')
}

/**
 * Why the OAuth checks do not apply, or null when they do (docs/checks.md §8, §19): a domain without an API, an
 * API with no auth signal at all, or a public MCP server that neither challenges nor publishes metadata.
 */
export function oauthNotApplicable(oauth: OauthArtifact, kind: ScanKind): string | null {
  if (kind === 'domain') {
    const advertised =
      oauth.challenges.length > 0 || oauth.protectedResource.some((probe) => publishedAt(probe.response))
    if (oauth.signals && !oauth.signals.hasApi)
      return 'The domain exposes no API, so there is nothing for OAuth to protect'
    if (!advertised && oauth.signals && !oauth.signals.hasAuth) {
      return 'The API shows no sign of authentication (no 401 challenge, no OAuth metadata, no auth documentation)'
    }
    return null
  }
  if (oauth.challenges.length > 0) return null
  const published = oauth.protectedResource.filter((probe) => publishedAt(probe.response))
  if (published.length === 0) return 'The MCP server is public: no 401 challenge and no protected resource metadata'
  // The root document of a shared origin may describe another resource there (a site API), not this server.
  const foreign = published.every(
    (probe) => probe.via === 'root' && describesOtherResource(probe.response!, oauth.resource),
  )
  return foreign
    ? `The MCP server is public: no 401 challenge, and the root protected resource metadata describes another resource (${String(parseJsonRecord(published[0]!.response!)?.resource)}), not this server`
    : null
}

function parseJsonRecord(response: HttpSnapshot): Record<string, unknown> | null {
  const document = parseJson(response.body)
  return isRecord(document) ? document : null
}

/** A metadata document whose `resource` is a URL that neither is nor (as a same-origin path prefix) covers `resource`. */
function describesOtherResource(response: HttpSnapshot, resource: string): boolean {
  const named = parseJsonRecord(response)?.resource
  if (typeof named !== 'string') return false
  const declared = URL.parse(named)
  const target = URL.parse(resource)
  if (!declared || !target) return false
  if (declared.origin !== target.origin) return true
  const base = declared.pathname.replace(/\/$/, '')
  return !(target.pathname === base || target.pathname.startsWith(`${base}/`) || base === '')
}

/** HTTPS is required in production; a plain-http target (a local fixture) may use plain-http endpoints. */
export function isSecureUrl(value: unknown, targetOrigin: string): boolean {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || (url.protocol === 'http:' && targetOrigin.startsWith('http:'))
  } catch {
    return false
  }
}

/** Compares resource identifiers after URL normalisation (lower-case scheme and host, an empty path as "/"). */
export function sameResource(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href
  } catch {
    return false
  }
}

async function attempt(ctx: CollectorContext, url: string): Promise<OauthProbe> {
  return { url, ...(await settle(fetchSnapshot(ctx.http, url, { headers: { accept: JSON_ACCEPT } }))) }
}

/** The API base a domain's OAuth metadata should name: the OpenAPI server URL when same-site, else the origin. */
async function apiResource(ctx: CollectorContext): Promise<string> {
  const openapi = await ctx.get('openapi').catch(nullOnCollectorError)
  const document = openapi?.document
  if (!document) return ctx.target.origin
  let base: string | undefined
  const servers = document.servers
  if (Array.isArray(servers) && isRecord(servers[0]) && typeof servers[0].url === 'string') {
    base = servers[0].url
  } else if (typeof document.host === 'string') {
    // Swagger 2.0 spells it host + basePath + schemes.
    const schemes = Array.isArray(document.schemes) ? document.schemes : []
    const scheme = schemes.includes('https') || schemes.length === 0 ? 'https' : String(schemes[0])
    base = `${scheme}://${document.host}${typeof document.basePath === 'string' ? document.basePath : ''}`
  }
  // Templated server URLs ({region}.api…) name no single resource.
  if (!base || base.includes('{')) return ctx.target.origin
  try {
    const resolved = new URL(base, openapi.url ?? ctx.target.origin)
    resolved.hash = ''
    if (!isSameSite(resolved.href, ctx.target.domain)) return ctx.target.origin
    return resolved.pathname === '/' && !resolved.search ? resolved.origin : resolved.href
  } catch {
    return ctx.target.origin
  }
}

function challengeOf(response: HttpSnapshot): OauthArtifact['challenges'][number] | null {
  const header = response.headers['www-authenticate']
  if (response.status !== 401 && !(response.status === 403 && isBearerChallenge(header))) return null
  const resourceMetadata = header ? resourceMetadataParam(header) : undefined
  return {
    url: response.requestedUrl,
    status: response.status,
    header: header ?? '',
    ...(resourceMetadata ? { resourceMetadata } : {}),
  }
}

/** 401s seen on the domain's API: the resource URL itself, and the scan's request for a missing API path. */
async function domainChallenges(ctx: CollectorContext, resource: string): Promise<OauthArtifact['challenges']> {
  const [direct, notFound] = await Promise.all([
    attempt(ctx, resource),
    ctx.get('notFound').catch(nullOnCollectorError),
  ])
  const challenges = [direct.response, notFound?.api ?? null]
    .filter((response): response is HttpSnapshot => response !== null)
    .map(challengeOf)
    .filter((challenge): challenge is NonNullable<typeof challenge> => challenge !== null)
  return challenges.filter((challenge, index) => challenges.findIndex((other) => other.url === challenge.url) === index)
}

/** Bearer challenges the MCP collector met on the endpoint after a successful handshake; none when it failed. */
async function mcpChallenges(ctx: CollectorContext, resource: string): Promise<OauthArtifact['challenges']> {
  const mcp = await ctx.get('mcp').catch(nullOnCollectorError)
  const challenges = (mcp?.challenges ?? []).flatMap(({ status, header }) => {
    if (status !== 401 && !(status === 403 && isBearerChallenge(header))) return []
    const resourceMetadata = resourceMetadataParam(header)
    return [{ url: resource, status, header, ...(resourceMetadata ? { resourceMetadata } : {}) }]
  })
  return challenges.filter(
    (challenge, index) => challenges.findIndex((other) => other.header === challenge.header) === index,
  )
}

/** Fetches candidates in order, stopping at the first that answers 2xx with a JSON object. */
async function probeInOrder<C extends { url: string }>(
  ctx: CollectorContext,
  candidates: readonly C[],
): Promise<(C & OauthProbe)[]> {
  const probes: (C & OauthProbe)[] = []
  for (const candidate of candidates) {
    if (probes.some((probe) => probe.url === candidate.url)) continue
    const probe = { ...candidate, ...(await attempt(ctx, candidate.url)) }
    probes.push(probe)
    if (firstJsonDocument([probe])) break
  }
  return probes
}

/**
 * OAuth discovery as an MCP client does it (docs/checks.md §8): protected resource metadata from a challenge's
 * resource_metadata, then the path-aware and root well-known URLs; then the authorization server metadata of
 * authorization_servers[0] (or, for a domain, of its own origin) in RFC 8414 / OIDC order.
 */
export const oauthCollector = defineCollector({
  key: 'oauth',
  async collect(ctx) {
    const { target } = ctx
    let resource: string
    let challenges: OauthArtifact['challenges'] = []
    let signals: OauthArtifact['signals'] = null
    if (target.kind === 'domain') {
      const apiSignals = await ctx.get('apiSignals')
      signals = { hasApi: apiSignals.hasApi, hasAuth: apiSignals.hasAuth, reasons: apiSignals.authReasons }
      resource = await apiResource(ctx)
      if (!apiSignals.hasApi) {
        return { resource, challenges, protectedResource: [], issuer: null, authorizationServer: [], signals }
      }
      challenges = await domainChallenges(ctx, resource)
    } else {
      // An MCP server that challenges initialize ends the scan before checks run (docs/checks.md §0); a public one may still
      // challenge later requests (a protected tool or resource): partial protection, recorded by the MCP collector.
      resource = target.mcpUrl ?? target.url
      challenges = await mcpChallenges(ctx, resource)
    }

    const fromChallenges = challenges.flatMap((challenge) => {
      if (!challenge.resourceMetadata) return []
      try {
        const url = new URL(challenge.resourceMetadata, challenge.url).href
        return [{ url, via: 'challenge' as const, expectedResource: challenge.url }]
      } catch {
        return []
      }
    })
    const wellKnown = protectedResourceMetadataUrls(resource).map((candidate) => ({
      ...candidate,
      expectedResource: resource,
    }))
    const protectedResource = await probeInOrder(ctx, [...fromChallenges, ...wellKnown])

    const metadata = firstJsonDocument(protectedResource)?.document
    const servers = metadata?.authorization_servers
    const advertisedIssuer =
      Array.isArray(servers) && typeof servers[0] === 'string' && URL.canParse(servers[0]) ? servers[0] : null
    const issuer = advertisedIssuer ?? (target.kind === 'domain' ? target.origin : null)
    const authorizationServer = issuer ? await probeInOrder(ctx, authorizationServerMetadataUrls(issuer)) : []
    return {
      resource,
      challenges,
      protectedResource,
      issuer,
      ...(issuer ? { issuerSource: advertisedIssuer ? ('protected-resource' as const) : ('origin' as const) } : {}),
      authorizationServer,
      signals,
    }
  },
})
