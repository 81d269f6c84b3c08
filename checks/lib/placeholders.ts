/**
 * The placeholders of the templates this service suggests (report remedies and check recommendations): a document
 * still carrying one was pasted without being written, and says nothing about the site it sits on.
 */
const PLACEHOLDERS: readonly RegExp[] = [
  /One sentence on what\b/i,
  /\(the full text of each documentation page, in order\)/i,
  /<(?:site|project)(?: or project)? name>/i,
  /\bone-line summary\b/i,
  /\[title\]\(url\)/i,
  /:\/\/…/,
]

/** The first template placeholder found in a text, as written there, or null. */
export function templatePlaceholder(text: string): string | null {
  for (const pattern of PLACEHOLDERS) {
    const match = pattern.exec(text)
    if (match) {
      const line = text
        .slice(text.lastIndexOf('\n', match.index) + 1)
        .split('\n', 1)[0]!
        .trim()
      return line.slice(0, 100)
    }
  }
  return null
}
