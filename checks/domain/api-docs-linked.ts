// API documentation is reachable without JavaScript or a login: a docs page linked from the homepage, a service-doc
// link (RFC 8631), or docs links in llms.txt. Spec: https://www.rfc-editor.org/rfc/rfc8631
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { visibleText } from '../lib/payments.ts'
import { type HtmlPage, isOk, looksLikeHtml } from '../../core/engine/snapshot.ts'

const DOCS_WORDS = /\b(?:docs?|documentation|developers?|api[ -]?reference|api)\b/i
const LOGIN_PATH = /\/(?:login|log-in|signin|sign-in|sso|auth|account\/login)(?:\/|$|\?)/i
/** Below this, a docs page is an app shell that renders its content with JavaScript. */
const MIN_DOCS_TEXT = 200

export default defineCheck({
  meta: {
    id: 'api-docs-linked',
    name: 'API documentation reachable',
    description:
      'An agent that finds an API still needs its documentation, linked from the site and readable without running JavaScript or logging in.',
    layer: 'usability',
    applicability: 'api',
    protocol: 'either',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 4,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc8631',
    recommendation:
      'Link the API documentation from the homepage (an anchor "Docs" or "API reference"), serve it as server-rendered HTML without a login, and advertise it with Link: <…>; rel="service-doc" and in llms.txt.',
    needs: ['apiSignals', 'homepage', 'docsPage', 'linkHeader', 'llmsTxt'],
  },
  run({ apiSignals, homepage, docsPage, linkHeader, llmsTxt }) {
    if (!apiSignals.hasApi)
      return na('No API signals (no OpenAPI document, API links or API subdomain), so there is no API to document')
    const found: string[] = []
    const problems: string[] = []

    const docsVerdict = docsPage ? judgeDocsPage(docsPage) : null
    if (docsVerdict?.ok) found.push(`docs page ${docsPage!.url} (${docsVerdict.text})`)
    else if (docsVerdict) problems.push(docsVerdict.text)

    const serviceDocs = linkHeader.targets.filter((target) => target.rel.includes('service-doc'))
    for (const target of serviceDocs) {
      if (target.status !== null && target.status >= 200 && target.status < 300)
        found.push(`Link rel="service-doc" ${target.href} (${target.status})`)
      else problems.push(`Link rel="service-doc" ${target.href} answered ${target.status ?? target.error ?? 'nothing'}`)
    }
    const serviceDocElement = homepage.$('link[rel~="service-doc" i][href]').first().attr('href')
    if (serviceDocElement) found.push(`<link rel="service-doc" href="${serviceDocElement}">`)

    const llmsDocs = isOk(llmsTxt) && !looksLikeHtml(llmsTxt.body) ? docsLinksInMarkdown(llmsTxt.body) : []
    if (llmsDocs.length > 0) found.push(`llms.txt links ${llmsDocs.slice(0, 2).join(', ')}`)

    if (found.length > 0) return pass(`API documentation reachable: ${found.join('; ')}`)
    const signals = apiSignals.reasons.slice(0, 2).join('; ') || 'API signals'
    if (problems.length > 0 && docsVerdict && docsVerdict.level === 'warning') {
      return warn(
        `Docs are linked but not readable by an agent: ${problems.join('; ')}`,
        `Serve ${docsPage!.url} as server-rendered HTML that needs neither JavaScript nor a login (or publish a public copy, e.g. the OpenAPI reference, and link it from the homepage and llms.txt).`,
      )
    }
    return fail(
      `The site shows an API (${signals}) but no reachable documentation: ${problems.length > 0 ? problems.join('; ') : 'no homepage link to docs, no rel="service-doc" link, no docs link in llms.txt'}`,
      `Link public API docs from ${homepage.url} (an anchor such as "API docs"), add Link: <https://${new URL(homepage.url).host}/docs>; rel="service-doc", and list the docs in /llms.txt.`,
    )
  },
})

function judgeDocsPage(page: HtmlPage): { ok: boolean; level: 'warning' | 'fail'; text: string } {
  if (page.status === 401 || page.status === 403)
    return { ok: false, level: 'warning', text: `${page.url} needs a login (${page.status})` }
  if (page.redirects.length > 0 && LOGIN_PATH.test(new URL(page.url).pathname)) {
    return { ok: false, level: 'warning', text: `${page.requestedUrl} redirects to a login page (${page.url})` }
  }
  if (!isOk(page)) return { ok: false, level: 'fail', text: `the linked docs page ${page.url} answered ${page.status}` }
  const text = visibleText(page.$)
  if (page.$('input[type="password" i]').length > 0 && text.length < 1000) {
    return { ok: false, level: 'warning', text: `${page.url} shows a login form instead of documentation` }
  }
  if (text.length < MIN_DOCS_TEXT) {
    return {
      ok: false,
      level: 'warning',
      text: `${page.url} has ${text.length} characters of text without JavaScript (it renders client-side)`,
    }
  }
  return { ok: true, level: 'warning', text: `${page.status}, ${text.length} characters of text` }
}

/** Markdown links in llms.txt whose text or URL is about docs or the API. */
function docsLinksInMarkdown(markdown: string): string[] {
  return [...markdown.matchAll(/\[([^\]]*)\]\(([^)\s]+)\)/g)]
    .filter(
      ([, text, url]) =>
        DOCS_WORDS.test(text ?? '') ||
        DOCS_WORDS.test((url ?? '').replace(/^https?:\/\/[^/]+/, '')) ||
        /^https?:\/\/(?:docs|developers?|api)\./i.test(url ?? ''),
    )
    .map(([, , url]) => url ?? '')
}
