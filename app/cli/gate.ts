import {
  type BaselineComparison,
  type BaselineReport,
  compareWithBaseline,
  regressionChange,
  rowLabel,
} from './baseline.ts'
import type { CliReport } from './report.ts'
import { UsageError } from './usage.ts'

/**
 * The gate a run is held to: each option that can fail a build (`--min-score`, every `--checks` / `--only` id,
 * the baseline's score and each check that regressed since it) is one assertion. The exit code, the final line
 * of the text report and the gate's test cases in JUnit all read this one list, so they cannot disagree.
 */

export interface Assertion {
  /** Short and stable: the test case name in JUnit (`min-score 70`, `check llms-txt`, `regression llms-txt`). */
  name: string
  passed: boolean
  /** One line: what was asserted and what was found. */
  message: string
  /** What to do about a failure: the check's details and fix, one per line. */
  detail?: string
  /** The check id it asserts on (a `--checks` id, or a regression's check), so the check's own case can say so. */
  check?: string
}

export interface Gate {
  /** False when no gate option was given: the run reports and always exits 0. */
  active: boolean
  passed: boolean
  assertions: Assertion[]
  baseline?: BaselineComparison
  /** The final line: whether the gate passed, and why. */
  summary: string
}

export interface GateOptions {
  minScore?: number
  checks?: string[]
  only?: string[]
  baseline?: { report: BaselineReport; file: string; tolerance: number }
}

const joinLines = (...lines: (string | undefined)[]) => lines.filter(Boolean).join('\n') || undefined

/** The failed assertions in a line: regressions are named together, however many there are. */
function failureReasons(failed: Assertion[], baseline: BaselineComparison | undefined): string[] {
  const reasons = failed
    .filter((assertion) => !assertion.name.startsWith('regression '))
    .map((assertion) => assertion.message)
  const regressed = baseline?.regressions.map(rowLabel) ?? []
  if (regressed.length === 1) reasons.push(`${regressed[0]} no longer passes`)
  if (regressed.length > 1) reasons.push(`${regressed.length} checks no longer pass (${regressed.join(', ')})`)
  return reasons
}

export function evaluateGate(report: CliReport, options: GateOptions, usage: string): Gate {
  const assertions: Assertion[] = []
  if (options.minScore !== undefined && report.score !== null) {
    const passed = report.score >= options.minScore
    assertions.push({
      name: `min-score ${options.minScore}`,
      passed,
      message: `score ${report.score} ${passed ? 'meets' : 'is below'} --min-score ${options.minScore}`,
    })
  }

  const rows = report.layers.flatMap((layer) => layer.checks)
  const gated = options.only ?? options.checks ?? []
  const missing = gated.filter((id) => !rows.some((row) => row.id === id))
  if (missing.length > 0) throw new UsageError(`unknown check ids: ${missing.join(', ')} (see GET /api/checks)`, usage)
  for (const id of gated) {
    // A check run against several MCP servers passes only when it passed on each of them.
    const mine = rows.filter((row) => row.id === id)
    const failing = mine.filter((row) => row.status !== 'pass')
    const first = failing[0]
    assertions.push({
      name: `check ${id}`,
      check: id,
      passed: failing.length === 0,
      message: first ? `${id} did not pass (${failing.map((row) => row.status).join(', ')})` : `${id} passes`,
      detail:
        first &&
        joinLines(
          ...failing.map((row) => row.details && `${rowLabel(row)}: ${row.details}`),
          first.recommendation && `Fix: ${first.recommendation}`,
        ),
    })
  }

  let baseline: BaselineComparison | undefined
  if (options.baseline) {
    baseline = compareWithBaseline(report, options.baseline.report, options.baseline.file, options.baseline.tolerance)
    const { scoreBefore, scoreAfter, drop, tolerance } = baseline
    assertions.push({
      name: 'baseline score',
      passed: !baseline.scoreRegressed,
      message: baseline.scoreRegressed
        ? `score fell ${drop} point${drop === 1 ? '' : 's'} since the baseline (${scoreBefore} → ${scoreAfter}, --tolerance ${tolerance})`
        : drop === 0
          ? `score ${scoreAfter} as in the baseline`
          : drop < 0
            ? `score ${scoreAfter}, up from ${scoreBefore} in the baseline`
            : `score ${scoreAfter}, down ${drop} from ${scoreBefore} in the baseline (within --tolerance ${tolerance})`,
    })
    for (const regression of baseline.regressions) {
      assertions.push({
        name: `regression ${rowLabel(regression)}`,
        check: regression.id,
        passed: false,
        message: regression.pages
          ? `${rowLabel(regression)} passes on fewer pages than in the baseline: ${regressionChange(regression)}`
          : `${rowLabel(regression)} passed in the baseline and is ${regression.after} now`,
        detail: joinLines(regression.details, regression.recommendation && `Fix: ${regression.recommendation}`),
      })
    }
    if (baseline.regressions.length === 0) {
      assertions.push({
        name: 'baseline checks',
        passed: true,
        message: 'no regression: every check that passed in the baseline passes',
      })
    }
  }

  const active = assertions.length > 0
  const failed = assertions.filter((assertion) => !assertion.passed)
  const summary = !active
    ? 'No gate: --min-score, --checks or --baseline would fail a build on this result.'
    : failed.length === 0
      ? `Gate passed: ${assertions.map((assertion) => assertion.message).join('; ')}.`
      : `Gate failed: ${failureReasons(failed, baseline).join('; ')}.`
  return { active, passed: failed.length === 0, assertions, ...(baseline ? { baseline } : {}), summary }
}
