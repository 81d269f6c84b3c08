// GET / with `Accept: text/markdown` returns markdown with `Vary: Accept`, while browsers still get HTML (RFC 7763, RFC 9110 §12.5.1).
// Spec: https://www.rfc-editor.org/rfc/rfc7763 (see also Cloudflare "Markdown for Agents")
import { markdownServed } from '../../core/engine/collectors/markdown.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { pageLabel } from '../lib/page-label.ts'

function variesOnAccept(response: HttpSnapshot): boolean {
  return (response.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .some((name) => name === 'accept' || name === '*')
}

const served = (response: HttpSnapshot) => `${response.status} ${response.contentType || 'with no content type'}`

export default defineCheck({
  meta: {
    id: 'markdown-negotiation',
    name: 'Markdown via Accept: text/markdown',
    description:
      'Agents that ask for text/markdown get the page as markdown: far fewer tokens than HTML and no markup to strip, at the same URL people use.',
    layer: 'accessibility',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 6,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc7763',
    recommendation:
      'When a request prefers text/markdown (Accept: text/markdown, text/html;q=0.5), answer with Content-Type: text/markdown; charset=utf-8 and Vary: Accept; keep serving HTML to browsers.',
    scope: 'page',
    needs: ['markdownHome', 'homepage', 'markdownVariants'],
    agentEntryPoint: true,
  },
  run({ markdownHome, homepage, markdownVariants }, context) {
    const label = pageLabel(context)
    if (markdownHome.status === 406) {
      return fail(
        `The ${label} answered 406 Not Acceptable to "Accept: text/markdown, text/html;q=0.5", although HTML was acceptable at q=0.5`,
        'Never answer 406 when the Accept header also allows text/html: serve markdown if you can, else the HTML page.',
      )
    }
    if (markdownHome.status >= 500) {
      return unreachable(`The ${label} answered ${markdownHome.status} to a markdown request`)
    }
    const form = markdownServed(markdownHome)
    if (!form) {
      return fail(
        `Asked for text/markdown, the ${label} answered ${served(markdownHome)}`,
        'Negotiate on Accept: when text/markdown is preferred, return a markdown rendering of the page with Content-Type: text/markdown and Vary: Accept (Cloudflare "Markdown for Agents" or a middleware can do it).',
      )
    }
    const problems: string[] = []
    const fixes: string[] = []
    if (form === 'plain') {
      problems.push('the markdown is labelled text/plain')
      fixes.push('label it Content-Type: text/markdown; charset=utf-8')
    }
    if (!variesOnAccept(markdownHome)) {
      problems.push(
        `there is no Vary: Accept (Vary: ${markdownHome.headers.vary ?? 'absent'}), so caches can hand markdown to browsers or HTML to agents`,
      )
      fixes.push('add Vary: Accept to both the HTML and the markdown responses')
    }
    if (markdownServed(homepage) || homepage.contentType !== 'text/html') {
      problems.push(`a browser Accept header gets ${served(homepage)} instead of HTML`)
      fixes.push('keep answering text/html to browser Accept headers')
    }
    const docs = markdownVariants.docsNegotiation
    if (docs?.response && !markdownServed(docs.response)) {
      const path = new URL(docs.url).pathname
      problems.push(`it works only on some pages: the docs page ${path} answered ${served(docs.response)}`)
      fixes.push(`negotiate markdown on every page, including ${path}`)
    }
    const tokens = markdownHome.headers['x-markdown-tokens']
    const summary = `Asked for text/markdown, the ${label} answered ${served(markdownHome)}${tokens ? ` (x-markdown-tokens: ${tokens})` : ''}`
    if (problems.length)
      return warn(
        `${summary}, but ${problems.join('; ')}`,
        `${fixes.join('; ')}.`.replace(/^./, (first) => first.toUpperCase()),
      )
    return pass(
      `${summary} with Vary: Accept; browsers still get HTML${docs?.response ? `; so does the docs page ${new URL(docs.url).pathname}` : ''}`,
    )
  },
})
