import { tool } from 'ai'
import type { AgentRun } from '../types.ts'
import { pageToolInput, visitForModel } from './page-result.ts'

export const renderPage = (run: AgentRun) =>
  tool({
    description:
      'Load a URL in a browser and read the page after its scripts ran. Slower than fetch_page: use it when fetch_page shows js_only: true (an app shell whose content needs JavaScript).',
    inputSchema: pageToolInput,
    execute: ({ url }) => visitForModel(run, url, (target, how) => run.tools.renderPage(target, how)),
  })
