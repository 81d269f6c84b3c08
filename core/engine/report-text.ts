import type { ScanReport } from './scan.ts'

const MARKS: Record<string, string> = { pass: 'PASS', warning: 'WARN', fail: 'FAIL', error: 'ERR ', na: 'n/a ', pending: '... ' }

/** A plain-text report for terminals and CI logs. */
export function renderTextReport(report: ScanReport): string {
  const lines = [
    `${report.domain}  ${report.score}/100  grade ${report.grade}  (${report.urlKind}, ${report.analysisStatus}, ${report.durationMs} ms)`,
    report.ctaMessage,
    '',
  ]
  for (const layer of report.layers) {
    lines.push(`${layer.name}  ${layer.score}/${layer.maxScore}`)
    for (const check of layer.checks) {
      if (check.status === 'na' && check.naReason?.startsWith('Applies to')) continue
      lines.push(`  ${MARKS[check.status]} ${check.id.padEnd(30)} ${check.score}/${check.maxScore}  ${check.details}`)
    }
    lines.push('')
  }
  if (report.topFixes.length > 0) {
    lines.push('Top fixes')
    for (const fix of report.topFixes) lines.push(`  +${fix.estScoreGain}  ${fix.id}: ${fix.recommendation ?? fix.name}`)
  }
  return lines.join('\n')
}
