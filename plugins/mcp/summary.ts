import type { z } from 'zod'
import type { auditScoreResult } from '../scan/public.ts'
import { ONE_LINE, type scoreSummary } from './model.ts'

type AuditReport = z.output<typeof auditScoreResult>

/** Fixes listed in a summary: the ranking's head is what an agent acts on first; the report has the rest. */
const SUMMARY_FIXES = 5

/** The first line of a text, cut at ONE_LINE characters. */
export function oneLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim()
  return line.length <= ONE_LINE ? line : `${line.slice(0, ONE_LINE - 1)}…`
}

/** Only bundle results name their server; a single-target report spends no bytes on it. */
const server = (mcpUrl: string | undefined) => (mcpUrl ? { mcpUrl } : {})

/**
 * The compact form of an audit report (scoreSummary): score, grade, analysis status, the top fixes that gain points,
 * every check that costs points (failing, partly met or not measurable) with one line of details, the bonus checks
 * not met by id, and the report's URL.
 */
export function summarize(report: AuditReport): z.input<typeof scoreSummary> {
  const checks = report.layers.flatMap((layer) => layer.checks)
  const notMet = checks.filter(
    (check) => check.status === 'fail' || check.status === 'warning' || check.status === 'error',
  )
  return {
    contractVersion: report.contractVersion,
    domain: report.domain,
    urlKind: report.urlKind,
    score: report.score,
    grade: report.grade,
    analysisStatus: report.analysisStatus,
    scannedAt: report.scannedAt,
    ...(report.pendingChecks?.length ? { pendingChecks: report.pendingChecks } : {}),
    topFixes: report.topFixes
      .filter((fix) => fix.estScoreGain > 0)
      .slice(0, SUMMARY_FIXES)
      .map((fix) => ({
        id: fix.id,
        gain: fix.estScoreGain,
        fix: oneLine(fix.recommendation ?? fix.name),
        ...server(fix.mcpUrl),
      })),
    failing: notMet
      .filter((check) => !check.bonus)
      .map((check) => ({
        id: check.id,
        status: check.status,
        details: oneLine(check.details ?? check.name),
        ...server(check.mcpUrl),
      })),
    bonusNotMet: [...new Set(notMet.filter((check) => check.bonus).map((check) => check.id))],
    reportUrl: report.url,
    ...(report.nextAction ? { nextAction: report.nextAction } : {}),
  }
}
