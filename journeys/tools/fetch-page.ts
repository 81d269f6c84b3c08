import { tool } from 'ai'
import { z } from 'zod'
import type { AgentRun } from '../contract.ts'
import { visitForModel } from './page-result.ts'

export const fetchPage = (run: AgentRun) =>
  tool({
    description:
      'GET a URL over HTTP, as an agent does, and read it: status, title, content type, the start of its text, headings and links. Works for HTML, Markdown, text, JSON, YAML and XML (sitemaps).',
    inputSchema: z.object({
      url: z.string().min(1).max(2_000).describe('An absolute URL, or a path on the site such as /pricing'),
    }),
    execute: ({ url }) => visitForModel(run, url, (target, how) => run.tools.fetchPage(target, how)),
  })
