import type { Kernel } from '../../core/kernel.ts'
import type { ScanTarget } from '../../core/engine/check.ts'
import { scan, type ScanEvent, type ScanReport } from '../../core/engine/scan.ts'
import { rescore } from '../../core/engine/scoring.ts'
import type { PageSample } from '../../core/engine/site-sample.ts'
import { ScanError } from '../../core/engine/scan-error.ts'
import { type RequestedTarget, requestTarget } from '../../core/engine/target.ts'
import { AppError, ERROR_ENVELOPE, renderError } from '../../core/errors.ts'
import { SCAN_ERRORS } from './errors.ts'
import { asAppError } from '../../core/request/scan-error-response.ts'
import { competitorsFor } from './competitors.ts'
import { type Caller, consume, type Limit, peek, retryAfterSeconds } from '../../core/limits.ts'
import { SCAN_LIMITS } from './limits.ts'
import type { Store } from '../../core/store/types.ts'
import { clampMaxAge, scanNextAction } from './model.ts'
import type { ScanRepository, ScanRow } from './repository.ts'
import { renderScan, type ShapeContext, type ShapeOptions } from './shapes.ts'
import { DEEP_SCAN_JOB, type WorkerEvent } from './worker.ts'
import { isPrivateTarget, mcpTargetOn, targetKey } from './target.ts'

/** Public tunnel hostnames: whatever answers there today is gone tomorrow, so results are always ephemeral. */
const TUNNEL_SUFFIXES = [
  'trycloudflare.com',
  'ngrok-free.app',
  'ngrok-free.dev',
  'ngrok.io',
  'ngrok.app',
  'ngrok.dev',
  'loca.lt',
  'localtunnel.me',
  'serveo.net',
  'localhost.run',
  'lhr.life',
  'pinggy.link',
  'tunnelmole.net',
  'devtunnels.ms',
  'bore.pub',
]

export function isTunnelHost(domain: string): boolean {
  return TUNNEL_SUFFIXES.some((suffix) => domain === suffix || domain.endsWith(`.${suffix}`))
}

/** Whether a stored result was scanned with the `pages` asked for (an MCP target ignores it, so any matches). */
function samePages(report: ScanReport, pages: number | undefined): boolean {
  return report.urlKind !== 'domain' || (report.pageSample?.requested ?? 1) === (pages ?? 1)
}

export const scanChannel = (scanId: number) => `scan:${scanId}:events`

/** How long a stream stays open after scan_complete waiting for the background analysis. */
const STREAM_ANALYSIS_WAIT_MS = 120_000

export interface ScanRequest {
  url: string
  mcpUrl?: string
  maxAgeSeconds?: number
  force?: boolean
  ephemeral?: boolean
  /** Pages of a domain to sample (1..100, the caller's allowance checked by the route); 1 or absent is the homepage alone. */
  pages?: number
}

/** A validated request: what it targets, and a fresh stored result when one can be served instead. */
export interface PreparedScan {
  request: ScanRequest
  /** The request's target, parsed once: the scan measures this. */
  target: RequestedTarget
  domain: string
  ephemeral: boolean
  forced: boolean
  fresh: { row: ScanRow; ageSeconds: number } | null
}

export interface ExecuteHooks {
  onEvent?: (event: ScanEvent) => void
  /**
   * Runs once the scan row exists and before its deep job can be taken (inside the storing transaction), so a
   * listener subscribed here never misses worker events. Keep it short: it holds the transaction open.
   */
  onStored?: (row: ScanRow) => Promise<void>
}

export type ScanDeps = Pick<
  Kernel,
  'config' | 'registry' | 'outbound' | 'browser' | 'store' | 'log' | 'database' | 'readCache'
> & {
  scans: ScanRepository
}
type ScanServiceDeps = ScanDeps & Pick<Kernel, 'jobs'>

/** A denial of one of the scan family's budgets, as the spec's 429. */
function budgetDenied(limit: Limit, decision: Awaited<ReturnType<typeof peek>>): AppError {
  return new AppError('RATE_LIMIT_EXCEEDED', {
    message:
      limit === SCAN_LIMITS.scanForced
        ? `Forced-scan budget exhausted: ${decision.limit} per rolling 24 hours`
        : `Daily scan budget exhausted: ${decision.limit} scans per rolling 24 hours`,
    retryAfterSeconds: retryAfterSeconds(decision),
    durableRetry: decision.durable,
  })
}

/** Refuses early when a budget of the scan family is already exhausted, without spending anything. */
export async function checkScanBudget(store: Store, caller: Caller, forced: boolean): Promise<void> {
  const { scanDaily, scanForced } = SCAN_LIMITS
  for (const limit of forced ? [scanDaily, scanForced] : [scanDaily]) {
    const decision = await peek(store, limit, caller)
    if (!decision.allowed) throw budgetDenied(limit, decision)
  }
}

/** Spends the budget units of one scan (v1 and v2 alike); called once the target is probed and classified. */
export async function spendScanBudget(store: Store, caller: Caller, forced: boolean): Promise<void> {
  await checkScanBudget(store, caller, forced)
  const { scanDaily, scanForced } = SCAN_LIMITS
  for (const limit of forced ? [scanForced, scanDaily] : [scanDaily]) {
    const decision = await consume(store, limit, caller)
    if (!decision.allowed) throw budgetDenied(limit, decision)
  }
}

/** Where a streamed scan's events go: an SSE channel, closed by the caller once `stream` settles. */
export interface ScanEventSink {
  send(event: object): void
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal
}

export class ScanService {
  readonly repository: ScanRepository
  private readonly metas: ShapeContext['metas']

  constructor(private readonly deps: ScanServiceDeps) {
    this.repository = deps.scans
    this.metas = new Map(deps.registry.checks.map((check) => [check.meta.id, check.meta]))
  }

  /** A stored scan in the requested shape; competitors are read only when asked for. */
  async render(
    row: ScanRow,
    options: ShapeOptions,
    route: 'scan' | 'score',
    cached?: { ageSeconds: number },
  ): Promise<Record<string, unknown>> {
    // Every row read for rendering has a result: auth-required markers (the rows without one) are never rendered.
    return renderScan(row as ScanRow & { result: NonNullable<ScanRow['result']> }, options, {
      config: this.deps.config,
      metas: this.metas,
      catalog: this.deps.registry,
      route,
      cached,
      competitors: options.competitors ? await competitorsFor(this.deps.database.db, row.domain) : undefined,
    })
  }

  /**
   * The events of a streamed scan, in the spec's order: a fresh stored result is kind_detected then scan_complete
   * (servedFromCache); otherwise the engine's progress, scan_complete, then (when rendered checks run in the
   * background) the worker's relevance_assessed / summary_ready until the analysis ends, the client leaves or
   * STREAM_ANALYSIS_WAIT_MS pass. A failure ends the stream with an `error` event carrying the error envelope.
   */
  async stream(prepared: PreparedScan, caller: Caller, options: ShapeOptions, sink: ScanEventSink): Promise<void> {
    const completion = (result: Record<string, unknown>) => ({
      type: 'scan_complete',
      result,
      ...(options.siteType ? { siteType: result.siteType } : {}),
    })
    if (prepared.fresh) {
      const { row, ageSeconds } = prepared.fresh
      const result = await this.render(row, options, 'scan', { ageSeconds })
      sink.send({
        type: 'kind_detected',
        kind: row.urlKind,
        ...(row.mcpUrl ? { mcpUrl: row.mcpUrl } : {}),
        hint: 'served from cache',
      })
      sink.send({ ...completion(result), servedFromCache: true, resultAgeSeconds: ageSeconds })
      return
    }
    let unsubscribe: (() => Promise<void>) | null = null
    let timer: ReturnType<typeof setTimeout> | undefined
    let analysisDone: Promise<void> = Promise.resolve()
    try {
      const row = await this.execute(prepared, caller, {
        onEvent: (event) => sink.send(event),
        // Subscribed (awaited) before the deep job is queued, so a fast worker's events are never missed.
        onStored: async (stored) => {
          if (stored.analysisStatus !== 'partial') return
          let finish = () => {}
          analysisDone = new Promise<void>((resolve) => {
            finish = resolve
          })
          timer = setTimeout(finish, STREAM_ANALYSIS_WAIT_MS)
          sink.signal.addEventListener('abort', finish, { once: true })
          try {
            unsubscribe = await this.deps.store.subscribe(scanChannel(stored.id), (message) => {
              const event = JSON.parse(message) as WorkerEvent
              if (event.type === 'relevance_assessed' || event.type === 'summary_ready') sink.send(event)
              if (event.type === 'analysis_complete' || event.type === 'analysis_failed') finish()
            })
          } catch {
            // Store down: the scan still completes; this stream ends after scan_complete without worker events.
            finish()
          }
        },
      })
      sink.send(completion(await this.render(row, options, 'scan')))
      await analysisDone
      if (row.analysisStatus === 'partial')
        sink.send({ type: 'discovery_phase', step: 'finalize', label: 'Background analysis finished' })
    } catch (error) {
      const known = asAppError(error)
      const appError = known ?? new AppError(SCAN_ERRORS.SCAN_FAILED, { message: 'The scan failed' })
      if (!known) this.deps.log.error({ err: error }, 'stream scan failed')
      const { body } = renderError(appError, ERROR_ENVELOPE)
      sink.send({ type: 'error', ...body, message: appError.message, code: appError.code })
    } finally {
      clearTimeout(timer)
      await (unsubscribe as (() => Promise<void>) | null)?.()
    }
  }

  /** Refuses early when a budget is already exhausted, without spending anything. */
  checkBudget(caller: Caller, forced: boolean): Promise<void> {
    return checkScanBudget(this.deps.store, caller, forced)
  }

  /** Spends the budget units of one scan; called once the target is probed and classified. */
  spendBudget(caller: Caller, forced: boolean): Promise<void> {
    return spendScanBudget(this.deps.store, caller, forced)
  }

  /**
   * Everything decided before a response starts: the target is valid, an explicit ephemeral scan would not hide
   * a real one, and whether a complete stored result younger than the window can be served (no budget spent).
   */
  async prepare(request: ScanRequest): Promise<PreparedScan> {
    const target = requestTarget(request.url, {
      mcpUrl: request.mcpUrl,
      allowLocal: this.deps.config.scanner.allowPrivate,
    })
    const { domain, url, hasPath } = target.input
    const mcpUrl = target.mcpUrl?.url ?? null
    const ephemeral = Boolean(request.ephemeral) || isTunnelHost(domain) || isPrivateTarget(domain)
    if (request.ephemeral && (await this.repository.hasRealScan(domain))) {
      throw new AppError(SCAN_ERRORS.EPHEMERAL_CLOBBER, {
        message: `${domain} already has a stored scan; an ephemeral scan would hide it. Scan without ephemeral.`,
        details: { domain },
      })
    }
    const forced = Boolean(request.force)
    const stored = forced
      ? null
      : await this.repository.fresh({ domain, url, mcpUrl, hasPath }, clampMaxAge(request.maxAgeSeconds), { ephemeral })
    // A stored result answers only a request for the same sample size: a 25-page verdict is not a 1-page one.
    const row = stored?.result && samePages(stored.result, request.pages) ? stored : null
    const fresh = row
      ? { row, ageSeconds: Math.max(0, Math.floor((Date.now() - row.scannedAt.getTime()) / 1000)) }
      : null
    return { request, target, domain, ephemeral, forced, fresh }
  }

  /**
   * Scans live (budget permitting: checked now, spent once the target is probed and classified), stores the
   * result and hands deep work to the worker. An auth-required MCP server leaves a marker and no score.
   */
  async execute(prepared: PreparedScan, caller: Caller, hooks: ExecuteHooks = {}): Promise<ScanRow> {
    const { request, target, domain, ephemeral, forced } = prepared
    await this.checkBudget(caller, forced)
    let report: ScanReport
    try {
      report = await scan(target, this.deps, {
        phase: 'static',
        ...(request.pages !== undefined ? { pages: request.pages } : {}),
        onEvent: hooks.onEvent,
        beforeRun: () => this.spendBudget(caller, forced),
      })
    } catch (error) {
      if (error instanceof ScanError && error.is('mcp-auth-required')) {
        const { mcpUrl, urlKind } = error.failure
        await this.repository.insertAuthMarker({ domain, url: request.url, mcpUrl, urlKind, ephemeral })
        await this.deps.readCache.invalidate(domain)
      }
      throw error
    }
    const row = await this.repository.insert(report, {
      ephemeral,
      beforeCommit: async (tx, stored) => {
        await hooks.onStored?.(stored)
        if (stored.analysisStatus === 'partial') await this.deps.jobs.send(DEEP_SCAN_JOB, { scanId: stored.id }, { tx })
      },
    })
    await this.deps.readCache.invalidate(domain)
    return row
  }

  /**
   * The newest measured scan of a domain, for the score route and the get_score tool. With none: 422 when the only
   * stored result is an auth-required MCP marker, else 404 with the next action (camelCase in the audit shape).
   */
  async readScore(domain: string, options: { audit: boolean; mcpUrl?: string }): Promise<ScanRow> {
    const target = options.mcpUrl
      ? mcpTargetOn(domain, options.mcpUrl, { allowLocal: this.deps.config.scanner.allowPrivate })
      : undefined
    const [row, marker] = await Promise.all([
      target ? this.repository.latestOf(target) : this.repository.latest(domain),
      this.repository.authMarker(domain, target),
    ])
    if (row) return row
    if (marker) {
      throw new AppError('MCP_AUTH_REQUIRED', {
        message: `The MCP server at ${marker.mcpUrl} requires authentication; it has no score`,
        extra: { mcpAuthRequired: true, mcpUrl: marker.mcpUrl, urlKind: marker.urlKind },
      })
    }
    const action = scanNextAction({ url: domain }, `Scan ${domain} to create its score.`)
    throw new AppError(SCAN_ERRORS.DOMAIN_NOT_SCANNED, {
      message: `${domain} has not been scanned yet`,
      extra: { domain, ...(options.audit ? { nextAction: action } : { next_action: action }) },
    })
  }

  /**
   * A selective run: live, deep checks inline (never pending), one unit of the daily budget spent once the target
   * answered. With `patch`, the results replace those of the stored scan, which is re-scored, but only when that
   * scan measured the very target this run did; otherwise `storedScanNote` says why it was left alone.
   */
  async runChecks(
    request: { url: string; checkIds: readonly string[]; mcpUrl?: string },
    caller: Caller,
    options: { patch: boolean },
  ): Promise<{ report: ScanReport; storedScanUpdated: boolean; storedScanNote?: string }> {
    await this.checkBudget(caller, false)
    const target = requestTarget(request.url, {
      mcpUrl: request.mcpUrl?.trim() || undefined,
      allowLocal: this.deps.config.scanner.allowPrivate,
    })
    const report = await scan(target, this.deps, {
      checkIds: [...new Set(request.checkIds)],
      phase: 'all',
      beforeRun: () => this.spendBudget(caller, false),
      storedSample: (target) => this.storedSample(target),
    })
    if (!options.patch) return { report, storedScanUpdated: false }
    // The run's own target first; else the domain's newest scan, so the note can say which target that one measured.
    const stored = (await this.repository.latestOf(targetKey(report))) ?? (await this.repository.latest(report.domain))
    const refusal = patchRefusal(stored, report)
    if (refusal !== null) return { report, storedScanUpdated: false, storedScanNote: refusal }
    const results = report.layers.flatMap((layer) => layer.checks)
    await this.repository.update(stored!.id, rescore(stored!.result!, { kind: 'results', results }, this.deps.registry))
    await this.deps.readCache.invalidate(report.domain)
    return { report, storedScanUpdated: true }
  }

  /** The pages the target's stored multi-page scan judged, which a selective re-check judges again; null otherwise. */
  private async storedSample(target: ScanTarget): Promise<PageSample | null> {
    const stored = (
      await this.repository.latestOf(targetKey({ urlKind: target.kind, url: target.url, mcpUrl: target.mcpUrl }))
    )?.result
    return stored?.pages && stored.pageSample ? { pages: stored.pages, summary: stored.pageSample } : null
  }
}

/** What a scan measured: its kind, its URL and its MCP endpoint (pinned, or the one its URL was detected as). */
type Measured = { urlKind: string; url: string; mcpUrl?: string | null }

const KIND_LABELS: Record<string, string> = { domain: 'a domain', mcp: 'an MCP', 'mcp-app': 'an MCP App' }

const describeTarget = (target: Measured) =>
  `${KIND_LABELS[target.urlKind] ?? target.urlKind} scan of ${target.url}${target.mcpUrl && target.mcpUrl !== target.url ? ` (MCP endpoint ${target.mcpUrl})` : ''}`

/**
 * Why a selective run's results must not be patched into the domain's published scan, or null when they may. A
 * stored scan changes only through a scan of its own kind and target: an MCP run patched into a domain scan (or a
 * domain run into an MCP scan, or one MCP endpoint into another's) would mix results no scan of either target
 * produces, and change public scores, badges and attestations with them.
 */
function patchRefusal(stored: ScanRow | null, run: ScanReport): string | null {
  if (!stored?.result) return `${run.domain} has no stored scan to update; POST /api/scan stores one`
  if (stored.ephemeral) return `The stored result of ${run.domain} is ephemeral; selective runs never update it`
  const same =
    stored.urlKind === run.urlKind && stored.url === run.url && (stored.mcpUrl ?? null) === (run.mcpUrl ?? null)
  if (same) return null
  return `The stored scan of ${run.domain} is ${describeTarget(stored)}; this run was ${describeTarget(run)}, so it was not patched in. Scan this target with POST /api/scan to store it.`
}
