import { CONTRACT_VERSION } from '../version.ts'
import { OutboundError } from '../outbound/client.ts'
import { type OriginCredentials, ScanSession } from '../outbound/session.ts'
import type { Engine } from './engine.ts'
import { type CheckDefinition, LAYERS, type ScanKind, type ScanTarget } from './check.ts'
import { detectKind } from './detect.ts'
import { planFanout, runFanout } from './fanout.ts'
import { ScanError } from './scan-error.ts'
import type { CheckRegistry } from './registry.ts'
import type { SiteClassification } from './collectors/site-classification.ts'
import type { SiteIdentity } from './collectors/site-identity.ts'
import { describeSite, type SiteProfile } from './collectors/site-profile.ts'
import { type CheckEvent, Collection, runChecks } from './runner.ts'
import { layerMaxScores, rescore, type Scorecard, score } from './scoring.ts'
import { PageRuns } from './page-runs.ts'
import type { PageSample, PageSampleSummary, SampledPage } from './site-sample.ts'
import { BROWSER_HEADERS } from './snapshot.ts'
import type { RequestedTarget } from './target.ts'

/** What a scan runs with: the engine's pieces short of its signing keys (the outbound client already signs). */
export type ScanEngine = Pick<Engine, 'config' | 'outbound' | 'browser' | 'registry'>

/** Stream events a scan emits, in the spec's order (Events: scan stream). */
export type ScanEvent =
  | { type: 'kind_detecting' }
  | { type: 'kind_detected'; kind: ScanKind; mcpUrl?: string; embeddedMcpUrls?: string[]; hint?: string }
  | {
      type: 'scan_init'
      layerMaxScores: Record<string, number>
      totalChecks: number
      checkRoster: string[]
      staticOnly: boolean
    }
  | CheckEvent
  | { type: 'layer_complete'; layerId: string; layerName: string }

export interface ScanOptions {
  /** Run only these checks (selective re-check); all checks otherwise. */
  checkIds?: readonly string[]
  /** `static` leaves deep checks pending for the background worker; `all` resolves them inline. */
  phase?: 'static' | 'all'
  onEvent?: (event: ScanEvent) => void
  /**
   * Runs after the target was probed and classified, before any check: where a route spends the scan budget, so
   * that invalid or unreachable targets spend nothing. Throwing aborts the scan.
   */
  beforeRun?: (target: ScanTarget) => Promise<void>
  /**
   * Headers a client of the MCP server holds (a bearer token for the owner's own protected server): sent with every
   * request to the MCP endpoint's origin (the pinned `mcpUrl`, else the input URL) and nowhere else, never recorded. The CLI's
   * `--header`; the HTTP API never takes them, so a public scan of a protected server stays mcp-auth-required.
   */
  mcpHeaders?: Readonly<Record<string, string>>
  /**
   * How many pages of a domain to judge (1..MAX_PAGES): above 1, page-level checks run on a sample of that many pages
   * (the homepage included). 1 or absent is the homepage alone; ignored, and said so, for MCP targets.
   */
  pages?: number
  /**
   * A selective re-check (with `checkIds`): the stored multi-page sample of this target, if any. Its pages are
   * fetched again and the page-level checks judged over them, so that the re-checked row means what the stored one
   * did; null leaves the homepage alone.
   */
  storedSample?: (target: ScanTarget) => Promise<PageSample | null>
}

/** How a scan authenticated: the names of the headers it sent to the MCP origin, never their values. */
export interface ScanAuthentication {
  headers: string[]
}

export interface ScanReport extends Scorecard {
  domain: string
  /** Display name of the site or server. */
  name: string
  /** Market category slug, null when unclassified. */
  category: string | null
  url: string
  finalUrl: string
  urlKind: ScanKind
  mcpUrl?: string
  scannedAt: string
  durationMs: number
  /** Outbound requests this scan sent (memoised repeats not counted); for benchmarks and logs. */
  requestCount: number
  /** What kind of site this is, for the siteType lens; null for MCP kinds or when it could not be decided. */
  siteClassification: SiteClassification | null
  /**
   * What the site says about itself (title, descriptions, headings, structured data, llms.txt summary), for
   * discover; absent for MCP kinds, unreadable homepages and reports stored before it was recorded. Never on the wire.
   */
  profile?: SiteProfile
  /**
   * The contract version that produced this report: a stored scan answers with it, not with today's version.
   * Absent on reports stored before it was recorded.
   */
  contractVersion?: string
  /** Set when the scan sent the caller's headers to the MCP origin (ScanOptions.mcpHeaders): what a token holder meets. */
  authenticated?: ScanAuthentication
  /** The pages a multi-page scan judged (the homepage first); absent on a one-page scan. */
  pages?: SampledPage[]
  /** How the sample came about: candidates found, pages robots.txt kept out, the rendered pages, why it shrank. */
  pageSample?: PageSampleSummary
  /** Set when `pages` was asked of a target it does not apply to (an MCP server): why it was ignored. */
  pagesIgnored?: string
}

function sessionFor(engine: ScanEngine, credentials: OriginCredentials | null = null): ScanSession {
  return new ScanSession(engine.outbound, engine.config, credentials)
}

/** The caller's MCP headers scoped to `origin` (the MCP endpoint's), or none. */
function mcpCredentials(
  origin: string,
  headers: Readonly<Record<string, string>> | undefined,
): OriginCredentials | null {
  if (!headers || Object.keys(headers).length === 0) return null
  return { origin, headers }
}

function authentication(credentials: OriginCredentials | null): { authenticated?: ScanAuthentication } {
  return credentials ? { authenticated: { headers: Object.keys(credentials.headers) } } : {}
}

/** Probes the origin once (the homepage, memoised for the homepage collector): an origin that does not answer is the scan's error. */
async function probeReachable(http: ScanSession, origin: string): Promise<void> {
  try {
    await http.request(`${origin}/`, { headers: BROWSER_HEADERS })
  } catch (error) {
    if (error instanceof OutboundError) {
      const reason = error.code === 'BLOCKED_ADDRESS' ? 'private-address' : 'unreachable'
      throw new ScanError({ reason, origin, cause: error.code }, `${origin} is unreachable: ${error.message}`)
    }
    throw error
  }
}

function selectChecks(registry: CheckRegistry, checkIds: readonly string[] | undefined): readonly CheckDefinition[] {
  if (!checkIds) return registry.checks
  const wanted = new Set(checkIds)
  return registry.checks.filter((check) => wanted.has(check.meta.id))
}

/** Resolves the target and its kind; emits kind_detecting (after the reachability probe) and kind_detected. */
export async function resolveTarget(
  requested: RequestedTarget,
  http: ScanSession,
  options: Pick<ScanOptions, 'onEvent'> = {},
): Promise<ScanTarget> {
  const normalized = requested.input
  const pinned = requested.mcpUrl?.url
  await probeReachable(http, normalized.origin)
  options.onEvent?.({ type: 'kind_detecting' })
  const detected = await detectKind(http, { url: normalized.url, hasPath: normalized.hasPath, mcpUrl: pinned })
  if (detected.authRequired) {
    const failure = {
      reason: 'mcp-auth-required',
      mcpUrl: detected.mcpUrl!,
      urlKind: detected.kind === 'mcp-app' ? 'mcp-app' : 'mcp',
    } as const
    throw new ScanError(failure, `The MCP server at ${failure.mcpUrl} requires authentication; no score was produced`)
  }
  options.onEvent?.({
    type: 'kind_detected',
    kind: detected.kind,
    ...(detected.mcpUrl ? { mcpUrl: detected.mcpUrl } : {}),
    ...(detected.embeddedMcpUrls ? { embeddedMcpUrls: detected.embeddedMcpUrls } : {}),
    hint: detected.hint,
  })
  return {
    kind: detected.kind,
    domain: normalized.domain,
    origin: normalized.origin,
    url: normalized.url,
    ...(detected.mcpUrl ? { mcpUrl: detected.mcpUrl } : {}),
  }
}

function serverName(serverInfo: Record<string, unknown> | undefined): string | undefined {
  const name = [serverInfo?.title, serverInfo?.name].find((value) => typeof value === 'string' && value.trim() !== '')
  return typeof name === 'string' ? name.trim() : undefined
}

/**
 * Emits layer_complete once every check slot of a layer has completed. Slots can be added until the set is sealed
 * (MCP fan-out adds its slots once the servers are known), and no layer completes before then.
 */
class LayerProgress {
  private readonly remaining = new Map<string, number>()
  private readonly names = new Map<string, string>(LAYERS.map((layer) => [layer.id, layer.name]))
  private sealed = false

  constructor(private readonly emit: ((event: ScanEvent) => void) | undefined) {}

  add(checks: readonly CheckDefinition[]): void {
    for (const check of checks) this.remaining.set(check.meta.layer, (this.remaining.get(check.meta.layer) ?? 0) + 1)
  }

  readonly track = (event: CheckEvent): void => {
    this.emit?.(event)
    if (event.type !== 'check_complete') return
    this.remaining.set(event.layerId, this.remaining.get(event.layerId)! - 1)
    this.flush(event.layerId)
  }

  seal(): void {
    this.sealed = true
    for (const layerId of this.remaining.keys()) this.flush(layerId)
  }

  private flush(layerId: string): void {
    if (!this.sealed || this.remaining.get(layerId) !== 0) return
    this.remaining.delete(layerId)
    this.emit?.({ type: 'layer_complete', layerId, layerName: this.names.get(layerId)! })
  }
}

/**
 * Scans one target, as its caller parsed it (requestTarget): probe, detect the kind, run the checks (deep ones
 * pending unless phase is `all`), score. Pure of persistence: routes and the CLI decide what to store.
 */
export async function scan(
  requested: RequestedTarget,
  engine: ScanEngine,
  options: ScanOptions = {},
): Promise<ScanReport> {
  const started = performance.now()
  const scannedAt = new Date().toISOString()
  const credentials = mcpCredentials((requested.mcpUrl ?? requested.input).origin, options.mcpHeaders)
  const http = sessionFor(engine, credentials)
  const target = await resolveTarget(requested, http, options)
  await options.beforeRun?.(target)
  const checks = selectChecks(engine.registry, options.checkIds)
  const phase = options.phase ?? 'static'
  const scanInit = (slots: { kind: ScanKind; checks: readonly CheckDefinition[] }[]) =>
    options.onEvent?.({
      type: 'scan_init',
      layerMaxScores: layerMaxScores(slots),
      totalChecks: slots.reduce((sum, slot) => sum + slot.checks.length, 0),
      checkRoster: slots.flatMap((slot) => slot.checks.map((check) => check.meta.id)),
      staticOnly: phase === 'static',
    })
  scanInit([{ kind: target.kind, checks }])
  const progress = new LayerProgress(options.onEvent)
  progress.add(checks)
  const runner = { target, config: engine.config, http, browser: engine.browser, phase }
  const collection = new Collection(runner)
  const multiPage = (options.pages ?? 1) > 1
  // Only a page-level check needs the pages: re-checking robots.txt alone fetches none of them.
  const stored =
    target.kind === 'domain' && checks.some((check) => check.meta.scope === 'page')
      ? await options.storedSample?.(target)
      : null
  const pageRuns = stored
    ? new PageRuns(runner, { collection, refetch: stored })
    : multiPage && target.kind === 'domain'
      ? new PageRuns(runner, { collection, requested: options.pages! })
      : undefined
  // Drawn now, beside the site-level checks, rather than when the first page-level check asks for it.
  pageRuns?.draw().catch(() => {})
  const main = runChecks(checks, { ...runner, onEvent: progress.track, ...(pageRuns ? { pageRuns } : {}) }, collection)
  const fanout = planFanout(collection, checks, runner).then((plans) => {
    for (const plan of plans) progress.add(plan.checks)
    // The later scan_init is authoritative: it counts the fan-out slots too.
    if (plans.length > 0)
      scanInit([
        { kind: target.kind, checks },
        ...plans.map((plan) => ({ kind: plan.target.kind, checks: plan.checks })),
      ])
    progress.seal()
    return runFanout(plans, runner, progress.track)
  })
  const results = await main
  const fanoutResults = await fanout
  // Reuses the artifacts the checks already collected; a site that cannot be classified is simply unclassified.
  const siteClassification =
    target.kind === 'domain' ? await collection.get('siteClassification').catch(() => null) : null
  const identity: SiteIdentity | null =
    target.kind === 'domain' ? await collection.get('siteIdentity').catch(() => null) : null
  const profile = target.kind === 'domain' ? await siteProfile(collection) : null
  // An MCP server is named by its own serverInfo (title, else name); the checks already collected it.
  const server = target.kind === 'domain' ? null : await collection.get('mcp').catch(() => null)
  // Memoised: this is the reachability probe's response, not a new request.
  const homepage = await http.request(`${target.origin}/`, { headers: BROWSER_HEADERS }).catch(() => null)
  return {
    domain: target.domain,
    name: identity?.name ?? serverName(server?.handshake?.serverInfo) ?? target.domain,
    category: identity?.category ?? null,
    url: target.url,
    finalUrl: homepage?.url ?? target.url,
    urlKind: target.kind,
    ...(target.mcpUrl ? { mcpUrl: target.mcpUrl } : {}),
    ...score(engine.registry, results, fanoutResults),
    scannedAt,
    durationMs: Math.round(performance.now() - started),
    requestCount: http.requestCount,
    siteClassification,
    ...(profile ? { profile } : {}),
    contractVersion: CONTRACT_VERSION,
    ...authentication(credentials),
    ...(pageRuns ? await sampleFields(pageRuns) : {}),
    ...(multiPage && !pageRuns
      ? { pagesIgnored: `pages applies to domain scans only: the ${target.kind} server was scanned as itself` }
      : {}),
  }
}

/** The sample a multi-page scan judged (drawn by its first page-level check, or now when none ran). */
async function sampleFields(pageRuns: PageRuns): Promise<Pick<ScanReport, 'pages' | 'pageSample'>> {
  const sample = await pageRuns.draw().catch(() => null)
  return sample ? { pages: sample.pages, pageSample: sample.summary } : {}
}

/** The homepage and llms.txt artifacts the checks already collected, read as the site's own description. */
async function siteProfile(collection: Collection): Promise<SiteProfile | null> {
  const homepage = await collection.get('homepage').catch(() => null)
  if (!homepage) return null
  const llmsTxt = await collection.get('llmsTxt').catch(() => null)
  return describeSite(homepage, llmsTxt)
}

/**
 * Resolves a partial report's pending (deep) checks with a fresh session and re-scores the whole report; the
 * background worker calls this, so it needs nothing but the stored report. It never holds MCP headers: those are
 * the CLI's, whose scans resolve deep checks inline.
 */
export async function resolvePending(report: ScanReport, engine: ScanEngine): Promise<ScanReport> {
  if (report.pendingChecks.length === 0) return report
  const http = sessionFor(engine)
  const target: ScanTarget = {
    kind: report.urlKind,
    domain: report.domain,
    origin: new URL(report.url).origin,
    url: report.url,
    ...(report.mcpUrl ? { mcpUrl: report.mcpUrl } : {}),
  }
  const runner = { target, config: engine.config, http, browser: engine.browser, phase: 'all' as const }
  // A multi-page scan's rendered checks are judged over the same sample's rendered pages, not a new draw.
  const pageRuns =
    report.pages && report.pageSample
      ? new PageRuns(runner, { sample: { pages: report.pages, summary: report.pageSample } })
      : undefined
  const resolved = await runChecks(selectChecks(engine.registry, report.pendingChecks), {
    ...runner,
    ...(pageRuns ? { pageRuns } : {}),
  })
  return rescore(report, { kind: 'results', results: resolved }, engine.registry)
}
