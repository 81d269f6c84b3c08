import { MAX_PAGES } from '../../core/engine/sample-size.ts'
import { AppError } from '../../core/errors.ts'
import { hasCapability, KEY_TIERS } from '../../core/keys/service.ts'
import { type Caller, DAY, defineLimits, MINUTE } from '../../core/limits.ts'

/** "Exemption from all scan-family limits" (spec, Authentication) is the key service's scan-exempt capability. */
const SCAN_FAMILY_EXEMPT = KEY_TIERS.filter((tier) => hasCapability(tier, 'scan-exempt'))

/** The scan family's limits (spec, Limits), which the MCP scan and score tools spend too. */
export const SCAN_LIMITS = defineLimits({
  /** POST /api/scan, GET /api/scan/stream, POST /api/scan/checks and POST /api/v2/scan share one burst. */
  scanBurst: { limit: 10, windowMs: MINUTE, durable: false, per: 'ip', exempt: SCAN_FAMILY_EXEMPT },
  /** Every scan entry point; freshness hits spend nothing; a selective run spends after probing (`peek` first). */
  scanDaily: { limit: 30, windowMs: DAY, durable: true, per: 'ip', exempt: SCAN_FAMILY_EXEMPT },
  scanForced: { limit: 6, windowMs: DAY, durable: true, per: 'ip', exempt: SCAN_FAMILY_EXEMPT },
  score: { limit: 10, windowMs: MINUTE, durable: false, per: 'ip', exempt: SCAN_FAMILY_EXEMPT },
})

/**
 * Pages one domain scan may sample (`pages`): anonymous callers up to ANONYMOUS_SCAN_PAGES, scan-key holders up to
 * MAX_PAGES. A page costs the site one HTML fetch and a few small probes (its Markdown twin, its Link targets), at
 * most PAGE_FETCH_CONCURRENCY at a time, spaced by the site's Crawl-delay (obeyed up to 2 s); the pages' HTML reads
 * at most PAGES_MAX_BYTES (24 MiB) beside the scan's own 16 MiB, a Crawl-delay gets at most 30 s of fetching, and the
 * page checks finish within PAGE_RUNS_WINDOW_MS (60 s; a page not judged by then is not counted).
 */
export const ANONYMOUS_SCAN_PAGES = 25

/** A `pages` beyond the caller's allowance is the spec's 400 (VALIDATION_FAILED), like a value out of range. */
export function assertScanPages(pages: number | undefined, caller: Caller, where: 'body' | 'query' = 'body'): void {
  if (pages === undefined || pages <= ANONYMOUS_SCAN_PAGES) return
  if (caller.kind === 'key' && hasCapability(caller.tier, 'scan-exempt')) return
  throw new AppError('VALIDATION_FAILED', {
    message: `pages: at most ${ANONYMOUS_SCAN_PAGES} without a scan key (${MAX_PAGES} with one)`,
    details: { in: where, issues: [{ path: 'pages', message: `at most ${ANONYMOUS_SCAN_PAGES} without a scan key` }] },
  })
}
