// llms.txt is published as markdown: an H1 first (the one required section), then optionally a blockquote summary,
// notes and H2 sections of link lists (llmstxt.org v2, August 2026). It is judged on what it says: a pasted template
// still carrying its placeholders does not pass, and a sample of its same-origin links is followed for dead ones.
// Spec: https://llmstxt.org/
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import type { LlmsTxtLinksArtifact, LlmsTxtVia } from '../../core/engine/collectors/llms-txt.ts'
import { outlineMarkdown } from '../../core/engine/lib/markdown.ts'
import { unreachable } from '../lib/outcomes.ts'
import { templatePlaceholder } from '../lib/placeholders.ts'
import { isOk, looksLikeHtml } from '../../core/engine/snapshot.ts'

const MIN_CHARS = 50
const MAX_BYTES = 1024 * 1024
const TEXT_TYPES = ['text/plain', 'text/markdown']
/** Answers that say a link leads nowhere; a 401/403/429 or a server error says nothing about the page. */
const DEAD_STATUSES = new Set([404, 410])
const FOUND_VIA: Record<LlmsTxtVia, string> = {
  'describedby-header': 'the homepage\'s Link rel="describedby" header',
  'describedby-link': 'the homepage\'s <link rel="describedby">',
  'homepage-path': 'the path the homepage redirects to',
}

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
      'Serve /llms.txt as text/markdown: an H1 with the site name, a "> " summary of what the site offers, and links to pages that exist ([name](url): notes), grouped under H2 sections if you like.',
    needs: ['llmsTxt', 'llmsTxtLinks'],
    agentEntryPoint: true,
  },
  run({ llmsTxt, llmsTxtLinks }, { target }) {
    const url = llmsTxt.foundAt ? llmsTxt.url : `${target.origin}/llms.txt`
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
    const placeholder = templatePlaceholder(llmsTxt.body)
    if (placeholder) {
      return fail(
        `${where(llmsTxt)} still carries a template placeholder ("${placeholder}"): it says nothing about the site yet`,
        `Write ${url} for your site: replace the placeholder with a sentence on what the site offers and who it is for, and link pages that exist.`,
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
    const dead = llmsTxtLinks.probes.filter((probe) => probe.status !== null && DEAD_STATUSES.has(probe.status))
    if (dead.length > 0) {
      problems.push(
        `${dead.length} of ${llmsTxtLinks.probes.length} sampled link(s) are dead: ${dead.map((probe) => `${new URL(probe.url).pathname} (${probe.status})`).join(', ')}`,
      )
      fixes.push('point every link at a page that exists, or remove it')
    }
    if (llmsTxt.truncated || llmsTxt.body.length > MAX_BYTES) {
      problems.push('it is over 1 MiB')
      fixes.push('keep llms.txt short and move full content to llms-full.txt')
    }
    const found = foundNote(llmsTxt.foundAt)
    if (problems.length > 0)
      return warn(
        `${where(llmsTxt)}${found}: ${summary}; but ${problems.join('; ')}`,
        `In ${url}: ${fixes.join('; ')}.`,
      )
    return pass(
      `${where(llmsTxt)} is well-formed${found}: ${summary} (${listSections.length} with link lists)${linksNote(llmsTxtLinks)}`,
    )
  },
})

/** Where the file was read: /llms.txt, or the path it was found at instead. */
function where(llmsTxt: { url: string; foundAt?: unknown }): string {
  return llmsTxt.foundAt ? new URL(llmsTxt.url).pathname : '/llms.txt'
}

function foundNote(foundAt: { via: LlmsTxtVia; rootStatus: number } | undefined): string {
  return foundAt ? ` (found through ${FOUND_VIA[foundAt.via]}; /llms.txt answered ${foundAt.rootStatus})` : ''
}

function linksNote({ probes, total }: LlmsTxtLinksArtifact): string {
  if (probes.length === 0) return ''
  const answered = probes.filter((probe) => probe.status !== null).length
  return `; ${answered} of ${probes.length} sampled same-origin link(s) answered${total > probes.length ? ` (of ${total})` : ''}, none dead`
}
