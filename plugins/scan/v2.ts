import { and, desc, eq, inArray } from 'drizzle-orm'
import type { Kernel } from '../../core/kernel.ts'
import type { ScanTarget } from '../../core/engine/check.ts'
import { resolveTarget } from '../../core/engine/scan.ts'
import { ScanError } from '../../core/engine/scan-error.ts'
import { requestTarget } from '../../core/engine/target.ts'
import { AppError } from '../../core/errors.ts'
import { SCAN_ERRORS } from './errors.ts'
import { parseRowId } from '../../core/ids.ts'
import type { Caller } from '../../core/limits.ts'
import { ScanSession } from '../../core/outbound/session.ts'
import { SCAN_ERROR_CODES, scanErrorToAppError } from '../../core/request/scan-error-response.ts'
import { checkScanBudget, spendScanBudget } from './service.ts'
import { v2Scans } from './tables.ts'
import type { ScanConfig } from './config.ts'

export type V2ScanRow = typeof v2Scans.$inferSelect

/**
 * The v2 entry's answer to a target it cannot scan: an invalid one as every scan route answers it; one it cannot
 * reach or classify (unreachable, private, an MCP server that fails or wants credentials) is its own 422
 * TARGET_UNREACHABLE, the plain code in `details.reason`.
 */
export function scanErrorToV2AppError(error: ScanError): AppError {
  if (error.reason === 'invalid-target') return scanErrorToAppError(error)
  return new AppError(SCAN_ERRORS.TARGET_UNREACHABLE, {
    message: error.message,
    details: { reason: SCAN_ERROR_CODES[error.reason] },
    cause: error,
  })
}

export interface V2ScanRequest {
  url: string
  mcpUrl?: string
  ephemeral?: boolean
}

/** Rows of the gated v2 entry: created `pending`; the later pipeline stages are not connected yet. */
export class V2ScanService {
  constructor(private readonly deps: Pick<Kernel, 'database' | 'outbound' | 'store'> & { config: ScanConfig }) {}

  /**
   * POST /api/v2/scan: validates, probes and classifies the target (spending nothing when it cannot be scanned),
   * then answers the domain's in-progress row, or spends one unit of the daily scan budget and inserts a `pending`
   * row. An unreachable or auth-required target is the v2 entry's own TARGET_UNREACHABLE (scanErrorToV2AppError).
   */
  async start(request: V2ScanRequest, caller: Caller): Promise<{ row: V2ScanRow; created: boolean }> {
    if (!this.deps.config.v2ScanEnabled)
      throw new AppError(SCAN_ERRORS.V2_SCAN_DISABLED, {
        message: 'POST /api/v2/scan is disabled in this deployment (V2_SCAN_ENABLED)',
      })
    const requested = requestTarget(request.url, { mcpUrl: request.mcpUrl?.trim() || undefined })
    const { domain } = requested.input
    await checkScanBudget(this.deps.store, caller, false)
    const session = new ScanSession(this.deps.outbound, this.deps.config)
    const target = await resolveTarget(requested, session).catch((error: unknown) => {
      throw error instanceof ScanError ? scanErrorToV2AppError(error) : error
    })
    const existing = await this.inProgress(domain)
    if (existing) return { row: existing, created: false }
    await spendScanBudget(this.deps.store, caller, false)
    return { row: await this.create(target, Boolean(request.ephemeral)), created: true }
  }

  /** GET /api/v2/scan/{id}: the row, or 404 for an id that is malformed or names none. */
  async poll(rawId: string): Promise<V2ScanRow> {
    if (!this.deps.config.v2ScanEnabled) throw new AppError(SCAN_ERRORS.V2_SCAN_DISABLED)
    const id = parseRowId(rawId)
    const row = id === null ? null : await this.byId(id)
    if (!row) throw new AppError('NOT_FOUND', { message: `No v2 scan ${rawId}` })
    return row
  }

  private async inProgress(domain: string): Promise<V2ScanRow | null> {
    const [row] = await this.deps.database.db
      .select()
      .from(v2Scans)
      .where(and(eq(v2Scans.domain, domain), inArray(v2Scans.status, ['pending', 'running'])))
      .orderBy(desc(v2Scans.createdAt))
      .limit(1)
    return row ?? null
  }

  private async create(target: ScanTarget, ephemeral: boolean): Promise<V2ScanRow> {
    const [row] = await this.deps.database.db
      .insert(v2Scans)
      .values({
        domain: target.domain,
        url: target.url,
        urlKind: target.kind,
        mcpUrl: target.mcpUrl ?? null,
        ephemeral,
      })
      .returning()
    return row!
  }

  private async byId(id: number): Promise<V2ScanRow | null> {
    const [row] = await this.deps.database.db.select().from(v2Scans).where(eq(v2Scans.id, id))
    return row ?? null
  }
}
