import type { CliReport } from '../report.ts'

const ICONS: Record<string, string> = { pass: '✅', warning: '⚠️', fail: '❌', error: '💥', na: '➖', pending: '⏳' }

/** Table cells: pipes would split the cell, newlines end the row, and markup from a scanned site stays text. */
function cell(text: string | undefined): string {
  return (text ?? '')
    .replace(/[\\`*_[\]<>|]/g, (char) => `\\${char}`)
    .replace(/\s*\n\s*/g, ' ')
    .trim()
}

/** A report for a pull-request comment: headline, a table per layer, then what to fix. */
export function renderMarkdown(report: CliReport): string {
  const lines: string[] = []
  if (report.partial) {
    lines.push(`## Agent readiness: ${cell(report.domain)} (partial result)`, '')
    lines.push('> Only the checks named by `--only` ran; a partial result has no overall score.', '')
  } else {
    lines.push(`## Agent readiness: ${cell(report.domain)} scores ${report.score}/100 (grade ${report.grade})`, '')
    if (report.analysisStatus !== 'complete') lines.push(`> Analysis is ${report.analysisStatus}: pending ${report.pendingChecks.join(', ')}.`, '')
  }
  if (report.layers.some((layer) => layer.score !== null)) {
    lines.push('| Layer | Score | Passed |', '|---|---:|---:|')
    for (const layer of report.layers) {
      const counted = layer.checks.filter((check) => check.status !== 'na')
      const passed = counted.filter((check) => check.status === 'pass').length
      lines.push(`| ${cell(layer.name)} | ${layer.score}/${layer.maxScore} | ${passed}/${counted.length} |`)
    }
    lines.push('')
  }
  const failing = report.layers.flatMap((layer) =>
    layer.checks.filter((check) => check.status === 'fail' || check.status === 'error' || check.status === 'warning').map((check) => ({ layer, check })),
  )
  if (failing.length > 0) {
    lines.push('### Checks to fix', '', '| | Check | Layer | Gain | Recommendation |', '|---|---|---|---:|---|')
    for (const { layer, check } of failing) {
      const gain = check.estScoreGain ? `+${check.estScoreGain}` : ''
      lines.push(`| ${ICONS[check.status]} | \`${check.id}\` ${cell(check.name)} | ${cell(layer.name)} | ${gain} | ${cell(check.recommendation ?? check.details)} |`)
    }
    lines.push('')
  }
  const passed = report.layers.flatMap((layer) => layer.checks).filter((check) => check.status === 'pass')
  if (passed.length > 0) {
    lines.push('<details><summary>Passing checks</summary>', '', passed.map((check) => `\`${check.id}\``).join(', '), '', '</details>', '')
  }
  if (report.reportUrl) lines.push(`[Full report](${report.reportUrl})`, '')
  return lines.join('\n').trimEnd()
}
