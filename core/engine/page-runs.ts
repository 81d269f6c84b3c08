import type { CheckDefinition, Outcome } from './check.ts'
import { combinePageOutcomes, type PageVerdict } from './page-verdict.ts'
import { Collection, runCheck, type RunnerOptions } from './runner.ts'
import { type PageSample, refetchSample, samplePages } from './site-sample.ts'

type RunnerBase = Omit<RunnerOptions, 'onEvent' | 'pageRuns'>

/**
 * The page-level checks of a multi-page scan finish within this long of the sample being drawn: a page not judged
 * by then (a slow site queued behind the per-host cap) is reported as not judged rather than holding the scan.
 */
export const PAGE_RUNS_WINDOW_MS = 60_000

/**
 * Runs page-level checks on every page of a multi-page scan's sample, each page through its own collection (its
 * own `homepage`, `markdownHome`, `linkHeader`… artifacts) sharing the scan's HTTP session. The homepage's verdict
 * is the main run's; the sample is drawn once, on first use, given (a stored scan's pending checks), or a stored
 * sample's pages fetched again (a selective re-check of a stored multi-page scan).
 */
export class PageRuns {
  private readonly collections = new Map<string, Collection>()
  private drawn: Promise<PageSample> | null
  private window: Promise<Outcome> | null = null

  constructor(
    private readonly runner: RunnerBase,
    source:
      | { collection: Collection; requested: number }
      | { sample: PageSample }
      | { collection: Collection; refetch: PageSample },
  ) {
    this.drawn = 'sample' in source ? Promise.resolve(source.sample) : null
    this.draw =
      'sample' in source
        ? () => this.drawn!
        : 'refetch' in source
          ? () => (this.drawn ??= refetchSample(source.collection, runner.http, runner.target, source.refetch))
          : () => (this.drawn ??= samplePages(source.collection, runner.http, runner.target, source.requested))
  }

  readonly draw: () => Promise<PageSample>

  /**
   * The check's verdict over the sample: a rendered (deep) check over the first few pages only, a static one over
   * every page that answered with a success. Pages answering otherwise are listed in the sample, not judged.
   */
  async judge(check: CheckDefinition, home: Outcome): Promise<{ outcome: Outcome; pages: PageVerdict }> {
    const sample = await this.draw()
    const homeUrl = sample.pages[0]!.url
    const answered = sample.pages.filter(
      (page) => page.url !== homeUrl && page.httpStatus !== null && page.httpStatus >= 200 && page.httpStatus < 300,
    )
    const urls = answered
      .map((page) => page.url)
      .filter((url) => !check.meta.deep || sample.summary.renderedPages.includes(url))
    const window = this.closesAt()
    const others = await Promise.all(
      urls.map(async (url) => ({
        url,
        outcome: await Promise.race([runCheck(check, this.collectionFor(url), this.runner), window]),
      })),
    )
    const combined = combinePageOutcomes([{ url: homeUrl, outcome: home }, ...others])
    return check.meta.stopsAgents ? { ...combined, outcome: blockFollowsHomepage(combined.outcome, home) } : combined
  }

  /** One window for the whole scan, opened when the first check is judged over the pages. */
  private closesAt(): Promise<Outcome> {
    this.window ??= new Promise((resolve) => {
      const timer = setTimeout(
        () =>
          resolve({
            status: 'error',
            details: `not judged: the page checks of a multi-page scan finish within ${PAGE_RUNS_WINDOW_MS / 1000} s`,
          }),
        PAGE_RUNS_WINDOW_MS,
      )
      // The window never keeps a process alive on its own.
      timer.unref?.()
    })
    return this.window
  }

  private collectionFor(url: string): Collection {
    let collection = this.collections.get(url)
    if (!collection) {
      collection = new Collection({ ...this.runner, page: url })
      this.collections.set(url, collection)
    }
    return collection
  }
}

/**
 * A check whose fail stops agents (an empty shell for a homepage) blocks on what the homepage does, not on the share:
 * agents that cannot read the homepage are stopped however good the inner pages are, and thin inner pages behind a
 * readable homepage cost their share of the points without turning into a block (at worst a warning).
 */
export function blockFollowsHomepage(outcome: Outcome, home: Outcome): Outcome {
  if (home.status === 'fail')
    return { ...outcome, status: 'fail', recommendation: home.recommendation ?? outcome.recommendation }
  return outcome.status === 'fail' ? { ...outcome, status: 'warning' } : outcome
}
