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
  /** A page-level check of a multi-page scan: its passing share is compared too. */
  pages: z
    .object({ checked: z.number(), passed: z.number(), failing: z.array(z.object({ url: z.string() })) })
    .optional(),
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
    throw new UsageError(
      `--baseline ${path}: not a report of \`agent-readiness scan --format json\` (${issue.path.join('.') || 'root'}: ${issue.message})`,
      usage,
    )
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
  /** `pass`, except for a page-level check whose passing share fell while its status did not turn from pass. */
  before: string
  /** Its status now, or `not run` when this run has no such row. */
  after: string
  details?: string
  recommendation?: string
  /** A page-level check whose passing share fell: the shares before and after, and the pages that stopped passing. */
  pages?: { before: string; after: string; stoppedPassing: string[] }
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

type Row = Pick<CliCheck, 'id' | 'name' | 'status' | 'details' | 'recommendation' | 'mcpUrl'> & {
  pages?: { checked: number; passed: number; failing: { url: string }[] }
}

/**
 * A page-level check regresses when its passing share fell by more than the tolerance (read as percentage points of
 * the share), even if its status held: the docs section that lost its alternates is caught, not averaged away.
 */
function pageRegression(before: Row, after: Row | undefined, tolerance: number): Regression['pages'] | null {
  if (!before.pages?.checked || !after?.pages?.checked) return null
  const share = (pages: NonNullable<Row['pages']>) => (100 * pages.passed) / pages.checked
  if (share(before.pages) - share(after.pages) <= tolerance) return null
  const failedBefore = new Set(before.pages.failing.map((page) => page.url))
  return {
    before: `${before.pages.passed} of ${before.pages.checked} pages`,
    after: `${after.pages.passed} of ${after.pages.checked} pages`,
    stoppedPassing: after.pages.failing.map((page) => page.url).filter((url) => !failedBefore.has(url)),
  }
}

/** A check run against several MCP servers has one row per server: each row is compared with its own. */
const keyOf = (row: Row) => (row.mcpUrl ? `${row.id} ${row.mcpUrl}` : row.id)

/** What changed, in a phrase: "pass → fail", and for a page-level check the shares and the pages that stopped passing. */
export function regressionChange(regression: Regression): string {
  const status =
    regression.before === regression.after ? regression.after : `${regression.before} → ${regression.after}`
  if (!regression.pages) return status
  const { before, after, stoppedPassing } = regression.pages
  const named = stoppedPassing.length > 0 ? `; stopped passing: ${stoppedPassing.join(', ')}` : ''
  return `${status}, ${before} → ${after}${named}`
}

/** The label of a regression or a fix: the check id, and its MCP server when it has one. */
export const rowLabel = (row: { id: string; mcpUrl?: string }) => (row.mcpUrl ? `${row.id} (${row.mcpUrl})` : row.id)

/** Compares this run with a baseline, keyed on check ids (and MCP servers). */
export function compareWithBaseline(
  report: CliReport,
  baseline: BaselineReport,
  file: string,
  tolerance: number,
): BaselineComparison {
  const now = new Map(report.layers.flatMap((layer) => layer.checks).map((row) => [keyOf(row), row] as const))
  const then = new Map(baseline.layers.flatMap((layer) => layer.checks).map((row) => [keyOf(row), row] as const))
  const idsNow = new Set([...now.values()].map((row) => row.id))
  const idsThen = new Set([...then.values()].map((row) => row.id))
  const added = [...idsNow].filter((id) => !idsThen.has(id)).sort()
  const removed = [...idsThen].filter((id) => !idsNow.has(id)).sort()
  const changed = baseline.contractVersion === undefined || baseline.contractVersion !== report.contractVersion

  const regressions: Regression[] = []
  for (const [key, before] of then) {
    const after = now.get(key)
    const pages = pageRegression(before, after, tolerance)
    if ((before.status !== 'pass' || after?.status === 'pass') && !pages) continue
    // A check the current catalog no longer has cannot regress: it is listed as removed instead.
    if (!after && removed.includes(before.id)) continue
    regressions.push({
      id: before.id,
      ...(before.mcpUrl ? { mcpUrl: before.mcpUrl } : {}),
      name: after?.name ?? before.name,
      before: before.status,
      after: after?.status ?? 'not run',
      ...(pages ? { pages } : {}),
      ...(after?.details ? { details: after.details } : {}),
      ...((after?.recommendation ?? before.recommendation)
        ? { recommendation: after?.recommendation ?? before.recommendation }
        : {}),
    })
  }
  const fixed = [...now]
    .filter(([key, row]) => row.status === 'pass' && then.has(key) && then.get(key)!.status !== 'pass')
    .map(([, row]) => rowLabel(row))
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
    contract: {
      before: baseline.contractVersion ?? null,
      after: report.contractVersion ?? null,
      changed,
      added,
      removed,
    },
  }
}
