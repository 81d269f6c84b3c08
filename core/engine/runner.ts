import { z } from 'zod'
import type { Config } from '../config.ts'
import type { ScanSession } from '../outbound/session.ts'
import type { ArtifactKey, ArtifactMap } from './artifacts.ts'
import type { BrowserProvider } from './browser.ts'
import { COLLECTORS } from './collectors/index.ts'
import {
  type CheckContext,
  type CheckDefinition,
  CollectorError,
  type CollectorContext,
  LAYERS,
  type Outcome,
  type ScanTarget,
} from './check.ts'
import type { CheckStatus } from './check.ts'
import type { PageRuns } from './page-runs.ts'
import { type CheckResult, toCheckResult } from './scoring.ts'

/** Every check's collection and run together may take this long before the check reports `error`. */
export const DEFAULT_CHECK_TIMEOUT_MS = 45_000

/** Set on the events of a check run against one MCP server of a domain's fan-out. */
interface FanoutTag {
  mcpKind?: string
  mcpUrl?: string
}

export interface CheckStartEvent extends FanoutTag {
  type: 'check_start'
  layerId: string
  layerName: string
  checkId: string
  checkName: string
}

export interface CheckCompleteEvent extends FanoutTag {
  type: 'check_complete'
  layerId: string
  layerName: string
  checkId: string
  checkName: string
  status: CheckStatus
  score: number
  maxScore: number
  details?: string
  bonus?: boolean
  maturity?: string
}

export type CheckEvent = CheckStartEvent | CheckCompleteEvent

export interface RunnerOptions {
  target: ScanTarget
  config: Readonly<Config>
  http: ScanSession
  browser: BrowserProvider | null
  /** `static` reports deep checks as `pending` (when a browser exists to resolve them later); `all` runs them too. */
  phase: 'static' | 'all'
  onEvent?: (event: CheckEvent) => void
  checkTimeoutMs?: number
  /** A multi-page scan: page-level checks are judged over its sample of pages, not the homepage alone. */
  pageRuns?: PageRuns
}

const LAYER_NAMES = new Map<string, string>(LAYERS.map((layer) => [layer.id, layer.name]))

/**
 * Collects artifacts on demand, each once per scan, and runs checks over them. Collectors run concurrently as
 * checks ask for them; a failed collector turns only its dependent checks into `error`.
 */
export class Collection {
  private readonly artifacts = new Map<ArtifactKey, Promise<unknown>>()
  private readonly context: CollectorContext
  /** What a check run over this collection is told of its page (nothing for the homepage). */
  readonly checkContext: Omit<CheckContext, 'target'>

  /** `page` is a sampled page's URL for its own collection; the homepage otherwise. */
  constructor(options: Pick<RunnerOptions, 'target' | 'config' | 'http' | 'browser'> & { page?: string }) {
    const homepage = `${options.target.origin}/`
    this.context = {
      target: options.target,
      config: options.config,
      http: options.http,
      page: options.page ?? homepage,
      isHomepage: (options.page ?? homepage) === homepage,
      browser: options.browser,
      get: (key) => this.get(key),
    }
    this.checkContext = this.context.isHomepage ? {} : { page: this.context.page }
  }

  get<K extends ArtifactKey>(key: K): Promise<ArtifactMap[K]> {
    let pending = this.artifacts.get(key) as Promise<ArtifactMap[K]> | undefined
    if (!pending) {
      pending = COLLECTORS[key].collect(this.context) as Promise<ArtifactMap[K]>
      // Rejections are observed by every check that awaits this artifact; keep an unobserved one from crashing.
      pending.catch(() => {})
      this.artifacts.set(key, pending)
    }
    return pending
  }
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, label: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CollectorError(`${label} timed out after ${timeoutMs} ms`)), timeoutMs)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

function describeFailure(error: unknown): string {
  if (error instanceof CollectorError) return error.message
  return `internal error while collecting: ${error instanceof Error ? error.message : String(error)}`
}

/** Runs one check against the collection; never throws (a scan never dies of a check). */
export async function runCheck(
  check: CheckDefinition,
  collection: Collection,
  options: RunnerOptions,
): Promise<Outcome> {
  let artifacts: Record<string, unknown>
  try {
    const values = await withTimeout(
      Promise.all(check.meta.needs.map((key) => collection.get(key))),
      check.meta.timeoutMs ?? options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
      `check ${check.meta.id}`,
    )
    artifacts = Object.fromEntries(check.meta.needs.map((key, index) => [key, values[index]]))
  } catch (error) {
    return { status: 'error', details: describeFailure(error) }
  }
  try {
    return withCheckedEvidence(
      check,
      check.run(artifacts as never, { target: options.target, ...collection.checkContext }),
    )
  } catch (error) {
    return {
      status: 'error',
      details: `the check failed: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}

/** Programs rely on evidence without reading prose, so evidence outside the check's declared schema is an error of that check. */
function withCheckedEvidence(check: CheckDefinition, outcome: Outcome): Outcome {
  if (outcome.evidence === undefined) return outcome
  if (!check.evidence)
    return { status: 'error', details: 'the check returned evidence but declares no evidence schema' }
  const parsed = check.evidence.safeParse(outcome.evidence)
  if (!parsed.success)
    return { status: 'error', details: `the check returned invalid evidence: ${z.prettifyError(parsed.error)}` }
  return { ...outcome, evidence: parsed.data }
}

function notApplicable(check: CheckDefinition, options: RunnerOptions): Outcome {
  const kinds = check.meta.appliesTo.join(', ')
  return {
    status: 'na',
    details: `Applies to ${kinds} scans, not ${options.target.kind}`,
    naReason: `Applies to ${kinds} scans only`,
  }
}

/** A scan never dies of its sample: a sample that could not be drawn leaves the homepage's verdict. */
async function judgedOverPages(check: CheckDefinition, home: Outcome, pageRuns: PageRuns): Promise<CheckResult> {
  const judged = await pageRuns.judge(check, home).catch(() => null)
  return judged
    ? { ...toCheckResult(check.meta, judged.outcome), pages: judged.pages }
    : toCheckResult(check.meta, home)
}

/** Runs the given checks in catalog order, emitting start/complete events; deep checks wait for the `all` phase. */
export async function runChecks(
  checks: readonly CheckDefinition[],
  options: RunnerOptions,
  collection: Collection = new Collection(options),
): Promise<CheckResult[]> {
  return Promise.all(
    checks.map(async (check) => {
      const layerName = LAYER_NAMES.get(check.meta.layer)!
      const base = { layerId: check.meta.layer, layerName, checkId: check.meta.id, checkName: check.meta.name }
      options.onEvent?.({ type: 'check_start', ...base })
      const outcome: Outcome | { status: 'pending'; details: string } = !check.meta.appliesTo.includes(
        options.target.kind,
      )
        ? notApplicable(check, options)
        : // Without a browser nothing later could resolve a deep check: it reports its error now.
          check.meta.deep && options.phase === 'static' && options.browser !== null
          ? { status: 'pending', details: 'Resolved by the background analysis (rendered in a real browser)' }
          : await runCheck(check, collection, options)
      const result =
        options.pageRuns &&
        check.meta.scope === 'page' &&
        outcome.status !== 'pending' &&
        check.meta.appliesTo.includes(options.target.kind)
          ? await judgedOverPages(check, outcome, options.pageRuns)
          : toCheckResult(check.meta, outcome)
      options.onEvent?.({
        type: 'check_complete',
        ...base,
        status: result.status,
        score: result.score,
        maxScore: result.maxScore,
        details: result.details,
        bonus: result.bonus,
        maturity: result.maturity,
      })
      return result
    }),
  )
}
