// /llms-full.txt (bonus): the whole documentation as one markdown file, opening with an H1 and larger than llms.txt;
// a pasted template still carrying its placeholders is no documentation.
// Spec: https://llmstxt.org/
import { defineCheck, fail, pass } from '../../core/engine/check.ts'
import { outlineMarkdown } from '../../core/engine/lib/markdown.ts'
import { unreachable } from '../lib/outcomes.ts'
import { templatePlaceholder } from '../lib/placeholders.ts'
import { isOk, looksLikeHtml } from '../../core/engine/snapshot.ts'

export default defineCheck({
  meta: {
    id: 'llms-full-txt',
    name: 'llms-full.txt published',
    description:
      'llms-full.txt hands an agent the full documentation in one markdown fetch, instead of crawling page by page.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    bonus: true,
    maxScore: 3,
    specUrl: 'https://llmstxt.org/',
    recommendation: 'Publish /llms-full.txt: your documentation concatenated as markdown, starting with an H1.',
    needs: ['llmsFullTxt', 'llmsTxt'],
  },
  run({ llmsFullTxt, llmsTxt }, { target }) {
    const url = `${target.origin}/llms-full.txt`
    const recommendation = `Publish ${url}: the full text of your docs as markdown, starting with "# <site name>".`
    if (llmsFullTxt.status >= 500)
      return unreachable(`/llms-full.txt answered ${llmsFullTxt.status}, a server error; retry later`)
    if (!isOk(llmsFullTxt)) return fail(`/llms-full.txt answered ${llmsFullTxt.status}: not published`, recommendation)
    if (looksLikeHtml(llmsFullTxt.body)) {
      return fail(`/llms-full.txt answered ${llmsFullTxt.status} with an HTML page, not markdown`, recommendation)
    }
    if (!outlineMarkdown(llmsFullTxt.body).startsWithH1) {
      return fail('/llms-full.txt does not start with an H1 heading', `Start ${url} with "# <site or project name>".`)
    }
    const placeholder = templatePlaceholder(llmsFullTxt.body)
    if (placeholder) {
      return fail(
        `/llms-full.txt still carries a template placeholder ("${placeholder}"): it is not your documentation yet`,
        recommendation,
      )
    }
    const size = llmsFullTxt.body.length
    if (isOk(llmsTxt) && !looksLikeHtml(llmsTxt.body) && size <= llmsTxt.body.length) {
      return fail(
        `/llms-full.txt (${size} characters) is not larger than /llms.txt (${llmsTxt.body.length}): it is not the full content`,
        `Put the full documentation text in ${url}; llms.txt is the short index.`,
      )
    }
    return pass(`/llms-full.txt is published: ${size} characters of markdown starting with an H1`)
  },
})
