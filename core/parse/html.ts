/**
 * HTML handed to cheerio (parse5) bounded before it is parsed. parse5 costs ~500 bytes per element and ~45 bytes
 * per character of text, and time that grows with depth × elements (5 MB of nested `<div>` takes it minutes);
 * the DOM helpers the checks use (`.text()`, selectors) recurse, and overflow the stack past ~15,000 levels.
 * A document over a bound is cut where the bound was passed: the parser sees the well-behaved prefix, as a
 * browser that stopped reading there would, and the checks judge that.
 */
import { type CheerioAPI, load } from 'cheerio'
import type { AnyNode } from 'domhandler'

/** Characters of HTML parsed; the rest of a longer page is left out (1 MiB of text costs parse5 ~50 MB at its peak). */
export const MAX_HTML_CHARS = 1024 * 1024
/** Start tags parsed (void elements included); heavy real pages have a few thousand. */
export const MAX_HTML_ELEMENTS = 30_000
/** Open elements inside one another (Blink flattens at 512; real pages stay far below 100). */
export const MAX_HTML_DEPTH = 256

export interface HtmlLimits {
  maxChars?: number
  maxElements?: number
  maxDepth?: number
}

export interface BoundedHtml {
  html: string
  /** The bound that cut the document, null when it is whole. */
  cut: 'size' | 'elements' | 'depth' | null
}

const VOID = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])
/** Elements whose content is text up to their own end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript'])
/** Start tags that never add depth (the parser merges them into the existing html, head and body). */
const MERGED = new Set(['html', 'head', 'body'])
const BLOCK_CLOSES_P = [
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
]
/** Open elements a start tag closes implicitly when they are on top (the HTML parser's common cases, as htmlparser2 has them). */
const IMPLIED_CLOSE = new Map<string, Set<string>>([
  ...BLOCK_CLOSES_P.map((tag): [string, Set<string>] => [tag, new Set(['p'])]),
  ['li', new Set(['li', 'p'])],
  ['dt', new Set(['dt', 'dd', 'p'])],
  ['dd', new Set(['dt', 'dd', 'p'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['option', 'optgroup'])],
  ['tr', new Set(['tr', 'td', 'th'])],
  ['td', new Set(['td', 'th'])],
  ['th', new Set(['td', 'th'])],
  ['thead', new Set(['tbody', 'thead', 'tfoot', 'tr', 'td', 'th'])],
  ['tbody', new Set(['tbody', 'thead', 'tfoot', 'tr', 'td', 'th'])],
  ['tfoot', new Set(['tbody', 'thead', 'tfoot', 'tr', 'td', 'th'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['a', new Set(['a'])],
  ['button', new Set(['button'])],
  ['nobr', new Set(['nobr'])],
])

const isLetter = (code: number): boolean => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
const isSpace = (code: number): boolean =>
  code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d

/**
 * One pass over the tags of an HTML text, with the HTML parser's main nesting rules (void elements, raw-text
 * elements, implied end tags, end tags closing up to their match, self-closing tags only inside SVG and MathML):
 * the text cut before the start tag that passes the element or depth bound, or at the size bound. Linear in the
 * text; the open-element stack never exceeds the depth bound.
 */
export function boundHtml(
  html: string,
  { maxChars = MAX_HTML_CHARS, maxElements = MAX_HTML_ELEMENTS, maxDepth = MAX_HTML_DEPTH }: HtmlLimits = {},
): BoundedHtml {
  const sized = html.length > maxChars
  const text = sized ? html.slice(0, maxChars) : html
  const stack: string[] = []
  let foreign = 0
  let elements = 0
  let index = text.indexOf('<')
  while (index !== -1) {
    const next = text.charCodeAt(index + 1)
    if (next === 0x21 /* ! */) {
      const close = text.startsWith('<!--', index) ? text.indexOf('-->', index + 4) : text.indexOf('>', index + 2)
      if (close === -1) break
      index = text.indexOf('<', close)
      continue
    }
    const closing = next === 0x2f /* / */
    const nameStart = closing ? index + 2 : index + 1
    if (!isLetter(text.charCodeAt(nameStart))) {
      // `a < b`, `<?…>`, `</ 3>`: text or a bogus comment, neither opens anything.
      if (next === 0x3f || closing) {
        const close = text.indexOf('>', index + 1)
        if (close === -1) break
        index = text.indexOf('<', close)
      } else index = text.indexOf('<', index + 1)
      continue
    }
    let position = nameStart
    while (position < text.length) {
      const code = text.charCodeAt(position)
      if (isSpace(code) || code === 0x2f || code === 0x3e) break
      position++
    }
    const name = text.slice(nameStart, position).toLowerCase()
    // The attributes, to the `>` that ends the tag (quoted values may hold `>`).
    let selfClosing = false
    for (;;) {
      while (position < text.length && (isSpace(text.charCodeAt(position)) || text.charCodeAt(position) === 0x2f)) {
        selfClosing = text.charCodeAt(position) === 0x2f
        position++
      }
      if (position >= text.length || text.charCodeAt(position) === 0x3e) break
      selfClosing = false
      while (position < text.length) {
        const code = text.charCodeAt(position)
        if (isSpace(code) || code === 0x2f || code === 0x3e || code === 0x3d) break
        position++
      }
      while (position < text.length && isSpace(text.charCodeAt(position))) position++
      if (text.charCodeAt(position) !== 0x3d /* = */) continue
      position++
      while (position < text.length && isSpace(text.charCodeAt(position))) position++
      const quote = text.charCodeAt(position)
      if (quote === 0x22 || quote === 0x27) {
        const end = text.indexOf(String.fromCharCode(quote), position + 1)
        position = end === -1 ? text.length : end + 1
      } else {
        while (position < text.length && !isSpace(text.charCodeAt(position)) && text.charCodeAt(position) !== 0x3e)
          position++
      }
    }
    if (position >= text.length) break
    const tagEnd = position + 1

    if (closing) {
      const open = stack.lastIndexOf(name)
      if (open !== -1) {
        for (let popped = stack.length - 1; popped >= open; popped--)
          if (stack[popped] === 'svg' || stack[popped] === 'math') foreign--
        stack.length = open
      } else if (name === 'body' || name === 'html') {
        stack.length = 0
        foreign = 0
      }
      index = text.indexOf('<', tagEnd)
      continue
    }

    if (++elements > maxElements) return { html: text.slice(0, index), cut: 'elements' }
    if (foreign === 0) {
      const closes = IMPLIED_CLOSE.get(name)
      while (closes && stack.length > 0 && closes.has(stack[stack.length - 1]!)) stack.pop()
    }
    const opens = !VOID.has(name) && !MERGED.has(name) && !(selfClosing && foreign > 0)
    if (opens) {
      if (stack.length >= maxDepth) return { html: text.slice(0, index), cut: 'depth' }
      stack.push(name)
      if (name === 'svg' || name === 'math') foreign++
    }
    if (name === 'plaintext') break
    if (RAW_TEXT.has(name) && foreign === 0) {
      // Everything up to `</name` is text; the end tag then closes the element as usual.
      const pattern = new RegExp(`</${name}[\\s/>]`, 'gi')
      pattern.lastIndex = tagEnd
      const end = pattern.exec(text)
      if (!end) break
      index = end.index
      continue
    }
    index = text.indexOf('<', tagEnd)
  }
  return { html: text, cut: sized ? 'size' : null }
}

/**
 * Pages at least this long are followed by a full garbage collection: parse5 leaves ~40 bytes of garbage per
 * character it tokenizes (tens of MB for a page near MAX_HTML_CHARS), and JavaScriptCore lets such garbage pile up
 * across the several pages of one scan (home, docs, 404, pricing, the rendered home), which made parsing most of a
 * hostile scan's peak memory (bench/hostile.ts: ~180 MB without, ~145 MB with). A collection costs tens of ms, once
 * per large page.
 */
const COLLECT_AFTER_CHARS = MAX_HTML_CHARS / 4

/** cheerio's `load` over the bounded text, its strings flattened (see flattenStrings). */
export function loadBoundedHtml(html: string, limits?: HtmlLimits): CheerioAPI {
  const bounded = boundHtml(html, limits).html
  const $ = load(bounded)
  flattenStrings($.root().toArray())
  if (bounded.length >= COLLECT_AFTER_CHARS) Bun.gc(true)
  return $
}

/**
 * parse5 builds every text, comment and attribute value one character at a time (`chars += ch`), which JavaScriptCore
 * keeps as a rope: one ~32-byte node per character until the string is first read. A page artifact lives for the whole
 * scan, so 1 MiB of text would hold ~32 MB. Reading one character of each string turns its rope into a flat string
 * (the size of the text) and lets the nodes go. Iterative: the tree may be MAX_HTML_DEPTH deep.
 */
function flattenStrings(roots: AnyNode[]): void {
  const pending = [...roots]
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if ('data' in node) node.data.charCodeAt(0)
    if ('attribs' in node) for (const value of Object.values(node.attribs)) value.charCodeAt(0)
    if ('children' in node) pending.push(...node.children)
  }
}
