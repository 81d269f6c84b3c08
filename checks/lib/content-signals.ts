/**
 * Content Signals (contentsignals.org, draft-romm-aipref-contentsignals) and IETF AIPREF `Content-Usage`
 * (draft-ietf-aipref-vocab-07, draft-ietf-aipref-attach-05) preference statements, as written in robots.txt groups
 * or sent as the `Content-Usage` HTTP response header.
 */
import { type BareItem, parseDictionary, Token } from 'structured-headers'

export type SignalForm = 'Content-Signal' | 'Content-Usage'

export interface SignalPair {
  key: string
  value: string
  /** The pair grants the use (`yes` / `y`); false for `no` / `n` and for values that are not a preference. */
  grants: boolean
}

export interface ParsedSignal {
  pairs: SignalPair[]
  /** What is wrong with the statement, one entry per problem ("unknown key \"foo\""); empty when it is valid. */
  problems: string[]
  /** Content-Usage only: labels that carry no preference here and are ignored, as vocab-07 §6.4 requires. */
  ignored?: string[]
  /** Content-Usage in robots.txt only: the path the preference is scoped to (`Content-Usage: /news/ train-ai=n`). */
  path?: string
}

const CONTENT_SIGNAL_KEYS = ['search', 'ai-input', 'ai-train']
/** Cloudflare's managed robots.txt emits `use=immediate|reference|full`; accepted without judgement. */
const UNJUDGED_KEYS = new Set(['use'])
const YES = new Set(['yes', 'y'])
const NO = new Set(['no', 'n'])

/** The labels of the two usage categories of draft-ietf-aipref-vocab-07 (§6.1); labels are case-sensitive. */
export const AIPREF_LABELS = ['train-ai', 'search'] as const
/** Labels of earlier vocabulary drafts that vocab-07 no longer defines: unknown labels now, so ignored. */
const DROPPED_AIPREF_LABELS = ['train-genai', 'bots', 'ai-use']

function parseContentSignal(text: string): ParsedSignal {
  const pairs: SignalPair[] = []
  const problems: string[] = []
  if (!text) problems.push('no key=value pairs')
  for (const part of text ? text.split(',') : []) {
    const item = part.trim()
    const separator = item.indexOf('=')
    if (separator <= 0) {
      problems.push(`"${item}" has no "="`)
      continue
    }
    const key = item.slice(0, separator).trim().toLowerCase()
    const value = item
      .slice(separator + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase()
    if (UNJUDGED_KEYS.has(key)) {
      pairs.push({ key, value, grants: false })
      continue
    }
    if (!CONTENT_SIGNAL_KEYS.includes(key))
      problems.push(`unknown key "${key}" (known: ${CONTENT_SIGNAL_KEYS.join(', ')})`)
    else if (!YES.has(value) && !NO.has(value)) problems.push(`${key}=${value || '(empty)'} is not yes/no or y/n`)
    pairs.push({ key, value, grants: YES.has(value) })
  }
  return { pairs, problems }
}

const describeItem = (value: BareItem): string =>
  value instanceof Token
    ? value.toString()
    : typeof value === 'string'
      ? `"${value}"`
      : typeof value === 'boolean'
        ? `?${value ? 1 : 0}`
        : String(value)

/**
 * vocab-07 §6: the statement is an RFC 9651 Dictionary; only the Tokens `y` and `n` state a preference for a
 * vocabulary label, anything else leaves it unknown. A Dictionary that does not parse (an upper-case key such as
 * `Train-AI`) states nothing at all. Unknown labels are ignored, never an error.
 */
function parseContentUsage(text: string): ParsedSignal {
  if (!text) return { pairs: [], problems: ['no preference (an empty statement)'], ignored: [] }
  let dictionary: ReturnType<typeof parseDictionary>
  try {
    dictionary = parseDictionary(text)
  } catch {
    const hint = /[A-Z]/.test(text) ? ': labels are case-sensitive and lower-case ("train-ai", not "Train-AI")' : ''
    return {
      pairs: [],
      problems: [`does not parse as a Structured Fields dictionary, so every preference is unknown${hint}`],
      ignored: [],
    }
  }
  const pairs: SignalPair[] = []
  const problems: string[] = []
  for (const label of AIPREF_LABELS) {
    const member = dictionary.get(label)
    if (!member) continue
    const value = member[0]
    if (Array.isArray(value)) {
      problems.push(`${label} is an inner list, not y or n: the preference is unknown`)
      continue
    }
    const token = value instanceof Token ? value.toString() : null
    if (token === 'y' || token === 'n') pairs.push({ key: label, value: token, grants: token === 'y' })
    else problems.push(`${label}=${describeItem(value)} is not y or n: the preference is unknown`)
  }
  const ignored = [...dictionary.keys()].filter((key) => !(AIPREF_LABELS as readonly string[]).includes(key))
  const stated = AIPREF_LABELS.some((label) => dictionary.has(label))
  const dropped = ignored.filter((key) => DROPPED_AIPREF_LABELS.includes(key))
  if (!stated && dropped.length) {
    problems.push(`only labels the vocabulary dropped (${dropped.join(', ')}); it keeps ${AIPREF_LABELS.join(' and ')}`)
  } else if (dictionary.size === 0) {
    problems.push('no preference (an empty statement)')
  }
  return { pairs, problems, ignored }
}

/**
 * Parses one statement. `robots` is a robots.txt line value, where a Content-Usage statement may start with the
 * path it is scoped to (attach-05 §3.2); `header` is the HTTP field value, which has no path.
 */
export function parseSignal(raw: string, form: SignalForm, where: 'robots' | 'header' = 'robots'): ParsedSignal {
  let text = raw.trim()
  if (form === 'Content-Signal') return parseContentSignal(text)
  let path: string | undefined
  if (where === 'robots' && text.startsWith('/')) {
    const space = text.search(/[ \t]/)
    path = space < 0 ? text : text.slice(0, space)
    text = space < 0 ? '' : text.slice(space).trim()
  }
  return { ...parseContentUsage(text), ...(path ? { path } : {}) }
}
