import { z } from 'zod'
import type { AgentRun, FetchedPage } from '../types.ts'
import type { FetchIntent } from '../session.ts'

/** What one page may put in the model's context: enough to read it and choose the next link, never a whole site. */
const TEXT_CHARS = 4_000
const HEADINGS = 20
const LINKS = 40
const LINK_TEXT_CHARS = 80

/** What both page tools take: the page to read. */
export const pageToolInput = z.object({
  url: z.string().min(1).max(2_000).describe('An absolute URL, or a path on the site such as /pricing'),
})

export interface PageResult {
  url: string
  final_url: string
  status: number
  content_type: string
  title: string
  /** An HTML page whose content needs JavaScript: render_page reads it after scripts ran. */
  js_only: boolean
  challenged: boolean
  text: string
  text_truncated: boolean
  headings: string[]
  links: { url: string; text: string; rel?: string }[]
  links_omitted: number
}

/** A call that fetched nothing: the model reads why and decides what to do next. */
export interface ToolRefusal {
  error: string
}

function pageResult(page: FetchedPage): PageResult {
  return {
    url: page.url,
    final_url: page.finalUrl,
    status: page.status,
    content_type: page.contentType,
    title: page.title,
    js_only: page.jsOnly,
    challenged: page.challenged,
    text: page.text.slice(0, TEXT_CHARS),
    text_truncated: page.text.length > TEXT_CHARS,
    headings: page.headings.slice(0, HEADINGS),
    links: page.links.slice(0, LINKS).map((link) => ({
      url: link.url,
      text: link.text.slice(0, LINK_TEXT_CHARS),
      ...(link.rel ? { rel: link.rel } : {}),
    })),
    links_omitted: Math.max(0, page.links.length - LINKS),
  }
}

/**
 * Runs one page tool for the model: resolves the URL against the site, records where the model learned of it
 * (a link of a page it read, else its own guess), and answers with a bounded view of the page or why there is none.
 */
export async function visitForModel(
  run: AgentRun,
  rawUrl: string,
  load: (url: string, how: FetchIntent) => Promise<FetchedPage | null>,
): Promise<PageResult | ToolRefusal> {
  if (run.tools.challenged())
    return { error: 'A bot challenge or a refusal answered instead of the site: it does not let you in, say so.' }
  if (run.signal.aborted || !run.hasBudget()) return { error: 'The step budget is spent: answer with what you found.' }
  let target: URL
  try {
    target = new URL(rawUrl, run.origin)
  } catch {
    return { error: `"${rawUrl}" is not a URL.` }
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    return { error: 'Only http and https URLs can be fetched.' }
  const page = await load(target.href, provenance(run, target.href))
  if (page) return pageResult(page)
  const step = run.tools.steps.findLast((candidate) => candidate.type === 'tool' && candidate.url === target.href)
  if (step?.status === 'blocked')
    return { error: `robots.txt disallows ${target.pathname} for ${run.tools.identity.robotsToken}.` }
  return { error: step?.label ?? 'Nothing answered.' }
}

/** Keeps the trajectory's navigation honest: a URL the model copied from a page is a link followed from that page. */
function provenance(run: AgentRun, url: string): FetchIntent {
  for (const page of run.tools.evidence.pages.toReversed()) {
    const link = page.links.find((candidate) => candidate.url === url)
    if (link)
      return {
        source: link.rel === 'sitemap-entry' ? 'sitemap' : 'link',
        anchor: link.text || link.rel || undefined,
        parentId: page.stepId,
      }
  }
  return { source: run.tools.evidence.pages.length === 0 && new URL(url).pathname === '/' ? 'start' : 'model' }
}
