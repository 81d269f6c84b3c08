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
