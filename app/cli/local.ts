import { loadConfig } from '../../core/config.ts'
import { createEngine } from '../engine.ts'
import { assessRelevance } from '../../core/engine/relevance.ts'
import { scan } from '../../core/engine/scan.ts'
import { isLocalHost, requestTarget } from '../../core/engine/target.ts'
import { ScanError } from '../../core/engine/scan-error.ts'
import type { ProgressEvent } from './progress.ts'
import { type CliReport, fromScanReport } from './report.ts'
import { TargetError, UsageError } from './usage.ts'

export interface LocalScan {
  mcpUrl?: string
  /** Headers for the MCP endpoint's origin (`--header`, `--header-env`): a token for the user's own server. */
  mcpHeaders?: Record<string, string>
  /** Pages to sample (`--pages`): page-level checks are judged over them. */
  pages?: number
  /** Run just these checks: a partial result without a score. */
  only?: string[]
  /** Ids the gate needs; unknown ones are refused before anything is fetched. */
  gateChecks?: string[]
  /** No browser: rendered checks are skipped (and puppeteer is never loaded). */
  static: boolean
  allowPrivate: boolean
  onEvent: (event: ProgressEvent) => void
  usage: string
}

/**
 * Scans in this process with the service's checks and judgements: the static and rendered checks (the latter in one
 * pass beside the former rather than in the worker's later phase), then relevance. A server and this give the same
 * score.
 */
export async function scanLocally(target: string, options: LocalScan): Promise<CliReport> {
  const config = loadConfig(options.allowPrivate ? { ...process.env, SCANNER_ALLOW_PRIVATE: 'true' } : process.env)
  const engine = createEngine(config, options.static ? { browser: null } : {})
  const unknown = [...(options.only ?? []), ...(options.gateChecks ?? [])].filter((id) => !engine.registry.has(id))
  if (unknown.length > 0)
    throw new UsageError(`unknown check ids: ${[...new Set(unknown)].join(', ')} (see GET /api/checks)`, options.usage)
  const isBeta = (id: string) => engine.registry.get(id)?.meta.beta === true
  try {
    // Where private targets may be reached at all, local ones (a dev server in CI) may also be named.
    const requested = requestTarget(target, { mcpUrl: options.mcpUrl, allowLocal: config.scanner.allowPrivate })
    if (options.only) {
      // A selective run, as POST /api/scan/checks: rendered checks inline, no relevance judgement.
      const report = await scan(requested, engine, {
        phase: 'all',
        checkIds: options.only,
        mcpHeaders: options.mcpHeaders,
        onEvent: options.onEvent,
      })
      return skipRendered(fromScanReport(report, { partial: true, isBeta }), options.static, engine.registry)
    }
    // The browser starts at once and the rendered checks run beside the static ones: the time of the slower of the two.
    const rendering = engine.browser !== null
    if (rendering) engine.browser!.warm?.()
    let report = await scan(requested, engine, {
      phase: rendering ? 'all' : 'static',
      mcpHeaders: options.mcpHeaders,
      ...(options.pages !== undefined ? { pages: options.pages } : {}),
      onEvent: options.onEvent,
    })
    const renderedApply = engine.registry.checks.some(
      (check) => check.meta.deep && check.meta.appliesTo.includes(report.urlKind),
    )
    if (rendering && renderedApply)
      report = { ...assessRelevance(report, engine.registry).report, analysisStatus: 'complete', pendingChecks: [] }
    return skipRendered(fromScanReport(report, { partial: false, isBeta }), options.static, engine.registry)
  } catch (error) {
    if (!(error instanceof ScanError)) throw error
    const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? target : `http://${target}`
    const local = URL.canParse(url) && isLocalHost(new URL(url).hostname)
    const hint = !config.scanner.allowPrivate && local ? ' (a local target needs --allow-private)' : ''
    throw new TargetError(`cannot scan ${target}: ${error.message}${hint}`)
  } finally {
    await engine.browser?.close()
  }
}

/**
 * Without a browser a rendered check can only say so (status error, which never counts toward the score); under
 * --static that is the user's choice, so it reads as skipped rather than as a failure in CI reports.
 */
function skipRendered(
  report: CliReport,
  isStatic: boolean,
  registry: ReturnType<typeof createEngine>['registry'],
): CliReport {
  if (!isStatic) return report
  const rendered = (id: string) => registry.get(id)?.meta.deep === true
  return {
    ...report,
    layers: report.layers.map((layer) => ({
      ...layer,
      checks: layer.checks.map((check) =>
        check.status === 'error' && rendered(check.id)
          ? {
              ...check,
              status: 'na',
              score: 0,
              naReason: 'Rendered in a browser: skipped by --static',
              recommendation: undefined,
            }
          : check,
      ),
    })),
  }
}
