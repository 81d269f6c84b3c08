import { describe, expect, test } from 'bun:test'
import { load } from 'cheerio'
import type { RenderedPage } from '../../core/engine/collectors/rendered.ts'
import { context, sampledPageContext } from '../../tests/support/artifacts.ts'
import check from './stable-selectors.ts'

function rendered(body: string): RenderedPage {
  const html = `<html><body>${body}</body></html>`
  return { url: 'https://acme.test/', html, $: load(html), webmcpTools: [], textLength: body.length }
}

const STABLE = [
  '<a href="/pricing">Pricing</a>',
  '<button data-testid="signup">Sign up</button>',
  '<input name="email">',
  '<button>Start free trial</button>',
  '<button aria-label="Open menu"><svg></svg></button>',
  '<select id="plan"><option>Pro</option></select>',
  '<textarea name="message"></textarea>',
  '<input type="hidden" name="csrf">',
]

describe('stable-selectors', () => {
  test.each([
    ['every element has a stable hook', 'pass', STABLE.join('')],
    [
      'two pseudo-links among nine (78%)',
      'warning',
      [...STABLE, '<a href="#" onclick="go()">Go</a>', '<a href="#">Top</a>'].join(''),
    ],
    [
      'hashed classes and javascript: links',
      'fail',
      '<button class="css-1x2y3z4">Go</button><div role="button" class="sc-abcdef">x</div><a href="javascript:void(0)">More</a><input id=":r1:"><a href="/a">A</a>',
    ],
    ['no interactive elements', 'na', '<p>Just text</p>'],
  ] as const)('%s -> %s', (_name, expected, body) => {
    const outcome = check.run({ rendered: rendered(body) }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('reports the ratio, the count and the kinds of unstable elements', () => {
    const outcome = check.run(
      {
        rendered: rendered(
          '<button class="css-1x2y3z4">Go</button><a href="#">Top</a><a href="/a">A</a><a href="/b">B</a>',
        ),
      },
      context,
    )
    expect(outcome.fraction).toBe(0.5)
    expect(outcome.occurrences).toBe(4)
    expect(outcome.details).toContain('1 href="#" or javascript: links')
    expect(outcome.details).toContain('1 elements identified only by generated class names')
  })
})

describe('stable-selectors on a sampled page', () => {
  test('names the rendered page, not the homepage', () => {
    const page = rendered('<a href="#">Go</a><div class="x1a2b3c" role="button"></div>')
    expect(check.run({ rendered: page }, sampledPageContext).details).toContain(
      'on the rendered page /docs/intro have a stable hook',
    )
    expect(check.run({ rendered: page }, context).details).toContain('on the rendered homepage have a stable hook')
  })
})
