import { tool } from 'ai'
import { z } from 'zod'
import type { AgentRun } from '../contract.ts'
import { visitForModel } from './page-result.ts'

export const renderPage = (run: AgentRun) =>
  tool({
    description:
      'Load a URL in a browser and read the page after its scripts ran. Slower than fetch_page: use it when fetch_page shows js_only: true (an app shell whose content needs JavaScript).',
    inputSchema: z.object({
      url: z.string().min(1).max(2_000).describe('An absolute URL, or a path on the site such as /pricing'),
    }),
    execute: ({ url }) => visitForModel(run, url, (target, how) => run.tools.renderPage(target, how)),
  })
