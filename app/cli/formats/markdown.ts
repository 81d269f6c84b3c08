import { buildReportModel, formatGain } from '../../../core/report/index.ts'
import type { CliReport } from '../report.ts'
import { failingPageText, pageLevelChecks, pageShare, sampleSummary } from './pages.ts'
import { type RenderOptions, splitIssues } from './style.ts'

const ICONS: Record<string, string> = { pass: '✅', warning: '⚠️', fail: '❌', error: '💥', na: '➖', pending: '⏳' }

/** Table cells: pipes would split the cell, newlines end the row, and markup from a scanned site stays text. */
function cell(text: string | undefined): string {
  return (text ?? '')
    .replace(/[\\`*_[\]<>|]/g, (char) => `\\${char}`)
    .replace(/\s*\n\s*/g, ' ')
    .trim()
}

/** A check id in code, with its MCP server when it ran against one of several. */
const code = (row: { id: string; mcpUrl?: string }) =>
  row.mcpUrl ? `\`${row.id}\` (${cell(row.mcpUrl)})` : `\`${row.id}\``

/**
 * A pull-request comment that fits on a screen: the score and grade (and the change since the baseline), the
 * gate's verdict, the top fixes with their gains, then every other failing check folded in a <details> block.
 * The order and the gains come from the report model, as on the web report.
 */
export function renderMarkdown(report: CliReport, options: RenderOptions): string {
  const model = buildReportModel(report)
  const { gate } = options
  const lines: string[] = []

  if (model.partial) {
    lines.push(
      `## Agent readiness: ${cell(report.domain)} (partial result)`,
      '',
      '> Only the checks named by `--only` ran; a partial result has no overall score.',
    )
  } else {
    const drop = gate.baseline?.drop
    const delta =
      drop === undefined
        ? ''
        : drop === 0
          ? ' · unchanged since the baseline'
          : ` · ${drop > 0 ? '▼' : '▲'} ${Math.abs(drop)} since the baseline (${gate.baseline!.scoreBefore})`
    lines.push(
      `## Agent readiness: ${cell(report.domain)} scores ${report.score}/100 (grade ${report.grade})${delta}`,
      '',
      cell(model.verdict),
    )
    if (report.analysisStatus !== 'complete')
      lines.push('', `> Analysis is ${report.analysisStatus}: pending ${report.pendingChecks.join(', ')}.`)
  }
  if (gate.active)
    lines.push(
      '',
      `${gate.passed ? '✅' : '❌'} **${cell(gate.summary.split(': ')[0])}**: ${cell(gate.summary.split(': ').slice(1).join(': '))}`,
    )

  const baseline = gate.baseline
  if (baseline?.regressions.length) {
    lines.push('', '### Regressions since the baseline', '', '| Check | Before | After | Fix |', '|---|---|---|---|')
    for (const regression of baseline.regressions) {
      const after = regression.pages ? `${regression.after}, ${regression.pages.after}` : regression.after
      const before = regression.pages ? `${regression.before}, ${regression.pages.before}` : regression.before
      const stopped = regression.pages?.stoppedPassing.length
        ? `Stopped passing: ${regression.pages.stoppedPassing.join(', ')}. `
        : ''
      lines.push(
        `| ${code(regression)} | ${cell(before)} | ${ICONS[regression.after] ?? ''} ${cell(after)} | ${cell(stopped + (regression.recommendation ?? regression.details ?? ''))} |`,
      )
    }
  }
  if (baseline?.contract.changed) {
    const { before, after, added, removed } = baseline.contract
    const churn = [
      added.length > 0 ? `added: ${added.map((id) => `\`${id}\``).join(', ')}` : '',
      removed.length > 0 ? `removed: ${removed.map((id) => `\`${id}\``).join(', ')}` : '',
    ]
    const said = churn.filter(Boolean).join('; ')
    lines.push(
      '',
      `> The baseline came from contract ${cell(before ?? 'unknown')}, this run from ${cell(after ?? 'unknown')}${said ? `. Checks ${said} (not counted as regressions)` : ''}.`,
    )
  }

  if (model.fixes.length > 0) {
    lines.push('', '### Top fixes', '', '| Gain | Check | Fix |', '|---:|---|---|')
    for (const fix of model.fixes) {
      const blocks = fix.check.blocksAgents ? '**Stops agents.** ' : ''
      lines.push(
        `| +${formatGain(fix.gain)} | ${code(fix.check)} | ${blocks}${cell(fix.check.recommendation ?? fix.check.details ?? fix.check.name)} |`,
      )
    }
  }
  if (model.issues.length > 0) {
    // What lowers the score first (by impact, as the model orders it), then the extras and what could not run.
    const { lowering, unscored } = splitIssues(report, model)
    const title = model.partial
      ? `${model.issues.length} checks did not pass`
      : `${model.issues.length} more checks not passing (${lowering.length} lower the score)`
    lines.push('', `<details><summary>${title}</summary>`, '', '| | Check | Details |', '|---|---|---|')
    for (const { check, kind } of [
      ...lowering.map((check) => ({ check, kind: check.blocksAgents ? 'stops agents' : '' })),
      ...unscored,
    ]) {
      lines.push(
        `| ${ICONS[check.status] ?? ''} | ${code(check)}${kind ? ` (${kind})` : ''} | ${cell(check.details ?? check.recommendation ?? check.name)} |`,
      )
    }
    lines.push('', '</details>')
  }
  const summary = sampleSummary(report)
  if (summary) {
    lines.push('', '### Pages', '', cell(summary), '')
    for (const check of pageLevelChecks(report)) {
      lines.push(`- ${ICONS[check.status] ?? ''} ${code(check)}: ${pageShare(check.pages)}`)
      for (const page of check.pages.failing) lines.push(`  - ${cell(failingPageText(page))}`)
    }
    lines.push(
      '',
      `<details><summary>The ${report.pages!.length} sampled pages</summary>`,
      '',
      '| Page | Found in | HTTP |',
      '|---|---|---:|',
    )
    for (const page of report.pages!) lines.push(`| ${cell(page.url)} | ${page.source} | ${page.httpStatus ?? '—'} |`)
    lines.push('', '</details>')
  }
  const folded = [
    `${model.passed.length} passed`,
    model.counts.notApplicable > 0 ? `${model.counts.notApplicable} not applicable` : '',
  ]
  const link = report.reportUrl ? ` · [Full report](${report.reportUrl})` : ''
  const authenticated = report.authenticated
    ? ` · authenticated: yes (headers: ${report.authenticated.headers.join(', ')})`
    : ''
  lines.push('', `${folded.filter(Boolean).join(' · ')}${link}${authenticated}`)
  return lines.join('\n')
}
