/**
 * Nesting bounds checked before a parser allocates: a 40 KB body nested 20,000 deep costs a recursive parser
 * gigabytes, while this scan costs one pass over the text and no allocation.
 */

/** Deepest nesting any JSON we accept (request bodies, remote documents) may have. */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d

/**
 * Whether JSON text opens more than `maxDepth` objects or arrays inside one another. Brackets inside strings do
 * not count; the text need not be valid JSON (the parser that runs afterwards judges that).
 */
export function jsonNestingExceeds(text: string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === BACKSLASH) index++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) inString = true
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxDepth) return true
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--
  }
  return false
}

const LESS_THAN = 0x3c
const GREATER_THAN = 0x3e
const SLASH = 0x2f
const BANG = 0x21
const QUESTION = 0x3f
const APOSTROPHE = 0x27

/**
 * Whether XML text opens more than `maxDepth` elements inside one another. Comments, CDATA sections, processing
 * instructions and declarations are skipped, quoted attribute values may hold `>`, `<x/>` opens nothing. One pass,
 * no allocation; the text need not be well-formed (the parser that runs afterwards judges that).
 */
export function xmlNestingExceeds(text: string, maxDepth: number): boolean {
  let depth = 0
  let index = text.indexOf('<')
  while (index !== -1 && index < text.length) {
    const next = text.charCodeAt(index + 1)
    if (next === BANG) {
      // <!-- … -->, <![CDATA[ … ]]>, <!DOCTYPE …>: nothing in them opens an element.
      const close = text.startsWith('<!--', index)
        ? text.indexOf('-->', index + 4)
        : text.startsWith('<![CDATA[', index)
          ? text.indexOf(']]>', index + 9)
          : text.indexOf('>', index + 2)
      if (close === -1) return false
      index = text.indexOf('<', close)
      continue
    }
    if (next === QUESTION) {
      const close = text.indexOf('?>', index + 2)
      if (close === -1) return false
      index = text.indexOf('<', close)
      continue
    }
    const closing = next === SLASH
    // The end of the tag, stepping over quoted attribute values.
    let position = index + 1
    let quote = 0
    for (; position < text.length; position++) {
      const code = text.charCodeAt(position)
      if (quote !== 0) {
        if (code === quote) quote = 0
      } else if (code === QUOTE || code === APOSTROPHE) quote = code
      else if (code === GREATER_THAN || code === LESS_THAN) break
    }
    if (closing) depth--
    else if (text.charCodeAt(position - 1) !== SLASH || text.charCodeAt(position) !== GREATER_THAN) {
      if (++depth > maxDepth) return true
    }
    index = text.indexOf('<', text.charCodeAt(position) === GREATER_THAN ? position + 1 : position)
  }
  return false
}
