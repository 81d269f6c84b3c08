import { rowLabel } from '../baseline.ts'
import type { Assertion } from '../gate.ts'
import { type CliCheck, type CliReport, extraKind } from '../report.ts'
import type { RenderOptions } from './style.ts'

/** XML 1.0 forbids most control characters even as references; they are dropped, the rest escaped. */
export function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

type Outcome = { kind: 'pass'; out?: string } | { kind: 'failure' | 'skipped'; message: string; body?: string }

interface TestCase {
  classname: string
  name: string
  outcome: Outcome
}

const lines = (...parts: (string | undefined | false)[]) => parts.filter(Boolean).join('\n')

/** What a check's own case says when it is not met: its status and details, then its fix and spec. */
function notMet(check: CliCheck, reason?: string): { message: string; body: string } {
  const text = check.status === 'na' ? (check.naReason ?? check.details) : check.details
  return {
    message: `${reason ? `${reason}; ` : ''}${check.status}${text ? `: ${text}` : ''}${check.recommendation ? ` Fix: ${check.recommendation}` : ''}`,
    body: lines(
      check.details,
      check.recommendation && `Fix: ${check.recommendation}`,
      check.specUrl && `Spec: ${check.specUrl}`,
    ),
  }
}

/**
 * A check's own test case. With a gate, the gate's assertions decide the build, so a check case never fails: it
 * passes, or is skipped with its status and fix. Without one, a check that lowers the score fails its case;
 * extras (bonus, emerging, beta) not met, checks that could not run, n/a and pending ones are skipped with why.
 */
function checkOutcome(check: CliCheck, gate: RenderOptions['gate']): Outcome {
  if (check.status === 'pass') return { kind: 'pass', ...(check.details ? { out: `pass: ${check.details}` } : {}) }
  if (check.status === 'na') return { kind: 'skipped', message: notMet(check, 'not applicable').message }
  if (check.status === 'pending') return { kind: 'skipped', message: notMet(check, 'still running').message }
  if (check.status === 'error')
    return { kind: 'skipped', ...notMet(check, 'could not run, never counted in the score') }
  const asserted = gate.assertions
    .filter((assertion) => assertion.check === check.id)
    .map((assertion) => `"${assertion.name}"`)
  if (asserted.length > 0)
    return { kind: 'skipped', ...notMet(check, `asserted by the gate's case ${asserted.join(' and ')}`) }
  const extra = extraKind(check)
  if (extra) return { kind: 'skipped', ...notMet(check, `${extra} check, never lowers the score`) }
  if (gate.active) return { kind: 'skipped', ...notMet(check, 'not asserted by the gate') }
  // A warning earns part of its points: it is reported, not failed, as a linter's warning is.
  if (check.status === 'warning') return { kind: 'pass', out: notMet(check).body }
  return { kind: 'failure', ...notMet(check, failingPages(check)) }
}

/** A page-level check of a multi-page scan fails once, naming the pages it failed on. */
function failingPages(check: CliCheck): string | undefined {
  if (!check.pages || check.pages.failing.length === 0) return undefined
  const more = check.pages.checked - check.pages.passed - check.pages.failing.length
  return `passes on ${check.pages.passed} of ${check.pages.checked} pages, not on ${check.pages.failing.map((page) => page.url).join(', ')}${more > 0 ? ` and ${more} more` : ''}`
}

function assertionCase(assertion: Assertion): TestCase {
  return {
    classname: 'gate',
    name: assertion.name,
    outcome: assertion.passed
      ? { kind: 'pass', out: assertion.message }
      : { kind: 'failure', message: assertion.message, ...(assertion.detail ? { body: assertion.detail } : {}) },
  }
}

function suite(
  name: string,
  cases: TestCase[],
  extra: { timestamp?: string | null; properties?: [string, string][] },
): string[] {
  const failures = cases.filter((entry) => entry.outcome.kind === 'failure').length
  const skipped = cases.filter((entry) => entry.outcome.kind === 'skipped').length
  const out = [
    `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"${extra.timestamp ? ` timestamp="${xml(extra.timestamp)}"` : ''}>`,
  ]
  if (extra.properties) {
    out.push(
      '    <properties>',
      ...extra.properties.map(([key, value]) => `      <property name="${xml(key)}" value="${xml(value)}"/>`),
      '    </properties>',
    )
  }
  for (const { classname, name: caseName, outcome } of cases) {
    const open = `    <testcase classname="${xml(classname)}" name="${xml(caseName)}"`
    if (outcome.kind === 'failure') {
      out.push(
        `${open}>`,
        `      <failure message="${xml(outcome.message)}" type="failure">${xml(outcome.body ?? outcome.message)}</failure>`,
        '    </testcase>',
      )
    } else if (outcome.kind === 'skipped') {
      out.push(
        `${open}>`,
        `      <skipped message="${xml(outcome.message)}"/>`,
        ...(outcome.body ? [`      <system-out>${xml(outcome.body)}</system-out>`] : []),
        '    </testcase>',
      )
    } else if (outcome.kind === 'pass' && outcome.out) {
      out.push(`${open}>`, `      <system-out>${xml(outcome.out)}</system-out>`, '    </testcase>')
    } else {
      out.push(`${open}/>`)
    }
  }
  out.push('  </testsuite>')
  return out
}

/**
 * JUnit XML, so that a CI's test view goes red exactly when the gate fails: the gate's assertions (minimum score,
 * each --checks id, the baseline's score and each regression) are the cases of a `gate` suite, and each check is a
 * case of the site's suite (classname = layer, name = check id, and its MCP server when it ran against one of
 * several). Properties carry the score, grade, contract version and report URL.
 */
export function renderJunit(report: CliReport, options: RenderOptions): string {
  const { gate } = options
  const checkCases: TestCase[] = report.layers.flatMap((layer) =>
    layer.checks.map((check) => ({ classname: layer.id, name: rowLabel(check), outcome: checkOutcome(check, gate) })),
  )
  const gateCases = gate.assertions.map(assertionCase)
  const properties: [string, string][] = [
    ['score', String(report.score ?? 'partial')],
    ['grade', report.grade ?? 'partial'],
    ...(report.contractVersion ? [['contractVersion', report.contractVersion] as [string, string]] : []),
    ['url', report.url],
    ...(report.reportUrl ? [['reportUrl', report.reportUrl] as [string, string]] : []),
    ['source', report.source],
    ['gate', gate.active ? (gate.passed ? 'passed' : 'failed') : 'none'],
  ]
  const all = [...gateCases, ...checkCases]
  const suiteName = report.partial ? `agent-readiness ${report.domain} (partial)` : `agent-readiness ${report.domain}`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent-readiness" tests="${all.length}" failures="${all.filter((entry) => entry.outcome.kind === 'failure').length}" skipped="${all.filter((entry) => entry.outcome.kind === 'skipped').length}">`,
    ...(gateCases.length > 0
      ? suite(`agent-readiness gate ${report.domain}`, gateCases, { timestamp: report.scannedAt, properties })
      : []),
    ...suite(suiteName, checkCases, { timestamp: report.scannedAt, properties }),
    '</testsuites>',
  ].join('\n')
}
