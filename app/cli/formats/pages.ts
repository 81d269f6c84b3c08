import { pathOf } from '../../../core/engine/lib/describe.ts'
import type { PageVerdict } from '../../../core/engine/page-verdict.ts'
import type { CliCheck, CliReport } from '../report.ts'

/**
 * The multi-page part of a report (`--pages`), as the text and Markdown formats both say it: for each page-level
 * check "18 of 25 pages" and the pages it failed on, each with that page's own fix; and where the sample came from.
 */

/** "18 of 25 pages": a page-level check's reading. */
export const pageShare = (pages: PageVerdict): string => `${pages.passed} of ${pages.checked} pages`

/** The page-level checks of the report that judged at least one page, in report order. */
export function pageLevelChecks(report: CliReport): (CliCheck & { pages: PageVerdict })[] {
  return report.layers
    .flatMap((layer) => layer.checks)
    .filter((check): check is CliCheck & { pages: PageVerdict } => (check.pages?.checked ?? 0) > 0)
}

/** One line about the sample: its size, the candidates, what robots.txt kept out, what was rendered, why it is short. */
export function sampleSummary(report: CliReport): string | null {
  const sample = report.pageSample
  if (!report.pages || !sample) return null
  const rendered =
    sample.renderedPages.length > 0 ? ` Rendered checks ran on ${sample.renderedPages.map(pathOf).join(', ')}.` : ''
  const note = sample.note ? ` ${sample.note}.` : ''
  return `${report.pages.length} of ${sample.requested} pages sampled from ${sample.candidates} candidates; ${sample.robotsSkipped} skipped by robots.txt.${rendered}${note}`
}

/** A failing page as a line: its path, its status and its own fix (else its details). */
export function failingPageText(page: PageVerdict['failing'][number]): string {
  return `${pathOf(page.url)} (${page.status}): ${page.recommendation ? `${page.details} Fix: ${page.recommendation}` : page.details}`
}
