import type { CliReport } from '../report.ts'

const MARKS: Record<string, string> = { pass: 'PASS', warning: 'WARN', fail: 'FAIL', error: 'ERR ', na: 'n/a ', pending: '... ' }

/** A plain-text report for terminals and CI logs. */
export function renderText(report: CliReport): string {
  const duration = report.durationMs === null ? '' : `, ${report.durationMs} ms`
  const headline = report.partial
    ? `${report.domain}  PARTIAL RESULT: only the checks named by --only ran; there is no overall score`
    : `${report.domain}  ${report.score}/100  grade ${report.grade}  (${report.urlKind ?? 'scan'}, ${report.analysisStatus}${duration})`
  const lines = [headline]
  if (report.ctaMessage) lines.push(report.ctaMessage)
  if (report.reportUrl) lines.push(`Report: ${report.reportUrl}`)
  lines.push('')
  for (const layer of report.layers) {
    lines.push(layer.score === null ? layer.name : `${layer.name}  ${layer.score}/${layer.maxScore}`)
    for (const check of layer.checks) {
      // A check that cannot apply to this kind of target is noise in a terminal; the other formats keep it.
      if (check.status === 'na' && check.naReason?.startsWith('Applies to') && !report.partial) continue
      const points = `${check.score}/${check.maxScore}`.padEnd(5)
      lines.push(`  ${MARKS[check.status] ?? check.status} ${check.id.padEnd(30)} ${points}  ${(check.status === 'na' ? check.naReason : undefined) ?? check.details ?? ''}`.trimEnd())
    }
    lines.push('')
  }
  if (report.topFixes.length > 0) {
    lines.push('Top fixes')
    for (const fix of report.topFixes) lines.push(`  +${fix.estScoreGain}  ${fix.id}: ${fix.recommendation ?? fix.name}`)
  }
  return lines.join('\n').trimEnd()
}
