import type { CliReport } from '../report.ts'

/** The report model as JSON: the same fields whether the scan ran in-process or on a server. */
export function renderJson(report: CliReport): string {
  return JSON.stringify(report, null, 2)
}
