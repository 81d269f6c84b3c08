import type { CheckStatus, Outcome } from './check.ts'
import { pathOf } from './lib/describe.ts'

/**
 * How a page-level check is judged over a sample of pages. Each sampled page gets the check's own verdict; the
 * check's status then follows the share of judged pages that pass (a page where the check does not apply, or could
 * not run, is not judged):
 * - 90% or more passing is `pass`, 50% or more `warning`, less `fail`;
 * - its points are that share of its maxScore, rounded (a non-pass keeps at most maxScore - 1, as every check does).
 */

export const PAGE_PASS_SHARE = 0.9
export const PAGE_WARNING_SHARE = 0.5
/** Failing pages listed on a result, the worst first. */
export const MAX_FAILING_PAGES = 10

/** One page the check did not pass on, with that page's own verdict and fix. */
export interface FailingPage {
  url: string
  status: CheckStatus
  details: string
  recommendation?: string
}

/** The per-page reading a page-level check carries in a multi-page scan. */
export interface PageVerdict {
  /** Sampled pages the check judged (pass, warning or fail). */
  checked: number
  passed: number
  /** At most MAX_FAILING_PAGES pages that did not pass: failures first, then warnings, in sample order. */
  failing: FailingPage[]
}

export interface PageOutcome {
  url: string
  outcome: Pick<Outcome, 'status' | 'details' | 'recommendation'>
}

const JUDGED = new Set<CheckStatus>(['pass', 'warning', 'fail'])
const SEVERITY: Partial<Record<CheckStatus, number>> = { fail: 0, warning: 1 }

export function shareStatus(passed: number, checked: number): 'pass' | 'warning' | 'fail' {
  const share = passed / checked
  return share >= PAGE_PASS_SHARE ? 'pass' : share >= PAGE_WARNING_SHARE ? 'warning' : 'fail'
}

/**
 * The check's outcome over the sample (the homepage first) and its page reading; the homepage's own outcome when
 * no page was judged (the check did not apply anywhere, or could not run).
 */
export function combinePageOutcomes(perPage: readonly PageOutcome[]): { outcome: Outcome; pages: PageVerdict } {
  const judged = perPage.filter((page) => JUDGED.has(page.outcome.status))
  const passed = judged.filter((page) => page.outcome.status === 'pass').length
  const failing = judged
    .filter((page) => page.outcome.status !== 'pass')
    .map((page, index) => ({ page, index }))
    .sort((a, b) => SEVERITY[a.page.outcome.status]! - SEVERITY[b.page.outcome.status]! || a.index - b.index)
    .map(({ page }) => page)
  const pages: PageVerdict = {
    checked: judged.length,
    passed,
    failing: failing.slice(0, MAX_FAILING_PAGES).map(({ url, outcome }) => ({
      url,
      status: outcome.status,
      details: outcome.details,
      ...(outcome.recommendation ? { recommendation: outcome.recommendation } : {}),
    })),
  }
  const home = perPage[0]!.outcome
  if (judged.length === 0) return { outcome: home as Outcome, pages }
  const status = shareStatus(passed, judged.length)
  const worst = failing[0]
  const notPassing =
    failing.length > 0
      ? `; not passing: ${failing
          .slice(0, 3)
          .map((page) => pathOf(page.url))
          .join(', ')}${failing.length > 3 ? ` and ${failing.length - 3} more` : ''}`
      : ''
  return {
    outcome: {
      status,
      details: `${passed} of ${judged.length} sampled pages pass${notPassing}. Homepage: ${home.details}`,
      ...(worst?.outcome.recommendation
        ? { recommendation: `On ${pathOf(worst.url)} and the other pages listed: ${worst.outcome.recommendation}` }
        : {}),
      fraction: passed / judged.length,
    },
    pages,
  }
}
