/**
 * Parsers for what a scanned site sends, bounded in size, nesting and (YAML) node count and aliases before they
 * allocate. A document over a bound throws ParseLimitError, a SyntaxError, so every caller that treats a parse
 * failure as "not valid JSON / YAML" treats an oversized or overnested document the same way.
 *
 * Why these numbers: JSON.parse is cheap per byte, but code walking the result recurses, so depth is the bound
 * that matters. The `yaml` package builds a CST, then an AST, then the JS value: 100-200 bytes of memory per byte
 * of input, far more for deep flow nesting (1 MB of `{"a":` costs it gigabytes), quadratic time in duplicate-key
 * checks and superlinear time in nested complex keys; so YAML is bounded tighter, on nesting and on node count,
 * from one pass of its own lexer (linear, no tree).
 */
import { Lexer, parse as parseYamlText } from 'yaml'
import { jsonNestingExceeds, MAX_JSON_DEPTH } from './nesting.ts'

/** Characters of a remote document any of these parsers reads: the outbound client's default body cap. */
export const MAX_DOCUMENT_CHARS = 5 * 1024 * 1024
/** Characters of YAML parsed at all (the lexer pass and the parse): beyond, a document is refused unread. */
export const MAX_YAML_CHARS = 2 * 1024 * 1024
/** Scalars and collections in one YAML text; a 60,000-node OpenAPI document (about 1 MB) costs the parser ~70 MB. */
export const MAX_YAML_NODES = 60_000
/** Deepest nesting of YAML collections, block and flow together. */
export const MAX_YAML_DEPTH = MAX_JSON_DEPTH
/** The `yaml` package's weighted alias budget (aliases resolved × nodes they stand for). */
export const MAX_YAML_ALIASES = 100

export type ParseLimit = 'size' | 'depth' | 'nodes' | 'aliases'

/** A document refused for its shape before it was parsed. A SyntaxError: to callers, a document that did not parse. */
export class ParseLimitError extends SyntaxError {
  override readonly name = 'ParseLimitError'

  constructor(
    readonly limit: ParseLimit,
    message: string,
  ) {
    super(message)
  }
}

export interface JsonLimits {
  maxChars?: number
  maxDepth?: number
}

/**
 * JSON.parse behind a size and a nesting bound; throws ParseLimitError over a bound and JSON's SyntaxError when the
 * text is not JSON.
 */
export function parseBoundedJson(
  text: string,
  { maxChars = MAX_DOCUMENT_CHARS, maxDepth = MAX_JSON_DEPTH }: JsonLimits = {},
): unknown {
  if (text.length > maxChars) throw new ParseLimitError('size', `the document is longer than ${maxChars} characters`)
  if (jsonNestingExceeds(text, maxDepth))
    throw new ParseLimitError('depth', `the document nests more than ${maxDepth} levels deep`)
  return JSON.parse(text)
}

/** parseBoundedJson without throwing: `undefined` when the text is not JSON or is over a bound. */
export function tryParseBoundedJson(text: string, limits?: JsonLimits): unknown {
  try {
    return parseBoundedJson(text, limits)
  } catch {
    return undefined
  }
}

export interface YamlLimits {
  maxChars?: number
  maxDepth?: number
  maxNodes?: number
  maxAliasCount?: number
}

/**
 * The first bound a YAML text passes, from one pass of the `yaml` lexer (which allocates only its tokens' strings):
 * flow nesting is counted exactly; block nesting is the stack of indicator and key columns (each deeper block
 * collection sits at a greater column than its parent), so `- - - x` on one line and ever-deeper indentation both
 * count. Null when the text is within every bound. The text need not be valid YAML.
 */
export function yamlShapeProblem(
  text: string,
  { maxChars = MAX_YAML_CHARS, maxDepth = MAX_YAML_DEPTH, maxNodes = MAX_YAML_NODES }: YamlLimits = {},
): ParseLimitError | null {
  if (text.length > maxChars)
    return new ParseLimitError('size', `the YAML document is longer than ${maxChars} characters`)
  const blocks: { column: number; seq: boolean }[] = []
  let flow = 0
  let column = 0
  let lineStart = true
  /** Column where the current node (a would-be key) began on this line; -1 when none has. */
  let nodeStart = -1
  let nodes = 0
  let afterScalarMarker = false
  for (const token of new Lexer().lex(text)) {
    const first = token.charCodeAt(0)
    // Zero-width markers the lexer interleaves: document, flow end, scalar start; BOM.
    if (token.length === 1 && (first === 0x02 || first === 0x18 || first === 0x1f || first === 0xfeff)) {
      if (first === 0x1f) afterScalarMarker = true
      continue
    }
    const scalar = afterScalarMarker
    afterScalarMarker = false
    if (!scalar && (token === '\n' || token === '\r\n')) {
      column = 0
      lineStart = true
      nodeStart = -1
      continue
    }
    if (!scalar && lineStart && flow === 0 && first === 0x20) {
      // Indentation: the rest of the line sits at this column.
      column += token.length
      continue
    }
    if (lineStart && flow === 0 && first !== 0x23 /* # comment */) {
      while (blocks.length > 0 && blocks[blocks.length - 1]!.column > column) blocks.pop()
    }
    lineStart = false
    if (scalar) {
      nodes++
      if (nodeStart === -1) nodeStart = column
    } else if (token === '---' || token === '...') {
      blocks.length = 0
      flow = 0
    } else if (token === '{' || token === '[') {
      nodes++
      if (++flow + blocks.length > maxDepth)
        return new ParseLimitError('depth', `the YAML document nests more than ${maxDepth} levels deep`)
    } else if (token === '}' || token === ']') {
      if (flow > 0) flow--
    } else if (flow === 0 && (token === '-' || token === '?' || token === ':')) {
      // A block collection opens at this column: at the indicator itself for `-` and `?`, at the key for `:`. A
      // sequence may sit at its parent mapping's column (`key:` then `- item`), so the kind counts too.
      const at = token === ':' && nodeStart !== -1 ? nodeStart : column
      const seq = token === '-'
      let top = blocks[blocks.length - 1]
      if (top?.column === at && top.seq && !seq) {
        // A key at a sequence's column: that sequence was the value of the mapping this key continues.
        blocks.pop()
        top = blocks[blocks.length - 1]
      }
      if (top?.column !== at || top.seq !== seq) {
        blocks.push({ column: at, seq })
        if (blocks.length + flow > maxDepth)
          return new ParseLimitError('depth', `the YAML document nests more than ${maxDepth} levels deep`)
      }
      nodeStart = -1
    } else if (first !== 0x20 && first !== 0x23 && nodeStart === -1 && flow === 0) {
      // An anchor, tag or quoted scalar starts the node.
      if (first === 0x22 || first === 0x27) nodes++
      nodeStart = column
    } else if (first === 0x22 || first === 0x27) {
      nodes++
    }
    if (nodes > maxNodes) return new ParseLimitError('nodes', `the YAML document has more than ${maxNodes} nodes`)
    const newline = token.lastIndexOf('\n')
    if (newline === -1) column += token.length
    else {
      // A multi-line scalar or block scalar: a token ending its line leaves the next one to start afresh.
      column = token.length - newline - 1
      if (column === 0) {
        lineStart = true
        nodeStart = -1
      }
    }
  }
  return null
}

/**
 * YAML parsed behind the bounds of yamlShapeProblem, with the alias budget and without the duplicate-key check
 * (quadratic in the number of keys; a later duplicate wins, as in JSON.parse). Throws ParseLimitError over a bound,
 * the `yaml` package's errors when the text is not YAML.
 */
export function parseBoundedYaml(text: string, limits: YamlLimits = {}): unknown {
  const problem = yamlShapeProblem(text, limits)
  if (problem) throw problem
  try {
    return parseYamlText(text, { maxAliasCount: limits.maxAliasCount ?? MAX_YAML_ALIASES, uniqueKeys: false })
  } catch (error) {
    // The package stops an alias bomb with a ReferenceError; to callers it is a document over a bound.
    if (error instanceof ReferenceError && /alias/i.test(error.message))
      throw new ParseLimitError('aliases', error.message)
    throw error
  }
}

/** Whether text starts like JSON (an object or an array), after whitespace and a BOM. */
export function looksLikeJson(text: string): boolean {
  return /^\uFEFF?\s*[{[]/.test(text.slice(0, 1024))
}

/**
 * A document that may be JSON or YAML (OpenAPI): JSON when it parses as JSON; YAML otherwise, unless it is
 * JSON-looking and was refused for its shape (YAML would only see the same nesting). Throws like the two parsers.
 */
export function parseBoundedJsonOrYaml(text: string, limits: JsonLimits & YamlLimits = {}): unknown {
  try {
    return parseBoundedJson(text, limits)
  } catch (error) {
    if (error instanceof ParseLimitError && looksLikeJson(text)) throw error
  }
  return parseBoundedYaml(text, limits)
}
