import { describe, expect, test } from 'bun:test'
import { load } from 'cheerio'
import type { RenderedPage } from '../../core/engine/collectors/rendered.ts'
import { context, htmlPage } from '../../tests/support/artifacts.ts'
import check from './webmcp-tools.ts'

function rendered(body: string, webmcpTools: RenderedPage['webmcpTools'] = []): RenderedPage {
  const html = `<html><body>${body}</body></html>`
  return { url: 'https://acme.test/', html, $: load(html), webmcpTools, textLength: body.length }
}
const home = (body = '') => htmlPage(`<html><body>${body}</body></html>`)

describe('webmcp-tools', () => {
  test.each([
    [
      'tools registered at runtime',
      'pass',
      rendered('', [{ name: 'search', description: 'Search the catalogue' }]),
      home(),
    ],
    [
      'a declarative form in the static HTML',
      'pass',
      rendered(''),
      home('<form toolname="book" tooldescription="Book a demo"><input name="email"></form>'),
    ],
    [
      'a form added by JavaScript',
      'pass',
      rendered('<form toolname="search" tooldescription="Search docs"></form>'),
      home(),
    ],
    [
      'an inline registerTool call (the browser lacked WebMCP)',
      'pass',
      rendered(''),
      home(
        '<script>if (navigator.modelContext) navigator.modelContext.registerTool({name:"cart", description:"Add to cart"})</script>',
      ),
    ],
    ['tools without any description', 'fail', rendered('<form toolname="search"></form>', [{ name: 'x' }]), home()],
    ['nothing WebMCP', 'fail', rendered('<form><input name="q"></form>'), home('<form><input name="q"></form>')],
  ] as const)('%s -> %s', (_name, expected, renderedPage, homepage) => {
    const outcome = check.run({ rendered: renderedPage, homepage }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'fail') expect(outcome.recommendation).toBeString()
  })

  test('an unearned bonus names the forms it could expose', () => {
    const outcome = check.run({ rendered: rendered(''), homepage: home('<form><input name="q"></form>') }, context)
    expect(outcome.recommendation).toContain('(it has 1)')
  })
})
