import { defineIntent } from '../types.ts'
import { answerFrom, completedPages, isMarkdown, judgement, pathOf, topicOf } from '../judging.ts'

/** What documentation pages are called; a product page or the home page in Markdown is not documentation. */
const DOCS =
  /docs?\b|documentation|guide|reference|getting started|quickstart|tutorial|manual|commands|configuration|\bapi\b|changelog|release notes/i
/** A Markdown document with something in it, not a stub. */
const MIN_CHARS = 200

/**
 * Found when the agent read a documentation page as Markdown: a text/markdown answer (negotiated or a `.md`
 * alternate) about docs, with a heading and real content. llms.txt is an index of such pages, not one of them.
 */
export default defineIntent({
  meta: {
    id: 'read-docs-markdown',
    title: 'Read the docs as Markdown',
    prompt: 'Read the documentation of {domain} as Markdown, without the HTML around it.',
    layers: ['experience'],
    keywords: ['docs', 'documentation', 'guide', 'reference', 'getting started', 'markdown', 'md', 'llms'],
    paths: ['/llms.txt', '/docs.md'],
    relatedChecks: ['markdown-negotiation', 'markdown-alternates', 'llms-txt', 'llms-full-txt'],
    format: 'markdown',
  },
  judge(_trajectory, evidence) {
    const read = completedPages(evidence).filter(
      (page) =>
        isMarkdown(page) &&
        !/llms(-full)?\.txt$/i.test(pathOf(page)) &&
        page.headings.length > 0 &&
        page.text.length >= MIN_CHARS &&
        DOCS.test(topicOf(page)),
    )
    return judgement(
      read,
      (page) => `${page.finalUrl} is documentation in Markdown.`,
      'No documentation page was served as Markdown.',
      ([page]) =>
        answerFrom(
          page!,
          `Documentation in Markdown at ${page!.finalUrl}: "${page!.title}" (${page!.contentType || 'text/markdown'}).`,
        ),
    )
  },
})
