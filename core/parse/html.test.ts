import { describe, expect, test } from 'bun:test'
import { heapStats } from 'bun:jsc'
import { load } from 'cheerio'
import { boundHtml, loadBoundedHtml, MAX_HTML_CHARS, MAX_HTML_DEPTH, MAX_HTML_ELEMENTS } from './html.ts'

/** Depth of the DOM parse5 builds, walked iteratively (the point is that it may be deep). */
function domDepth(html: string): number {
  const $ = load(html)
  let max = 0
  const stack: [unknown, number][] = [[$.root()[0], 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    max = Math.max(max, depth)
    for (const child of (node as { children?: unknown[] }).children ?? []) stack.push([child, depth + 1])
  }
  return max
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop <b>not a tag</b></title>
<script>if (a < b && "<div>".length) document.write('<div><div><div>')</script>
<style>p > a { color: red }</style>
<!-- <div><div><div> in a comment -->
</head><body>
<ul>${'<li>item <a href="/x?a=1&b=2" title="a > b">link</a>'.repeat(300)}</ul>
<p>one<p>two<p>three
<table>${'<tr><td>cell<td>cell'.repeat(200)}</table>
<svg viewBox="0 0 10 10">${'<path d="M0 0L10 10"/>'.repeat(300)}</svg>
<select>${'<option>o'.repeat(200)}</select>
<dl>${'<dt>term<dd>definition'.repeat(200)}</dl>
<img src="a.png"><br><input name=q><textarea><div><div></textarea>
</body></html>`

describe('boundHtml', () => {
  test('a real-looking page (unclosed p, li, td, option, dt; svg; raw text; comments) is left whole', () => {
    expect(boundHtml(PAGE)).toEqual({ html: PAGE, cut: null })
  })

  test('its depth estimate of such a page stays close to the DOM parse5 builds', () => {
    let estimate = 0
    while (boundHtml(PAGE, { maxDepth: estimate }).cut === 'depth') estimate++
    // The DOM's depth counts the root, html, body and a text node, which the estimate leaves out; beyond those the
    // estimate is not below the real depth, and not wildly above it: unclosed p/li/td must not pile up.
    expect(estimate).toBeGreaterThanOrEqual(domDepth(PAGE) - 4)
    expect(estimate).toBeLessThan(15)
  })

  test.each([
    ['<div>', 1_000_000],
    ['<div/>', 1_000_000],
    ['<table><tr><td>', 300_000],
    ['<a><b>', 500_000],
    ['<span class="x">', 300_000],
  ])('5 MB of nested %s is cut at the depth bound and parses in well under a second', (unit, count) => {
    const html = `<!doctype html><body>${unit.repeat(count)}`
    const bounded = boundHtml(html)
    expect(bounded.cut).toBe('depth')
    const started = performance.now()
    const $ = load(bounded.html)
    expect($('body').text()).toBe('')
    expect(performance.now() - started).toBeLessThan(1_000)
    // parse5 adds implied elements (tbody), so its depth may pass the estimate somewhat, never by multiples.
    expect(domDepth(bounded.html)).toBeLessThan(MAX_HTML_DEPTH * 1.5)
  })

  test('a flood of elements is cut at the element bound', () => {
    const bounded = boundHtml(`<body>${'<br>'.repeat(1_250_000)}`)
    expect(bounded.cut).toBe('elements')
    expect(load(bounded.html)('br').length).toBe(MAX_HTML_ELEMENTS - 1)
  })

  test('self-closing tags count as empty only inside SVG and MathML', () => {
    expect(boundHtml(`<svg>${'<g/>'.repeat(10_000)}</svg>`, { maxDepth: 5 }).cut).toBeNull()
    expect(boundHtml('<div/>'.repeat(10), { maxDepth: 5 }).cut).toBe('depth')
  })

  test('end tags close up to their element; stray end tags change nothing', () => {
    expect(boundHtml('<div><span><i>x</div>'.repeat(1_000), { maxDepth: 3 }).cut).toBeNull()
    expect(boundHtml('</p></div>'.repeat(1_000) + '<div>x</div>', { maxDepth: 1 }).cut).toBeNull()
  })

  test('text past the size bound is left out', () => {
    const bounded = boundHtml(`<p>${'x'.repeat(MAX_HTML_CHARS + 10)}</p>`)
    expect(bounded.cut).toBe('size')
    expect(bounded.html.length).toBe(MAX_HTML_CHARS)
  })

  test('an unterminated tag, comment or script ends the scan without a cut', () => {
    for (const html of ['<div class="x', '<!-- never closed <div><div>', '<script>while (1) { "<div>" }']) {
      expect(boundHtml(html, { maxDepth: 1 }).cut).toBeNull()
    }
  })
})

describe('loadBoundedHtml', () => {
  test('what the checks do with a page (selectors, text) works on 5 MB of nested tags without a stack overflow', () => {
    const $ = loadBoundedHtml(
      `<!doctype html><html><head><title>T</title></head><body>${'<div>'.repeat(1_000_000)}deep`,
    )
    expect($('title').text()).toBe('T')
    expect($('div').length).toBeGreaterThan(100)
    expect(() => $('body').text()).not.toThrow()
    expect(() => $.html()).not.toThrow()
  })

  test('a page of 900,000 characters of text, comments and attribute values holds about its size, not the parser’s ropes (~32 bytes a character)', () => {
    const run = 'a'.repeat(300_000)
    const html = `<!doctype html><html><body><p title="${run}">${run}</p><!--${run}--></body></html>`
    const heapMb = () => {
      Bun.gc(true)
      return heapStats().heapSize / 1024 / 1024
    }
    const before = heapMb()
    const $ = loadBoundedHtml(html)
    const held = heapMb() - before
    expect($('p').text().length).toBe(run.length)
    // Unflattened, the three 300,000-character strings hold ~29 MB of rope nodes.
    expect(held).toBeLessThan(8)
  })
})
