import { tool } from 'ai'
import type { AgentRun } from '../types.ts'
import { pageToolInput, visitForModel } from './page-result.ts'

export const fetchPage = (run: AgentRun) =>
  tool({
    description:
      'GET a URL over HTTP, as an agent does, and read it: status, title, content type, the start of its text, headings and links. Works for HTML, Markdown, text, JSON, YAML and XML (sitemaps).',
    inputSchema: pageToolInput,
    execute: ({ url }) => visitForModel(run, url, (target, how) => run.tools.fetchPage(target, how)),
  })
