// /llms.txt is published as markdown: an H1 first, a blockquote summary and H2 sections of link lists (llmstxt.org).
// Spec: https://llmstxt.org/
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { outlineMarkdown } from '../../core/engine/lib/markdown.ts'
import { unreachable } from '../lib/outcomes.ts'
import { isOk, looksLikeHtml } from '../../core/engine/snapshot.ts'

const MIN_CHARS = 50
const MAX_BYTES = 1024 * 1024
const TEXT_TYPES = ['text/plain', 'text/markdown']

export default defineCheck({
  meta: {
    id: 'llms-txt',
    name: 'llms.txt well-formed',
    description:
      'llms.txt gives language models a curated, markdown map of the site: a name, a summary and the links worth reading.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 10,
    specUrl: 'https://llmstxt.org/',
    recommendation:
      'Serve /llms.txt as text/markdown: an H1 with the site name, a "> " summary, then H2 sections listing [name](url): notes links.',
    needs: ['llmsTxt'],
    agentEntryPoint: true,
  },
  run({ llmsTxt }, { target }) {
    const url = `${target.origin}/llms.txt`
    if (llmsTxt.status >= 500) return unreachable(`/llms.txt answered ${llmsTxt.status}, a server error; retry later`)
    if (!isOk(llmsTxt)) {
      return fail(
        `/llms.txt answered ${llmsTxt.status}: no llms.txt`,
        `Publish ${url}: "# <site name>", a "> one-line summary", and "## Docs" with a list of [title](url) links to your key pages.`,
      )
    }
    if (looksLikeHtml(llmsTxt.body)) {
      return fail(
        `/llms.txt answered ${llmsTxt.status} with an HTML page, not markdown`,
        `Serve a markdown file at ${url} (text/markdown or text/plain) instead of an HTML page.`,
      )
    }
    const outline = outlineMarkdown(llmsTxt.body)
    if (!outline.startsWithH1) {
      return fail(
        outline.h1
          ? `/llms.txt has an H1 ("${outline.h1}") but it is not the first line`
          : '/llms.txt has no H1 heading, the one element llms.txt requires',
        `Start ${url} with "# <site or project name>" on its first line.`,
      )
    }
    const listSections = outline.sections.filter((section) => section.linkItems > 0)
    const summary = `H1 "${outline.h1}", ${outline.blockquote ? 'a blockquote summary' : 'no blockquote'}, ${outline.sections.length} H2 section(s), ${outline.links.length} link(s)`
    const problems: string[] = []
    const fixes: string[] = []
    if (!TEXT_TYPES.includes(llmsTxt.contentType)) {
      problems.push(`it is served as ${llmsTxt.contentType || 'no Content-Type'}`)
      fixes.push('serve it as text/markdown (or text/plain) with charset=utf-8')
    }
    if (outline.links.length === 0) {
      problems.push('it has no markdown links')
      fixes.push('list your key pages as [title](url) links')
    }
    if (llmsTxt.body.trim().length < MIN_CHARS) {
      problems.push(`it is under ${MIN_CHARS} characters`)
      fixes.push('describe the site and link its main pages')
    }
    if (!outline.blockquote) {
      problems.push('it has no "> " summary')
      fixes.push('add a one-paragraph "> " summary under the H1')
    }
    if (listSections.length === 0) {
      problems.push('no H2 section holds a link list')
      fixes.push('group links under "## " sections as "- [title](url): notes" items')
    }
    if (llmsTxt.truncated || llmsTxt.body.length > MAX_BYTES) {
      problems.push('it is over 1 MiB')
      fixes.push('keep llms.txt short and move full content to llms-full.txt')
    }
    if (problems.length > 0) return warn(`/llms.txt: ${summary}; but ${problems.join('; ')}`, `In ${url}: ${fixes.join('; ')}.`)
    return pass(`/llms.txt is well-formed: ${summary} (${listSections.length} with link lists)`)
  },
})
