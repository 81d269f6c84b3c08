import { and, desc, eq, inArray } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { ScanTarget } from '../../core/engine/check.ts'
import { v2Scans } from './tables.ts'

export type V2ScanRow = typeof v2Scans.$inferSelect

/** Rows of the gated v2 entry: created `pending`; the later pipeline stages are not connected yet. */
export class V2ScanService {
  constructor(private readonly deps: Pick<AppDeps, 'database'>) {}

  async inProgress(domain: string): Promise<V2ScanRow | null> {
    const [row] = await this.deps.database.db
      .select()
      .from(v2Scans)
      .where(and(eq(v2Scans.domain, domain), inArray(v2Scans.status, ['pending', 'running'])))
      .orderBy(desc(v2Scans.createdAt))
      .limit(1)
    return row ?? null
  }

  async create(target: ScanTarget, ephemeral: boolean): Promise<V2ScanRow> {
    const [row] = await this.deps.database.db
      .insert(v2Scans)
      .values({ domain: target.domain, url: target.url, urlKind: target.kind, mcpUrl: target.mcpUrl ?? null, ephemeral })
      .returning()
    return row!
  }

  async byId(id: number): Promise<V2ScanRow | null> {
    const [row] = await this.deps.database.db.select().from(v2Scans).where(eq(v2Scans.id, id))
    return row ?? null
  }
}
