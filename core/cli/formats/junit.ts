import type { CliReport } from '../report.ts'

/** XML 1.0 forbids most control characters even as references; they are dropped, the rest escaped. */
function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

/**
 * JUnit XML, one test case per check (classname = layer, name = check id; a check run against one MCP server of
 * several is named after it too), so that every CI's test-report view lists them: fail and error are failures,
 * na and pending are skipped, warnings pass with their details in system-out.
 */
export function renderJunit(report: CliReport): string {
  const checks = report.layers.flatMap((layer) => layer.checks.map((check) => ({ layer, check })))
  const failures = checks.filter(({ check }) => check.status === 'fail' || check.status === 'error').length
  const skipped = checks.filter(({ check }) => check.status === 'na' || check.status === 'pending').length
  const suiteName = report.partial ? `agent-readiness ${report.domain} (partial)` : `agent-readiness ${report.domain}`
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent-readiness" tests="${checks.length}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="${xml(suiteName)}" tests="${checks.length}" failures="${failures}" errors="0" skipped="${skipped}"${report.scannedAt ? ` timestamp="${xml(report.scannedAt)}"` : ''}>`,
    '    <properties>',
    `      <property name="score" value="${report.score ?? 'partial'}"/>`,
    `      <property name="grade" value="${xml(report.grade ?? 'partial')}"/>`,
    `      <property name="url" value="${xml(report.url)}"/>`,
    `      <property name="source" value="${xml(report.source)}"/>`,
    '    </properties>',
  ]
  for (const { layer, check } of checks) {
    const name = check.mcpUrl ? `${check.id} (${check.mcpUrl})` : check.id
    const open = `    <testcase classname="${xml(layer.id)}" name="${xml(name)}"`
    const message = xml(`${check.status}: ${check.details ?? check.name}`)
    if (check.status === 'fail' || check.status === 'error') {
      const body = [check.details, check.recommendation && `Fix: ${check.recommendation}`, check.specUrl && `Spec: ${check.specUrl}`]
      lines.push(`${open}>`, `      <failure message="${message}" type="${check.status}">${xml(body.filter(Boolean).join('\n'))}</failure>`, '    </testcase>')
    } else if (check.status === 'na' || check.status === 'pending') {
      lines.push(`${open}>`, `      <skipped message="${xml(check.naReason ?? check.details ?? check.status)}"/>`, '    </testcase>')
    } else if (check.details) {
      lines.push(`${open}>`, `      <system-out>${xml(`${check.status}: ${check.details}`)}</system-out>`, '    </testcase>')
    } else {
      lines.push(`${open}/>`)
    }
  }
  lines.push('  </testsuite>', '</testsuites>')
  return lines.join('\n')
}
