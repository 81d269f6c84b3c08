// Interactive elements in the rendered homepage carry stable hooks (id, name, test ids, aria-label, real text or href)
// rather than generated class names, so agents can target them across deploys.
// Spec: https://developer.chrome.com/docs/lighthouse/agentic-browsing/
import type { Cheerio, CheerioAPI } from 'cheerio'
import type { Element } from 'domhandler'
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { pageLabel } from '../lib/page-label.ts'

const INTERACTIVE = 'a[href], button, input, select, textarea, [role="button"]'
const TEST_HOOKS = ['data-testid', 'data-test', 'data-qa', 'data-cy', 'data-test-id']
/** CSS-in-JS class names that change with every build. */
const HASHED_CLASS = /^(?:css|sc|jsx|emotion)-[a-z0-9]{5,}$/i
/** Ids generated at runtime (React useId, Radix, Headless UI, Ember, MUI, CSS-in-JS): not stable across loads. */
const GENERATED_ID =
  /^(?::r[0-9a-z]+:|radix-.*|headlessui-.*-\d+|ember\d+|mui-\d+|(?:css|sc|jsx|emotion)-[a-z0-9]{5,})$/i

type Verdict = { stable: true } | { stable: false; reason: 'pseudo-link' | 'hashed-class' | 'no-hook' }

export default defineCheck({
  meta: {
    id: 'stable-selectors',
    name: 'Stable selectors on interactive elements',
    description:
      'Browser agents act on links, buttons and fields through selectors; ids, names, test ids, labels and real text survive a redeploy, generated class names do not.',
    layer: 'usability',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    maxScore: 3,
    specUrl: 'https://developer.chrome.com/docs/lighthouse/agentic-browsing/',
    recommendation:
      'Give interactive elements an id, name, data-testid or aria-label (or at least two words of text), and use <button> instead of href="#" or javascript: links.',
    scope: 'page',
    needs: ['rendered'],
    deep: true,
  },
  run({ rendered }, context) {
    const label = pageLabel(context)
    const { $ } = rendered
    const elements = $(INTERACTIVE)
      .filter((_, element) => !(element.tagName === 'input' && $(element).attr('type')?.toLowerCase() === 'hidden'))
      .toArray()
    if (elements.length === 0) return na(`The rendered ${label} (${rendered.url}) has no links, buttons or form fields`)

    const verdicts = elements.map((element) => ({ element: $(element), verdict: judge($, $(element)) }))
    const unstable = verdicts.filter((entry) => !entry.verdict.stable)
    const count = (reason: string) =>
      unstable.filter(({ verdict }) => !verdict.stable && verdict.reason === reason).length
    const ratio = (elements.length - unstable.length) / elements.length
    const options = { fraction: ratio, occurrences: elements.length }
    const summary = `${elements.length - unstable.length} of ${elements.length} interactive elements on the rendered ${label} have a stable hook (${Math.round(ratio * 100)}%)`
    if (unstable.length === 0) return pass(summary, options)

    const breakdown = [
      [count('pseudo-link'), 'href="#" or javascript: links'],
      [count('hashed-class'), 'elements identified only by generated class names'],
      [count('no-hook'), 'elements with no id, name, test id, aria-label or two-word text'],
    ]
      .filter(([n]) => Number(n) > 0)
      .map(([n, what]) => `${n} ${what}`)
    const examples = unstable.slice(0, 3).map(({ element }) => outline(element))
    const details = `${summary}; ${breakdown.join(', ')}; e.g. ${examples.join(', ')}`
    const recommendation = `Add a data-testid, id or aria-label to ${examples.join(', ')}${unstable.length > examples.length ? ` and ${unstable.length - examples.length} similar elements` : ''}${count('pseudo-link') > 0 ? '; turn href="#"/javascript: links into <button> elements' : ''}.`
    if (ratio >= 0.9) return { ...pass(details, options), recommendation }
    return ratio >= 0.7 ? warn(details, recommendation, options) : fail(details, recommendation, options)
  },
})

function judge($: CheerioAPI, element: Cheerio<Element>): Verdict {
  const href = element.is('a') ? (element.attr('href') ?? '').trim() : null
  if (href !== null && (href === '#' || /^javascript:/i.test(href))) return { stable: false, reason: 'pseudo-link' }
  const id = element.attr('id')?.trim()
  if (id && !GENERATED_ID.test(id)) return { stable: true }
  if (element.attr('name')?.trim()) return { stable: true }
  if (TEST_HOOKS.some((hook) => element.attr(hook)?.trim())) return { stable: true }
  if (element.attr('aria-label')?.trim()) return { stable: true }
  // A link's destination is itself a durable hook (a[href="/pricing"]).
  if (href) return { stable: true }
  if (visibleWords($, element) >= 2) return { stable: true }
  const classes = (element.attr('class') ?? '').split(/\s+/).filter(Boolean)
  if (classes.length > 0 && classes.every((name) => HASHED_CLASS.test(name)))
    return { stable: false, reason: 'hashed-class' }
  return { stable: false, reason: 'no-hook' }
}

function visibleWords($: CheerioAPI, element: Cheerio<Element>): number {
  const text = [
    element.text(),
    element.attr('value') ?? '',
    ...element
      .find('img[alt]')
      .toArray()
      .map((image) => $(image).attr('alt') ?? ''),
  ]
    .join(' ')
    .trim()
  return text ? text.split(/\s+/).length : 0
}

function outline(element: Cheerio<Element>): string {
  const tag = element.prop('tagName')?.toLowerCase() ?? 'element'
  const attributes = ['href', 'type', 'class']
    .map((name) => [name, element.attr(name)] as const)
    .filter(([, value]) => value)
    .map(([name, value]) => ` ${name}="${value!.slice(0, 40)}"`)
  const text = element.text().replace(/\s+/g, ' ').trim().slice(0, 30)
  return `<${tag}${attributes.join('')}>${text}`
}
