/**
 * Content Signals (contentsignals.org, draft-romm-aipref-contentsignals) and IETF AIPREF `Content-Usage`
 * (draft-ietf-aipref-vocab, draft-ietf-aipref-attach) preference lines, as written in robots.txt groups.
 */

export type SignalForm = 'Content-Signal' | 'Content-Usage'

export interface SignalPair {
  key: string
  value: string
  /** The pair grants the use (`yes` / `y`); false for `no` / `n` and for values that are not a preference. */
  grants: boolean
}

export interface ParsedSignal {
  pairs: SignalPair[]
  /** What is wrong with the line, one entry per problem ("unknown key \"foo\""); empty when it is valid. */
  problems: string[]
  /** Content-Usage only: the path the preference is scoped to (`Content-Usage: /news/ train-ai=n`). */
  path?: string
}

const KEYS: Record<SignalForm, readonly string[]> = {
  'Content-Signal': ['search', 'ai-input', 'ai-train'],
  'Content-Usage': ['bots', 'train-ai', 'train-genai', 'ai-use', 'search'],
}
/** Cloudflare's managed robots.txt emits `use=immediate|reference|full`; accepted without judgement (checks.md §3). */
const UNJUDGED_KEYS = new Set(['use'])
const YES = new Set(['yes', 'y'])
const NO = new Set(['no', 'n'])

export function parseSignal(raw: string, form: SignalForm): ParsedSignal {
  let text = raw.trim()
  let path: string | undefined
  if (form === 'Content-Usage' && text.startsWith('/')) {
    const space = text.search(/\s/)
    path = space < 0 ? text : text.slice(0, space)
    text = space < 0 ? '' : text.slice(space).trim()
  }
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
    const value = item.slice(separator + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase()
    if (UNJUDGED_KEYS.has(key)) {
      pairs.push({ key, value, grants: false })
      continue
    }
    if (!KEYS[form].includes(key)) problems.push(`unknown key "${key}" (known: ${KEYS[form].join(', ')})`)
    else if (!YES.has(value) && !NO.has(value)) problems.push(`${key}=${value || '(empty)'} is not yes/no or y/n`)
    pairs.push({ key, value, grants: YES.has(value) })
  }
  return { pairs, problems, ...(path ? { path } : {}) }
}
