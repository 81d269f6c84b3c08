import type { AgentRun } from '../types.ts'
import { fetchPage } from './fetch-page.ts'
import { renderPage } from './render-page.ts'

/**
 * The tools a model-backed agent sees, bound to one run. Names equal the `tool` of the steps they record, so a
 * trajectory reads the same whichever agent made it.
 */
export function journeyTools(run: AgentRun) {
  return { fetch_page: fetchPage(run), render_page: renderPage(run) }
}
