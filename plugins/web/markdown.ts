import { reportPath } from '../scan/shapes.ts'
import { reportDescription } from './pages/report.tsx'
import type { ReportView } from './service.ts'

/**
 * Text from a scanned site stays inert wherever the Markdown is rendered: angle brackets become entities (no raw
 * HTML), and the characters that would end a table cell or start a link are escaped.
 */
function text(value: string | undefined): string {
  return (value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/([\\`*_[\]|])/g, '\\$1')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The Markdown alternate of a report page (`/site/{domain}.md`, or `Accept: text/markdown`). */
export function reportMarkdown(view: ReportView, baseUrl: string): string {
  const { report } = view
  const lines = [
    `# Agent-readiness report: ${text(report.domain)}`,
    '',
    `> ${text(reportDescription(view))}`,
    '',
    `- Score: ${report.score}/100`,
    `- Grade: ${text(report.grade)}`,
    `- Scanned: ${report.scannedAt}`,
    `- Analysis: ${view.analysisStatus}`,
    `- Report: ${baseUrl}${reportPath(report.domain)}`,
    '',
    '## Layers',
    '',
    '| Layer | Score | Max |',
    '| --- | ---: | ---: |',
    ...report.layers.map((layer) => `| ${text(layer.name)} | ${layer.score} | ${layer.maxScore} |`),
    '',
    '## Top fixes',
    '',
    ...(report.topFixes.length === 0
      ? ['Nothing to fix.']
      : report.topFixes.map((fix, index) => `${index + 1}. **${text(fix.name)}** (+${fix.estScoreGain} points)${fix.recommendation ? `: ${text(fix.recommendation)}` : ''}`)),
    '',
    '## Checks',
  ]
  for (const layer of report.layers) {
    lines.push('', `### ${text(layer.name)}`, '', '| Check | Status | Score | Details |', '| --- | --- | ---: | --- |')
    for (const check of layer.checks) {
      lines.push(`| ${text(check.name)} (\`${check.id}\`) | ${check.status} | ${check.score}/${check.maxScore} | ${text(check.details)} |`)
    }
  }
  return `${lines.join('\n')}\n`
}
