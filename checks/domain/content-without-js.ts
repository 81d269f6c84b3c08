// The raw HTML of the homepage (and one docs page) carries the content, with no JavaScript run.
// Spec: https://developer.chrome.com/docs/lighthouse/agentic-browsing/
import { load } from 'cheerio'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { BLOCKED_FACTOR, BLOCKED_NOTE } from '../../core/engine/scoring.ts'
import { unreachable } from '../lib/outcomes.ts'
import { visibleText } from '../lib/payments.ts'
import type { HtmlPage } from '../../core/engine/snapshot.ts'
import { pageLabel } from '../lib/page-label.ts'

const ENOUGH_TEXT = 500
const TOO_LITTLE_TEXT = 150
const MAIN_TEXT = 200
/** Mount points of client-rendered apps (React, Vue, Next.js, Nuxt, Gatsby, SvelteKit). */
const APP_ROOTS = '#root, #app, #__next, #__nuxt, #___gatsby, #svelte'
/**
 * Titles and headings of the pages web servers and hosts serve before anyone puts a site up (nginx, Apache's "It
 * works!" and distribution pages, IIS, Caddy, LiteSpeed, cPanel): text that says nothing about a site, so a homepage
 * that is one has nothing for agents to read, however many characters it holds.
 */
const STOCK_PAGE =
  /^(welcome to nginx!?|it works!?|apache2? (ubuntu|debian|centos|fedora)? ?default page.*|test page for the (apache|nginx) http server.*|iis windows server|internet information services|caddy works!?|web server's default page|litespeed web server|default web site page|index of \/)$/i
const ENABLE_JS =
  /enable javascript|javascript (is )?(required|disabled|needs to be enabled|must be enabled)|(needs?|requires?) javascript|turn on javascript/i

interface PageVerdict {
  status: 'pass' | 'warning' | 'fail'
  summary: string
  /** Set when the page is a web server's stock page: its title or heading. */
  stockPage?: string
}

function judge(page: HtmlPage, label: string): PageVerdict {
  const { $ } = page
  const text = visibleText($).length
  const h1 = $('h1')
    .toArray()
    .some((element) => $(element).text().trim() !== '')
  const main = $('main').first()
  const mainText = main.length ? visibleText(load($.html(main))).length : 0
  const emptyRoot = $(APP_ROOTS)
    .toArray()
    .find((element) => $(element).text().trim() === '')
  const noscript = $('noscript').text()
  const facts = `${label}: ${text} characters of text without JavaScript, ${h1 ? 'an <h1>' : 'no <h1>'}${main.length ? `, <main> with ${mainText}` : ''}`
  const stock = [$('title').first().text(), $('h1').first().text()]
    .map((heading) => heading.trim())
    .find((heading) => STOCK_PAGE.test(heading))
  if (stock)
    return {
      status: 'fail',
      summary: `${label} is a web server's stock page ("${stock}"), with nothing about the site`,
      stockPage: stock,
    }
  if (emptyRoot && text < ENOUGH_TEXT) {
    return {
      status: 'fail',
      summary: `${facts}; an empty app shell (<${emptyRoot.tagName} id="${$(emptyRoot).attr('id')}">) waits for JavaScript`,
    }
  }
  if (text < TOO_LITTLE_TEXT) {
    const notice = ENABLE_JS.test(noscript) ? '; the main content is a <noscript> "enable JavaScript" notice' : ''
    return { status: 'fail', summary: `${facts}${notice}` }
  }
  if (text >= ENOUGH_TEXT && (h1 || mainText >= MAIN_TEXT)) return { status: 'pass', summary: facts }
  return { status: 'warning', summary: facts }
}

export default defineCheck({
  meta: {
    id: 'content-without-js',
    name: 'Meaningful content without JavaScript',
    description: `Most agents read the HTML as served and never run JavaScript; a page whose content appears only after scripts run looks empty to them. A homepage that is an empty shell without JavaScript (an empty app mount point, or under ${TOO_LITTLE_TEXT} characters of text), or a web server's stock page, stops fetch-based agents, the most common kind, outright: while it lasts the score is multiplied by ${BLOCKED_FACTOR} (no grade above C). Thin but readable content is a warning.`,
    layer: 'accessibility',
    applicability: 'domain-only',
    tier: 'required',
    maturity: 'verified',
    maxScore: 8,
    specUrl: 'https://developer.chrome.com/docs/lighthouse/agentic-browsing/',
    recommendation:
      'Render the main content on the server (SSR or static generation) so the initial HTML has the text and an <h1>; keep JavaScript for interaction.',
    scope: 'page',
    needs: ['homepage', 'docsPage'],
    essentialsAccess: 'readableWithoutJs',
    // Only the homepage's fail (an empty or near-empty shell) stops agents; thin content and a docs page are warnings.
    stopsAgents: true,
  },
  run({ homepage, docsPage }, context) {
    const label = pageLabel(context)
    if (homepage.status >= 500) {
      return unreachable(`The ${label} answered ${homepage.status}; its content could not be judged`)
    }
    const home = judge(homepage, `${label}${homepage.status === 200 ? '' : ` (status ${homepage.status})`}`)
    const docs =
      docsPage && docsPage.status < 400 ? judge(docsPage, `docs page ${new URL(docsPage.url).pathname}`) : null
    const details = [home.summary, docs?.summary].filter(Boolean).join('; ')
    if (home.stockPage) {
      return fail(
        details,
        `Replace the web server's default page ("${home.stockPage}") with the site's own homepage, its headline, what it offers and its main links in the served HTML. ${BLOCKED_NOTE}`,
      )
    }
    if (home.status === 'fail') {
      return fail(
        details,
        `Server-render the ${label}: the HTML sent to clients should contain the headline, the product description and the main links (at least 500 characters of text and an <h1>), not an empty <div id="root"> filled in by JavaScript. ${BLOCKED_NOTE}`,
      )
    }
    if (home.status === 'warning') {
      return warn(
        details,
        `Put more of the ${label} content into the served HTML (at least 500 characters) and give it one <h1> (or a <main> with the main text).`,
      )
    }
    // A short docs page is fine; one that needs JavaScript to show anything is not.
    if (docs?.status === 'fail') {
      return warn(
        details,
        `Server-render the docs as well: ${new URL(docsPage!.url).pathname} needs its text and an <h1> in the initial HTML, since agents read docs without running JavaScript.`,
      )
    }
    return pass(details)
  },
})
