/**
 * Characters no client text of ours may carry: NUL (PostgreSQL `text` cannot store it, so it would end as a
 * driver error), the other C0 controls except tab, line feed and carriage return (nothing a person types; they
 * forge log lines and mail headers), and unpaired UTF-16 surrogates (not Unicode text; encoders replace them).
 */
const INVALID_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|\p{Cs}/u

export const INVALID_TEXT_MESSAGE =
  'must not contain NUL, control characters other than tab, line feed and carriage return, or unpaired surrogates'

export function isValidText(value: string): boolean {
  return !INVALID_TEXT.test(value)
}

/**
 * Where the first string or object member name in a parsed JSON value that is not valid text sits (`query.filter.tags.0`;
 * for a member name, the object holding it), or null when all are valid. Recursion is bounded by the nesting check
 * the parser runs first.
 */
export function findInvalidText(value: unknown): string | null {
  const path = invalidTextPath(value)
  return path === null ? null : path.reverse().join('.')
}

/** The path of the first invalid text, innermost step first, built only on the way out of a hit. */
function invalidTextPath(value: unknown): (string | number)[] | null {
  if (typeof value === 'string') return isValidText(value) ? null : []
  if (typeof value !== 'object' || value === null) return null
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const path = invalidTextPath(value[index])
      if (path !== null) {
        path.push(index)
        return path
      }
    }
    return null
  }
  for (const [key, entry] of Object.entries(value)) {
    if (!isValidText(key)) return []
    const path = invalidTextPath(entry)
    if (path !== null) {
      path.push(key)
      return path
    }
  }
  return null
}
