import type { Config } from '../config.ts'
import { AppError } from '../errors.ts'
import { OutboundError, type OutboundClient } from '../http/client.ts'
import { ScanSession } from '../http/session.ts'
import type { BrowserProvider } from './browser.ts'
import { type CheckDefinition, LAYERS, type ScanKind, type ScanTarget } from './contract.ts'
import { detectKind } from './detect.ts'
import type { CheckRegistry } from './registry.ts'
import type { SiteClassification } from './collectors/site-classification.ts'
import type { SiteIdentity } from './collectors/site-identity.ts'
import { type CheckEvent, Collection, runChecks } from './runner.ts'
import { type CheckResult, type Scorecard, scoreScan } from './scoring.ts'
import { BROWSER_HEADERS } from './snapshot.ts'
import { normalizeInput } from './target.ts'

export interface EngineDeps {
  config: Readonly<Config>
  outbound: OutboundClient
  browser: BrowserProvider | null
  registry: CheckRegistry
}

/** Stream events a scan emits, in the spec's order (Events: scan stream). */
export type ScanEvent =
  | { type: 'kind_detecting' }
  | { type: 'kind_detected'; kind: ScanKind; mcpUrl?: string; embeddedMcpUrls?: string[]; hint?: string }
  | { type: 'scan_init'; layerMaxScores: Record<string, number>; totalChecks: number; checkRoster: string[]; staticOnly: boolean }
  | CheckEvent
  | { type: 'layer_complete'; layerId: string; layerName: string }

export interface ScanOptions {
  /** Pins the sole MCP target; a failing pinned endpoint is never replaced by a discovered one. */
  mcpUrl?: string
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
}

/** Thrown when the MCP server requires authentication: no score is produced (spec: 422 MCP_AUTH_REQUIRED). */
export class McpAuthRequiredError extends AppError {
  constructor(
    readonly mcpUrl: string,
    readonly urlKind: 'mcp' | 'mcp-app',
  ) {
    super('MCP_AUTH_REQUIRED', {
      message: `The MCP server at ${mcpUrl} requires authentication; no score was produced`,
      extra: { mcpAuthRequired: true, mcpUrl, urlKind },
    })
  }
}

function sessionFor(deps: EngineDeps): ScanSession {
  return new ScanSession(deps.outbound, deps.config)
}

/** Probes the origin once (the homepage, memoised for the homepage collector); unreachable is a 400. */
async function probeReachable(http: ScanSession, origin: string): Promise<void> {
  try {
    await http.request(`${origin}/`, { headers: BROWSER_HEADERS })
  } catch (error) {
    if (error instanceof OutboundError) {
      throw new AppError('DOMAIN_UNREACHABLE', {
        message: `${origin} is unreachable: ${error.message}`,
        details: { origin, reason: error.code },
      })
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
  input: string,
  http: ScanSession,
  options: Pick<ScanOptions, 'mcpUrl' | 'onEvent'>,
): Promise<ScanTarget> {
  const normalized = normalizeInput(input)
  const pinned = options.mcpUrl ? normalizeInput(options.mcpUrl).url : undefined
  await probeReachable(http, normalized.origin)
  options.onEvent?.({ type: 'kind_detecting' })
  const detected = await detectKind(http, { url: normalized.url, hasPath: normalized.hasPath, mcpUrl: pinned })
  if (detected.authRequired) throw new McpAuthRequiredError(detected.mcpUrl!, detected.kind === 'mcp-app' ? 'mcp-app' : 'mcp')
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

/** Builds scored results from check results, looking up each check's layer and beta flag in the registry. */
export function scoreResults(registry: CheckRegistry, results: CheckResult[]): Scorecard {
  return scoreScan(
    results.map((result) => {
      const check = registry.get(result.id)
      return { result, layer: check?.meta.layer ?? 'discovery', beta: check?.meta.beta ?? true }
    }),
  )
}

/** Emits layer_complete once every check of a layer has completed, whatever order checks finish in. */
function layerTracker(checks: readonly CheckDefinition[], emit: ((event: ScanEvent) => void) | undefined) {
  const remaining = new Map<string, number>()
  for (const check of checks) remaining.set(check.meta.layer, (remaining.get(check.meta.layer) ?? 0) + 1)
  return (event: CheckEvent) => {
    emit?.(event)
    if (event.type !== 'check_complete') return
    const left = remaining.get(event.layerId)! - 1
    remaining.set(event.layerId, left)
    if (left === 0) emit?.({ type: 'layer_complete', layerId: event.layerId, layerName: event.layerName })
  }
}

/**
 * Scans one target: normalise, probe, detect the kind, run the checks (deep ones pending unless phase is
 * `all`), score. Pure of persistence: routes and the CLI decide what to store.
 */
export async function scan(input: string, deps: EngineDeps, options: ScanOptions = {}): Promise<ScanReport> {
  const started = performance.now()
  const scannedAt = new Date().toISOString()
  const http = sessionFor(deps)
  const target = await resolveTarget(input, http, options)
  await options.beforeRun?.(target)
  const checks = selectChecks(deps.registry, options.checkIds)
  const phase = options.phase ?? 'static'
  const applicable = checks.filter((check) => check.meta.appliesTo.includes(target.kind))
  options.onEvent?.({
    type: 'scan_init',
    layerMaxScores: Object.fromEntries(
      LAYERS.map((layer) => [
        layer.id,
        applicable.filter((check) => check.meta.layer === layer.id && !check.meta.bonus).reduce((sum, check) => sum + check.meta.maxScore, 0),
      ]),
    ),
    totalChecks: checks.length,
    checkRoster: checks.map((check) => check.meta.id),
    staticOnly: phase === 'static',
  })
  const runner = { target, config: deps.config, http, browser: deps.browser, phase, onEvent: layerTracker(checks, options.onEvent) }
  const collection = new Collection(runner)
  const results = await runChecks(checks, runner, collection)
  // Reuses the artifacts the checks already collected; a site that cannot be classified is simply unclassified.
  const siteClassification = target.kind === 'domain' ? await collection.get('siteClassification').catch(() => null) : null
  const identity: SiteIdentity | null = target.kind === 'domain' ? await collection.get('siteIdentity').catch(() => null) : null
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
    ...scoreResults(deps.registry, results),
    scannedAt,
    durationMs: Math.round(performance.now() - started),
    requestCount: http.requestCount,
    siteClassification,
  }
}

/**
 * Resolves a partial report's pending (deep) checks with a fresh session and re-scores the whole report; the
 * background worker calls this, so it needs nothing but the stored report.
 */
export async function resolvePending(report: ScanReport, deps: EngineDeps): Promise<ScanReport> {
  if (report.pendingChecks.length === 0) return report
  const http = sessionFor(deps)
  const target: ScanTarget = {
    kind: report.urlKind,
    domain: report.domain,
    origin: new URL(report.url).origin,
    url: report.url,
    ...(report.mcpUrl ? { mcpUrl: report.mcpUrl } : {}),
  }
  const resolved = await runChecks(selectChecks(deps.registry, report.pendingChecks), {
    target,
    config: deps.config,
    http,
    browser: deps.browser,
    phase: 'all',
  })
  return patchReport(report, resolved, deps.registry)
}

/** Replaces results by id (and mcpUrl) and re-scores over the full set: used by deep resolution and selective runs. */
export function patchReport(report: ScanReport, patch: CheckResult[], registry: CheckRegistry): ScanReport {
  const key = (result: CheckResult) => `${result.id}\u0000${result.mcpUrl ?? ''}`
  const replacements = new Map(patch.map((result) => [key(result), result]))
  const current = report.layers.flatMap((layer) => layer.checks)
  const merged = current.map((result) => replacements.get(key(result)) ?? result)
  const known = new Set(current.map(key))
  for (const result of patch) if (!known.has(key(result))) merged.push(result)
  return { ...report, ...scoreResults(registry, merged.map((result) => ({ ...result, estScoreGain: undefined }))) }
}
