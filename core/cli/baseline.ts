import { z } from 'zod'
import type { CliCheck, CliReport } from './report.ts'
import { UsageError } from './usage.ts'

/**
 * The regression gate's memory: a report saved by an earlier run (`--format json` or `--save-baseline`), compared
 * with this run check by check. Only what the comparison reads is required, so a baseline written by an older
 * version of the CLI still loads; anything else in the file is ignored.
 */
const baselineCheck = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  details: z.string().optional(),
  recommendation: z.string().optional(),
  mcpUrl: z.string().optional(),
})

const baselineSchema = z.object({
  domain: z.string(),
  score: z.number().nullable(),
  grade: z.string().nullable(),
  partial: z.boolean().optional(),
  scannedAt: z.string().nullable().optional(),
  contractVersion: z.string().optional(),
  layers: z.array(z.object({ id: z.string(), checks: z.array(baselineCheck) })),
})

export type BaselineReport = z.infer<typeof baselineSchema> & { score: number; grade: string }

/** Reads and validates a baseline file; a file that is missing, unreadable or not our report is a usage error. */
export async function readBaseline(path: string, usage: string): Promise<BaselineReport> {
  const file = Bun.file(path)
  if (!(await file.exists())) throw new UsageError(`--baseline ${path}: no such file`, usage)
  let parsed: z.ZodSafeParseResult<z.infer<typeof baselineSchema>>
  try {
    parsed = baselineSchema.safeParse(JSON.parse(await file.text()))
  } catch (error) {
    throw new UsageError(`--baseline ${path}: not JSON (${(error as Error).message})`, usage)
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new UsageError(`--baseline ${path}: not a report of \`agent-readiness scan --format json\` (${issue.path.join('.') || 'root'}: ${issue.message})`, usage)
  }
  const { data } = parsed
  if (data.score === null || data.grade === null || data.partial) {
    throw new UsageError(`--baseline ${path} is a partial result (--only): it has no score to compare with`, usage)
  }
  return { ...data, score: data.score, grade: data.grade }
}

/** A check that passed in the baseline and does not pass now. */
export interface Regression {
  /** The check id, and the MCP server when the check ran against one of several. */
  id: string
  mcpUrl?: string
  name: string
  /** Always `pass`: only a check that passed can regress. */
  before: string
  /** Its status now, or `not run` when this run has no such row. */
  after: string
  details?: string
  recommendation?: string
}

export interface BaselineComparison {
  file: string
  domain: string
  scannedAt: string | null
  scoreBefore: number
  scoreAfter: number
  /** Points lost (negative when the score rose). */
  drop: number
  tolerance: number
  scoreRegressed: boolean
  regressions: Regression[]
  /** Checks that did not pass in the baseline and pass now. */
  fixed: string[]
  contract: {
    before: string | null
    after: string | null
    /** True when the two runs used different catalogs (or the baseline does not say which). */
    changed: boolean
    /** Check ids this run has and the baseline does not, and the reverse; never counted as regressions. */
    added: string[]
    removed: string[]
  }
}

type Row = Pick<CliCheck, 'id' | 'name' | 'status' | 'details' | 'recommendation' | 'mcpUrl'>

/** A check run against several MCP servers has one row per server: each row is compared with its own. */
const keyOf = (row: Row) => (row.mcpUrl ? `${row.id} ${row.mcpUrl}` : row.id)

/** The label of a regression or a fix: the check id, and its MCP server when it has one. */
export const rowLabel = (row: { id: string; mcpUrl?: string }) => (row.mcpUrl ? `${row.id} (${row.mcpUrl})` : row.id)

/** Compares this run with a baseline, keyed on check ids (and MCP servers). */
export function compareWithBaseline(report: CliReport, baseline: BaselineReport, file: string, tolerance: number): BaselineComparison {
  const now = new Map(report.layers.flatMap((layer) => layer.checks).map((row) => [keyOf(row), row] as const))
  const then = new Map(baseline.layers.flatMap((layer) => layer.checks).map((row) => [keyOf(row), row] as const))
  const idsNow = new Set([...now.values()].map((row) => row.id))
  const idsThen = new Set([...then.values()].map((row) => row.id))
  const added = [...idsNow].filter((id) => !idsThen.has(id)).sort()
  const removed = [...idsThen].filter((id) => !idsNow.has(id)).sort()
  const changed = baseline.contractVersion === undefined || baseline.contractVersion !== report.contractVersion

  const regressions: Regression[] = []
  for (const [key, before] of then) {
    if (before.status !== 'pass') continue
    const after = now.get(key)
    if (after?.status === 'pass') continue
    // A check the current catalog no longer has cannot regress: it is listed as removed instead.
    if (!after && removed.includes(before.id)) continue
    regressions.push({
      id: before.id,
      ...(before.mcpUrl ? { mcpUrl: before.mcpUrl } : {}),
      name: after?.name ?? before.name,
      before: 'pass',
      after: after?.status ?? 'not run',
      ...(after?.details ? { details: after.details } : {}),
      ...((after?.recommendation ?? before.recommendation) ? { recommendation: after?.recommendation ?? before.recommendation } : {}),
    })
  }
  const fixed = [...now].filter(([key, row]) => row.status === 'pass' && then.has(key) && then.get(key)!.status !== 'pass').map(([, row]) => rowLabel(row))
  const scoreAfter = report.score ?? 0
  const drop = baseline.score - scoreAfter
  return {
    file,
    domain: baseline.domain,
    scannedAt: baseline.scannedAt ?? null,
    scoreBefore: baseline.score,
    scoreAfter,
    drop,
    tolerance,
    scoreRegressed: drop > tolerance,
    regressions,
    fixed,
    contract: { before: baseline.contractVersion ?? null, after: report.contractVersion ?? null, changed, added, removed },
  }
}
