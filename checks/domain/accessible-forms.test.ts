import { describe, expect, test } from 'bun:test'
import { context, htmlPage } from '../../tests/support/artifacts.ts'
import check from './accessible-forms.ts'

const page = (body: string, url = 'https://acme.test/') => htmlPage(`<html><body>${body}</body></html>`, { url })

const LABELLED = `<form>
  <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email">
  <label>Message <textarea name="message"></textarea></label>
  <select name="plan" aria-label="Plan"><option>Pro</option></select>
  <input type="hidden" name="csrf" value="x">
  <input type="submit">
</form>`

describe('accessible-forms', () => {
  test.each([
    ['every field labelled and named', 'pass', page(LABELLED), null],
    [
      'one of five items unnamed (80%)',
      'warning',
      page(LABELLED.replace('<input type="submit">', '<input name="q" placeholder="Search"><input type="submit">')),
      null,
    ],
    [
      'unlabelled fields and an icon button',
      'fail',
      page('<form><input name="q"><input type="text"><button><svg></svg></button></form>'),
      null,
    ],
    [
      'an invalid autocomplete token counts against the field',
      'fail',
      page('<label>Email <input name="e" autocomplete="e-mail"></label>'),
      null,
    ],
    [
      'no form fields on the homepage or docs',
      'na',
      page('<a href="/">Home</a><button>Menu</button>'),
      page('<p>Docs</p>', 'https://acme.test/docs'),
    ],
    [
      'the docs page is sampled too',
      'fail',
      page('<p>No forms</p>'),
      page('<form><input name="q"></form>', 'https://acme.test/docs'),
    ],
  ] as const)('%s -> %s', (_name, expected, homepage, docsPage) => {
    const outcome = check.run({ homepage, docsPage }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'na') expect(outcome.naReason).toBeString()
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('reports the ratio and names the offending fields', () => {
    const outcome = check.run(
      {
        homepage: page('<form><label>Name <input name="name"></label><input type="text" id="x"></form>'),
        docsPage: null,
      },
      context,
    )
    expect(outcome.fraction).toBe(0.5)
    expect(outcome.occurrences).toBe(2)
    expect(outcome.details).toContain('<input type="text" id="x">')
    expect(outcome.recommendation).toContain('no label, no name attribute')
  })

  test('hidden fields are ignored, aria-labelledby names a field', () => {
    const outcome = check.run(
      {
        homepage: page(
          '<span id="lbl">Search</span><input name="q" aria-labelledby="lbl"><div hidden><input name="x"></div><input name="y" style="display:none">',
        ),
        docsPage: null,
      },
      context,
    )
    expect(outcome.status).toBe('pass')
    expect(outcome.occurrences).toBe(1)
  })
})
