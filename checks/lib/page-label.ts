import type { CheckContext } from '../../core/engine/check.ts'
import { pathOf } from '../../core/engine/lib/describe.ts'

/**
 * How a page-level check names the page it judged in its details and fix: `homepage`, or on another page of a
 * multi-page scan's sample `page /docs/intro`, so that each failing page's own fix says where to make it.
 */
export function pageLabel(context: CheckContext): string {
  return context.page === undefined ? 'homepage' : `page ${pathOf(context.page)}`
}
