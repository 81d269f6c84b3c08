import type { Logger } from './log.ts'

/** Without a failure for this long, the outage is over: the next failure is a new outage and is logged again. */
const QUIET_MS = 60_000

/**
 * One dependency's outages, logged when they start and when they end rather than once per failed request: a
 * database that is down for a minute under load would otherwise write thousands of identical error lines.
 */
export class Outage {
  private since: number | null = null
  private lastFailure = 0
  private failures = 0

  constructor(
    private readonly log: Logger,
    private readonly dependency: string,
  ) {}

  /** Records a failure; only the first of an outage is logged, with its error. */
  failed(error: unknown, now: number = Date.now()): void {
    if (this.since === null || now - this.lastFailure > QUIET_MS) {
      this.since = now
      this.failures = 0
      this.log.error({ err: error, dependency: this.dependency }, `${this.dependency} unavailable`)
    }
    this.failures++
    this.lastFailure = now
  }

  /** Records a success; ends an outage under way with one line saying how long it lasted. */
  succeeded(now: number = Date.now()): void {
    if (this.since === null) return
    this.log.warn(
      { dependency: this.dependency, failures: this.failures, ms: now - this.since },
      `${this.dependency} available again`,
    )
    this.since = null
  }

  /** Whether a failure was seen within `ms`: optional work against the dependency may skip it meanwhile. */
  failedWithin(ms: number, now: number = Date.now()): boolean {
    return this.since !== null && now - this.lastFailure < ms
  }
}

const databaseOutages = new WeakMap<object, Outage>()

/** The database outage tracker of one app (one per `deps`), shared by every plugin that reports to it. */
export function databaseOutage(deps: { log: Logger }): Outage {
  let outage = databaseOutages.get(deps)
  if (!outage) {
    outage = new Outage(deps.log, 'database')
    databaseOutages.set(deps, outage)
  }
  return outage
}
