import { buildReportModel, formatGain, type ReportCheck } from '../../../core/report/index.ts'
import { regressionChange, rowLabel } from '../baseline.ts'
import { type CliCheck, type CliReport, countsAgainst } from '../report.ts'
import { failingPageText, pageLevelChecks, pageShare, sampleSummary } from './pages.ts'
import { columns, painter, type Paint, type RenderOptions, splitIssues, type Tone, WIDTH, wrap } from './style.ts'

const MARKS: Record<string, [string, Tone]> = {
  pass: ['PASS', 'green'],
  warning: ['WARN', 'yellow'],
  fail: ['FAIL', 'red'],
  error: ['ERR ', 'magenta'],
  na: ['n/a ', 'dim'],
  pending: ['... ', 'dim'],
}

const GRADE_TONES: Record<string, Tone> = { 'A+': 'green', A: 'green', B: 'green', C: 'yellow', D: 'yellow', F: 'red' }

/** A list of ids folded into lines that fit, after a label. */
function idLines(label: string, ids: string[]): string[] {
  return wrap(ids.join(', '), { first: label, indent: ' '.repeat(Math.min(columns(label), 4)) })
}

/**
 * The gate's part of a report: what changed since the baseline (each regression with its status before and
 * after and its fix, a catalog change said plainly), then one final line saying whether the gate passed and why.
 * The text format ends with it; with another format it goes to stderr.
 */
export function renderGate(gate: RenderOptions['gate'], options: RenderOptions): string[] {
  const paint = painter(options.color)
  const lines: string[] = []
  const baseline = gate.baseline
  if (baseline) {
    const when = baseline.scannedAt ? `, scanned ${baseline.scannedAt.slice(0, 10)}` : ''
    lines.push(
      ...wrap(`${baseline.file} (${baseline.domain}${when}, score ${baseline.scoreBefore})`, {
        first: paint('bold', 'Baseline: '),
        indent: '  ',
      }),
    )
    const { contract } = baseline
    if (contract.changed) {
      const versions = contract.before
        ? `The baseline came from contract ${contract.before}; this run uses contract ${contract.after ?? 'unknown'}.`
        : `The baseline does not name its contract version; this run uses contract ${contract.after ?? 'unknown'}.`
      const churn =
        contract.added.length + contract.removed.length === 0
          ? ' The same checks ran in both.'
          : ' Checks added or removed are listed, never counted as regressions.'
      lines.push(...wrap(versions + churn, { first: '  ', indent: '  ' }))
      if (contract.added.length > 0) lines.push(...idLines('  Added since: ', contract.added))
      if (contract.removed.length > 0) lines.push(...idLines('  Removed since: ', contract.removed))
    }
    if (baseline.regressions.length === 0)
      lines.push(`  ${paint('green', 'No regression')}: every check that passed in the baseline passes.`)
    if (baseline.regressions.length > 0) {
      lines.push(paint('bold', `Regressions since the baseline (${baseline.regressions.length})`))
      for (const regression of baseline.regressions) {
        const label = rowLabel(regression)
        const [mark, tone] = MARKS[regression.after] ?? ['GONE', 'red']
        lines.push(
          ...wrap(regression.details ?? regression.name, {
            first: `  ${paint(tone, mark)} ${label}  ${regressionChange(regression)}: `,
            indent: '       ',
            maxLines: 2,
          }),
        )
        if (regression.recommendation)
          lines.push(...wrap(regression.recommendation, { first: '       Fix: ', indent: '       ', maxLines: 2 }))
      }
    }
    if (baseline.fixed.length > 0) lines.push(...idLines(paint('green', 'Fixed since the baseline: '), baseline.fixed))
  }
  const tone: Tone = !gate.active ? 'dim' : gate.passed ? 'green' : 'red'
  const [verdict, ...reason] = gate.summary.split(': ')
  lines.push(...wrap(reason.join(': '), { first: `${paint(tone, paint('bold', `${verdict}:`))} `, indent: '  ' }))
  return lines
}

/** A check row: its mark, its id and up to `maxLines` lines of text, within the width. */
function checkRow(
  paint: Paint,
  check: ReportCheck,
  idWidth: number,
  text: string,
  tag?: string,
  maxLines = 2,
): string[] {
  const [mark, tone] = MARKS[check.status] ?? [check.status, 'dim']
  const label = rowLabel(check)
  const id = label.length <= idWidth ? label.padEnd(idWidth) : label
  return wrap(tag ? `${tag}: ${text}` : text, {
    first: `  ${paint(tone, mark)} ${id}  `,
    indent: ' '.repeat(Math.min(idWidth + 9, 40)),
    maxLines,
  })
}

/** A multi-page scan's page-level checks ("18 of 25 pages", the failing pages with their fix) and its sample. */
function pagesSection(report: CliReport, paint: Paint): string[] {
  const summary = sampleSummary(report)
  if (!summary) return []
  const lines = ['', paint('bold', 'Pages'), ...wrap(summary, { first: '  ', indent: '  ' })]
  for (const check of pageLevelChecks(report)) {
    const [mark, tone] = MARKS[check.status] ?? [check.status, 'dim']
    lines.push(`  ${paint(tone, mark)} ${check.id}  ${pageShare(check.pages)}`)
    // A terminal gets the first few, one line each; the Markdown and JSON formats list up to ten.
    for (const page of check.pages.failing.slice(0, 3))
      lines.push(...wrap(failingPageText(page), { first: '       - ', indent: '         ', maxLines: 1 }))
    const more = check.pages.checked - check.pages.passed - Math.min(3, check.pages.failing.length)
    if (more > 0) lines.push(paint('dim', `       and ${more} more pages not passing`))
  }
  for (const page of report.pages!)
    lines.push(paint('dim', `  ${String(page.httpStatus ?? '---')} ${page.source.padEnd(7)} ${page.url}`))
  return lines
}

/**
 * The text report for terminals and CI logs: the verdict, the top fixes with their gains, what lowers the score
 * by impact, the extras not met, then the layers and a folded count of what passed; the gate's line closes it.
 * Every line fits WIDTH columns; colour only when asked for.
 */
export function renderText(report: CliReport, options: RenderOptions): string {
  const paint = painter(options.color)
  const model = buildReportModel(report)
  const lines: string[] = []

  if (model.partial) {
    lines.push(paint('bold', report.domain))
    lines.push(
      ...wrap('only the checks named by --only ran; there is no overall score', {
        first: `${paint('bold', 'PARTIAL RESULT')}: `,
        indent: '  ',
      }),
    )
  } else {
    const grade = paint(GRADE_TONES[report.grade!] ?? 'bold', `grade ${report.grade}`)
    lines.push(`${paint('bold', report.domain)}  ${paint('bold', `${report.score}/100`)}  ${grade}`)
    const facts = [
      `${report.urlKind ?? 'scan'} scan`,
      report.analysisStatus,
      report.durationMs === null ? '' : `${report.durationMs} ms`,
      report.contractVersion ? `contract ${report.contractVersion}` : '',
    ]
    lines.push(paint('dim', facts.filter(Boolean).join(' · ')))
    lines.push(...wrap(model.verdict, { first: '', indent: '' }))
  }
  if (report.reportUrl) lines.push(...wrap(report.reportUrl, { first: 'Report: ', indent: '  ' }))
  if (report.authenticated)
    lines.push(paint('dim', `authenticated: yes (headers: ${report.authenticated.headers.join(', ')})`))

  const shown = [...model.fixes.map((fix) => fix.check), ...model.issues]
  const idWidth = Math.min(30, Math.max(0, ...shown.map((check) => rowLabel(check).length)))
  if (model.fixes.length > 0) {
    lines.push('', paint('bold', 'Top fixes'))
    for (const fix of model.fixes) {
      const gain = paint('green', `+${formatGain(fix.gain)}`.padStart(5))
      const id = rowLabel(fix.check)
      const text = `${fix.check.blocksAgents ? 'stops agents: ' : ''}${fix.check.recommendation ?? fix.check.details ?? fix.check.name}`
      lines.push(
        ...wrap(text, {
          first: `  ${gain}  ${id.length <= idWidth ? id.padEnd(idWidth) : id}  `,
          indent: ' '.repeat(Math.min(idWidth + 11, 42)),
          maxLines: 2,
        }),
      )
    }
  }
  const { lowering, unscored } = splitIssues(report, model)
  if (lowering.length > 0) {
    lines.push('', paint('bold', model.partial ? 'Not passing' : 'Also lowering the score'))
    for (const check of lowering)
      lines.push(
        ...checkRow(
          paint,
          check,
          idWidth,
          check.details ?? check.recommendation ?? check.name,
          check.blocksAgents ? 'stops agents' : undefined,
        ),
      )
  }
  if (unscored.length > 0) {
    lines.push(
      '',
      `${paint('bold', 'Not scored')} ${paint('dim', '(extras not met, and checks that could not run: never lower the score)')}`,
    )
    // One line each: they are context, not work the score asks for.
    for (const { check, kind } of unscored)
      lines.push(...checkRow(paint, check, idWidth, check.details ?? check.recommendation ?? check.name, kind, 1))
  }

  lines.push(...pagesSection(report, paint))

  if (!model.partial) {
    lines.push('', paint('bold', 'Layers'))
    const nameWidth = Math.max(...model.layers.map((layer) => layer.name.length))
    const labelWidth = Math.max(...model.layers.map((layer) => layer.label.length))
    for (const [index, layer] of model.layers.entries()) {
      const checks = report.layers[index]!.checks
      const failing = (check: CliCheck) => check.status === 'fail' || check.status === 'warning'
      const counts = [
        [checks.filter((check) => failing(check) && countsAgainst(check)).length, 'to fix', 'red'],
        [
          checks.filter((check) => (failing(check) && !countsAgainst(check)) || check.status === 'error').length,
          'not scored',
          'yellow',
        ],
        [layer.counts.passed, 'passed', 'green'],
        [layer.counts.notApplicable, 'n/a', 'dim'],
      ] as const
      const said = counts.filter(([count]) => count > 0).map(([count, label, tone]) => paint(tone, `${count} ${label}`))
      lines.push(
        `  ${layer.name.padEnd(nameWidth)}  ${layer.label.padStart(labelWidth)}   ${said.join(' · ')}`.trimEnd(),
      )
    }
  }
  const folded = [
    model.passed.length > 0 ? `${model.passed.length} passed` : '',
    model.counts.notApplicable > 0 ? `${model.counts.notApplicable} not applicable` : '',
    model.pending.length > 0 ? `${model.pending.length} still running` : '',
  ].filter(Boolean)
  if (model.partial && model.passed.length > 0)
    lines.push('', ...idLines(paint('green', 'Passed: '), model.passed.map(rowLabel)))
  else if (folded.length > 0) lines.push('', paint('dim', `${folded.join(' · ')} (--format json lists every check)`))

  lines.push('', ...renderGate(options.gate, options))
  // A guard for what wrap cannot see: a label wider than the page (an MCP server URL) is cut, not wrapped.
  return lines
    .map((line) => (columns(line) <= WIDTH || options.color ? line : `${[...line].slice(0, WIDTH - 1).join('')}…`))
    .join('\n')
}
