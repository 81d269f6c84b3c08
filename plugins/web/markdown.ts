import { buildReportModel, formatGain, type ReportCheck, requiredCheckFails } from '../../core/report/index.ts'
import { reportDescription } from './pages/report.tsx'
import { pagesMarkdown } from './pages/report-pages.tsx'
import { type ReportView, splitExtras } from './service.ts'

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

/** A fenced block; the fence is longer than any backtick run inside, so the code cannot close it. */
function fenced(code: string, language: string): string[] {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((run) => run[0].length))
  const fence = '`'.repeat(longest + 1)
  return [`${fence}${language}`, code, fence]
}

const checkLine = (check: ReportCheck) =>
  `| ${text(check.name)} (\`${check.id}\`)${requiredCheckFails(check) ? ' **required**' : ''} | ${check.status} | ${check.score}/${check.maxScore} | ${check.gain > 0 ? `+${formatGain(check.gain)}` : ''} | ${text(check.details ?? check.recommendation)} |`

/**
 * The Markdown alternate of a report page (`/site/{domain}.md`, or `Accept: text/markdown`): the same fix-first
 * model as the page (core/report), so an agent reads the fixes, with their snippets, before anything else.
 */
export function reportMarkdown(view: ReportView, baseUrl: string): string {
  const { report } = view
  const model = buildReportModel(report)
  const lines = [
    `# Agent-readiness report: ${text(report.domain)}`,
    '',
    `> ${text(model.verdict)}`,
    '',
    `- Score: ${report.score}/100`,
    `- Grade: ${text(report.grade)}`,
    `- Scanned: ${report.scannedAt}`,
    `- Analysis: ${view.analysisStatus}`,
    `- Report: ${baseUrl}${view.path}`,
    `- Summary: ${text(reportDescription(view))}`,
    '',
    '## Top fixes',
    '',
  ]
  if (model.fixes.length === 0) lines.push('Nothing to fix: every counted check passes.')
  for (const fix of model.fixes) {
    const { check } = fix
    lines.push(
      `### ${fix.rank}. ${text(check.name)} (+${formatGain(fix.gain)} points)${requiredCheckFails(check) ? ' (required)' : ''}`,
      '',
    )
    lines.push(
      `Check \`${check.id}\`, ${check.status}, ${check.score}/${check.maxScore}.${check.details ? ` ${text(check.details)}` : ''}`,
      '',
    )
    if (check.recommendation) lines.push(`Fix: ${text(check.recommendation)}`, '')
    if (fix.remedy) {
      lines.push(
        `${text(fix.remedy.snippet.label)}:`,
        '',
        ...fenced(fix.remedy.snippet.code, fix.remedy.snippet.language),
        '',
      )
      for (const recipe of fix.remedy.recipes)
        lines.push(`On ${recipe.server}:`, '', ...fenced(recipe.code, recipe.language), '')
    }
  }
  lines.push(
    '## Layers',
    '',
    '| Layer | Score |',
    '| --- | --- |',
    ...model.layers.map((layer) => `| ${text(layer.name)} | ${layer.label} |`),
    '',
  )
  if (model.layerNote) lines.push(model.layerNote, '')
  const { counted, extras } = splitExtras(model.issues, view.extras)
  if (counted.length > 0) {
    lines.push(
      `## Also failing or warning (${counted.length}), by impact`,
      '',
      '| Check | Status | Points | Gain | Details |',
      '| --- | --- | ---: | ---: | --- |',
    )
    lines.push(...counted.map(checkLine), '')
  }
  if (extras.length > 0) {
    lines.push(
      `## Extras not met (${extras.length}): they never lower the score`,
      '',
      ...extras.map((check) => `- ${text(check.name)} (\`${check.id}\`)`),
      '',
    )
  }
  lines.push(...pagesMarkdown(report, text))
  if (model.pending.length > 0)
    lines.push(
      `## Still running (${model.pending.length})`,
      '',
      ...model.pending.map((check) => `- ${text(check.name)} (\`${check.id}\`)`),
      '',
    )
  lines.push(
    `## Passed (${model.passed.length})`,
    '',
    ...model.passed.map((check) => `- ${text(check.name)} (\`${check.id}\`) ${check.score}/${check.maxScore}`),
    '',
  )
  lines.push(`## Not applicable (${model.counts.notApplicable})`, '')
  for (const group of model.notApplicable) {
    lines.push(`- ${text(group.reason)}: ${group.checks.map((check) => `\`${check.id}\``).join(', ')}`)
  }
  return `${lines.join('\n').trimEnd()}\n`
}
