// Semantic HTML on the homepage: lang, title, a single h1, landmarks, heading order, image alt text, basic ARIA.
// Spec: https://www.w3.org/WAI/tutorials/page-structure/ (WCAG 2.2, HTML landmarks)
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { pageLabel } from '../lib/page-label.ts'

interface Criterion {
  name: string
  /** 0..1; landmarks earn a third per landmark present. */
  score: number
  problem?: string
  fix?: string
}

const LANDMARKS = [
  { tag: 'nav', role: 'navigation' },
  { tag: 'header', role: 'banner' },
  { tag: 'footer', role: 'contentinfo' },
] as const
const NATIVELY_FOCUSABLE = 'a[href], button, input, select, textarea, summary, [contenteditable]'

export default defineCheck({
  meta: {
    id: 'semantic-html',
    name: 'Semantic HTML structure',
    description:
      'Agents navigate pages through the accessibility tree: a language, a title, one h1, landmarks and ordered headings tell them what the page is and where its content sits.',
    layer: 'usability',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 5,
    specUrl: 'https://www.w3.org/WAI/tutorials/page-structure/',
    recommendation:
      'Give the homepage <html lang>, a <title>, exactly one <h1>, <main>, <nav>, <header> and <footer>, headings that never skip a level, alt text on images, and real buttons instead of role="button" on divs.',
    scope: 'page',
    needs: ['homepage'],
  },
  run({ homepage }, context) {
    const { $ } = homepage
    const criteria: Criterion[] = []

    const lang = $('html').attr('lang')?.trim()
    criteria.push(
      lang
        ? { name: `lang="${lang}"`, score: 1 }
        : { name: 'html lang', score: 0, problem: 'no <html lang>', fix: 'add lang="…" (e.g. lang="en") to <html>' },
    )

    const title = $('title').first().text().trim()
    criteria.push(
      title
        ? { name: 'title', score: 1 }
        : { name: 'title', score: 0, problem: 'empty or missing <title>', fix: 'add a descriptive <title>' },
    )

    const h1Count = $('h1').length
    criteria.push(
      h1Count === 1
        ? { name: 'one h1', score: 1 }
        : {
            name: 'one h1',
            score: 0,
            problem: `${h1Count} <h1> elements`,
            fix:
              h1Count === 0
                ? 'add one <h1> naming the page'
                : `keep one <h1> (there are ${h1Count}) and demote the others to <h2>`,
          },
    )

    const hasMain = $('main, [role="main"]').length > 0
    criteria.push(
      hasMain
        ? { name: 'main', score: 1 }
        : { name: 'main', score: 0, problem: 'no <main> landmark', fix: 'wrap the primary content in <main>' },
    )

    const missingLandmarks = LANDMARKS.filter(({ tag, role }) => $(`${tag}, [role="${role}"]`).length === 0).map(
      ({ tag }) => `<${tag}>`,
    )
    criteria.push({
      name: 'nav/header/footer',
      score: (LANDMARKS.length - missingLandmarks.length) / LANDMARKS.length,
      ...(missingLandmarks.length > 0
        ? { problem: `no ${missingLandmarks.join(', ')}`, fix: `add ${missingLandmarks.join(', ')} landmarks` }
        : {}),
    })

    const levels = $('h1, h2, h3, h4, h5, h6')
      .toArray()
      .map((element) => Number(element.tagName.slice(1)))
    const skip = levels.findIndex((level, index) => index > 0 && level > levels[index - 1]! + 1)
    criteria.push(
      skip === -1
        ? { name: 'heading order', score: 1 }
        : {
            name: 'heading order',
            score: 0,
            problem: `headings skip from h${levels[skip - 1]} to h${levels[skip]}`,
            fix: `use h${levels[skip - 1]! + 1} after h${levels[skip - 1]} instead of jumping to h${levels[skip]}`,
          },
    )

    const images = $('img')
    const withAlt = images.filter((_, element) => $(element).attr('alt') !== undefined).length
    const altShare = images.length === 0 ? 1 : withAlt / images.length
    criteria.push(
      altShare >= 0.9
        ? { name: 'img alt', score: 1 }
        : {
            name: 'img alt',
            score: 0,
            problem: `${images.length - withAlt} of ${images.length} images lack alt`,
            fix: 'add alt text to every <img> (alt="" for decorative ones)',
          },
    )

    const fakeButtons = $('[role="button"], [role="link"]').filter(
      (_, element) => !$(element).is(NATIVELY_FOCUSABLE) && $(element).attr('tabindex') === undefined,
    )
    criteria.push(
      fakeButtons.length === 0
        ? { name: 'ARIA roles', score: 1 }
        : {
            name: 'ARIA roles',
            score: 0,
            problem: `${fakeButtons.length} element(s) with role="${fakeButtons.first().attr('role')}" that cannot take focus`,
            fix: 'use <button>/<a href> for controls, or add tabindex="0" and key handlers to role="button" elements',
          },
    )

    const ratio = criteria.reduce((sum, criterion) => sum + criterion.score, 0) / criteria.length
    const met = criteria.filter((criterion) => criterion.score === 1).map((criterion) => criterion.name)
    const problems = criteria.flatMap((criterion) => (criterion.problem ? [criterion.problem] : []))
    const fixes = criteria.flatMap((criterion) => (criterion.fix ? [criterion.fix] : []))
    const options = { fraction: ratio, occurrences: criteria.length }
    const score = `${Math.round(ratio * 100)}% of ${criteria.length} sub-criteria`
    const details = `${score} met on ${homepage.url}: ${met.join(', ') || 'none'}${problems.length > 0 ? `; missing: ${problems.join('; ')}` : ''}`
    const recommendation = `On the ${pageLabel(context)}, ${fixes.join('; ')}.`
    if (ratio >= 0.8)
      return problems.length === 0 ? pass(details, options) : { ...pass(details, options), recommendation }
    if (ratio >= 0.5) return warn(details, recommendation, options)
    return fail(details, recommendation, options)
  },
})
