// Form fields have an accessible name and a name attribute, and buttons have discernible text (the Lighthouse
// agentic-browsing subset of axe: label, button-name, input-button-name, select-name, input-image-alt, autocomplete-valid).
// Spec: https://developer.chrome.com/docs/lighthouse/agentic-browsing/
import type { Cheerio, CheerioAPI } from 'cheerio'
import type { AnyNode, Element } from 'domhandler'
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { isOk, type HtmlPage } from '../../core/engine/snapshot.ts'

const FIELDS = 'input, select, textarea'
const BUTTON_INPUT_TYPES = new Set(['submit', 'button', 'reset', 'image'])
const NOT_FIELDS = new Set(['hidden', ...BUTTON_INPUT_TYPES])
/** Inputs whose default value gives them a name when `value` is absent. */
const DEFAULT_NAMED = new Set(['submit', 'reset'])

/** WHATWG autofill field names (HTML §4.10.18.7.1). */
const AUTOFILL_FIELDS = new Set(
  (
    'name honorific-prefix given-name additional-name family-name honorific-suffix nickname username new-password ' +
    'current-password one-time-code organization-title organization street-address address-line1 address-line2 ' +
    'address-line3 address-level4 address-level3 address-level2 address-level1 country country-name postal-code cc-name ' +
    'cc-given-name cc-additional-name cc-family-name cc-number cc-exp cc-exp-month cc-exp-year cc-csc cc-type ' +
    'transaction-currency transaction-amount language bday bday-day bday-month bday-year sex url photo tel ' +
    'tel-country-code tel-national tel-area-code tel-local tel-local-prefix tel-local-suffix tel-extension email impp'
  ).split(' '),
)
const CONTACT_FIELDS = new Set([
  'tel',
  'tel-country-code',
  'tel-national',
  'tel-area-code',
  'tel-local',
  'tel-local-prefix',
  'tel-local-suffix',
  'tel-extension',
  'email',
  'impp',
])

interface Item {
  page: string
  descriptor: string
  problems: string[]
}

export default defineCheck({
  meta: {
    id: 'accessible-forms',
    name: 'Form controls have accessible names',
    description:
      'An agent fills a form by the names of its fields: a field without a label or name attribute, or a button without text, is a guess.',
    layer: 'usability',
    applicability: 'domain-only',
    tier: 'required',
    maturity: 'verified',
    maxScore: 6,
    specUrl: 'https://developer.chrome.com/docs/lighthouse/agentic-browsing/',
    recommendation:
      'Give every visible input, select and textarea a <label for> (or aria-label) and a name attribute, give every button text or aria-label, and use valid autocomplete tokens.',
    scope: 'page',
    needs: ['homepage', 'docsPage'],
  },
  run({ homepage, docsPage }) {
    const pages = [homepage, ...(docsPage && isOk(docsPage) ? [docsPage] : [])]
    const items = pages.flatMap(examine)
    if (items.length === 0) {
      return na(`No form fields on ${pages.map((page) => new URL(page.url).pathname).join(' or ')}`)
    }
    const bad = items.filter((item) => item.problems.length > 0)
    const ratio = (items.length - bad.length) / items.length
    const options = { fraction: ratio, occurrences: items.length }
    const where = [...new Set(items.map((item) => item.page))].join(' and ')
    const summary = `${items.length - bad.length} of ${items.length} form fields and buttons on ${where} are named`
    if (bad.length === 0)
      return pass(`${summary}: every field has a label and a name attribute, every button has text`, options)
    const listed = bad.slice(0, 5).map((item) => `${item.descriptor} on ${item.page} (${item.problems.join(', ')})`)
    const more = bad.length > listed.length ? ` and ${bad.length - listed.length} more` : ''
    const details = `${summary}; unnamed: ${listed.join('; ')}${more}`
    const recommendation = `Fix ${listed.join('; ')}${more}: add a <label for="…"> or aria-label, a name attribute, and text or aria-label on buttons.`
    return ratio >= 0.8 ? warn(details, recommendation, options) : fail(details, recommendation, options)
  },
})

function examine(page: HtmlPage): Item[] {
  const { $ } = page
  const visible = (_: number, element: Element) => !isHidden($(element))
  const fields = $(FIELDS)
    .filter((_, element) => element.tagName !== 'input' || !NOT_FIELDS.has(inputType($(element))))
    .filter(visible)
  if (fields.length === 0) return []
  const path = new URL(page.url).pathname
  const items: Item[] = fields.toArray().map((element) => {
    const field = $(element)
    const problems: string[] = []
    if (!accessibleName($, field)) problems.push('no label')
    if (!field.attr('name')?.trim()) problems.push('no name attribute')
    const autocomplete = field.attr('autocomplete')
    if (autocomplete !== undefined && !isValidAutocomplete(autocomplete))
      problems.push(`invalid autocomplete "${autocomplete}"`)
    return { page: path, descriptor: describe(field), problems }
  })
  const buttons = $('button, input, [role="button"]')
    .filter((_, element) => element.tagName !== 'input' || BUTTON_INPUT_TYPES.has(inputType($(element))))
    .filter(visible)
  for (const element of buttons.toArray()) {
    const button = $(element)
    const named = accessibleName($, button) || buttonText($, button)
    items.push({
      page: path,
      descriptor: describe(button),
      problems: named ? [] : [button.is('input[type="image" i]') ? 'no alt' : 'no text'],
    })
  }
  return items
}

function inputType(input: Cheerio<Element>): string {
  return (input.attr('type') ?? 'text').trim().toLowerCase()
}

function isHidden(element: Cheerio<Element>): boolean {
  if (element.closest('[hidden], [aria-hidden="true"]').length > 0) return true
  return [...element.toArray(), ...element.parents().toArray()].some((node) =>
    /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(node.attribs.style ?? ''),
  )
}

/** The name sources the check accepts: aria-labelledby, aria-label, <label for>, a wrapping <label>, title. */
function accessibleName($: CheerioAPI, element: Cheerio<Element>): string {
  const labelledBy = (element.attr('aria-labelledby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => $(`[id="${id.replace(/["\\]/g, '\\$&')}"]`).text())
    .join(' ')
    .trim()
  if (labelledBy) return labelledBy
  const ariaLabel = element.attr('aria-label')?.trim()
  if (ariaLabel) return ariaLabel
  const id = element.attr('id')
  const labels = [
    ...(id ? $(`label[for="${id.replace(/["\\]/g, '\\$&')}"]`).toArray() : []),
    ...element.closest('label').toArray(),
  ]
  for (const label of labels) {
    const text = labelText($, $(label))
    if (text) return text
  }
  return element.attr('title')?.trim() ?? ''
}

function labelText($: CheerioAPI, label: Cheerio<AnyNode>): string {
  const copy = label.clone()
  copy.find('input, select, textarea').remove()
  const alt = copy
    .find('img[alt]')
    .toArray()
    .map((image) => $(image).attr('alt') ?? '')
  return [copy.text(), ...alt].join(' ').trim()
}

function buttonText($: CheerioAPI, button: Cheerio<Element>): string {
  if (button.is('input')) {
    const type = inputType(button)
    if (type === 'image') return button.attr('alt')?.trim() ?? ''
    return button.attr('value')?.trim() || (DEFAULT_NAMED.has(type) ? type : '')
  }
  return labelText($, button)
}

function isValidAutocomplete(value: string): boolean {
  const tokens = value.trim().toLowerCase().split(/\s+/).filter(Boolean)
  if (tokens.length === 1 && (tokens[0] === 'on' || tokens[0] === 'off')) return true
  if (tokens.at(-1) === 'webauthn') tokens.pop()
  if (tokens[0]?.startsWith('section-')) tokens.shift()
  if (tokens[0] === 'shipping' || tokens[0] === 'billing') tokens.shift()
  const field = tokens.pop()
  if (!field || !AUTOFILL_FIELDS.has(field)) return false
  if (tokens.length === 0) return true
  return (
    tokens.length === 1 && ['home', 'work', 'mobile', 'fax', 'pager'].includes(tokens[0]!) && CONTACT_FIELDS.has(field)
  )
}

function describe(element: Cheerio<Element>): string {
  const tag = element.prop('tagName')?.toLowerCase() ?? 'element'
  const type = element.attr('type')
  const name = element.attr('name')
  const id = element.attr('id')
  return `<${tag}${type ? ` type="${type}"` : ''}${name ? ` name="${name}"` : ''}${id ? ` id="${id}"` : ''}>`
}
