import { defineIntent, type IntentDefinition } from './types.ts'
import { completedPages, decodeSafely, pathOf, stepsOf } from './judging.ts'

/** Words that carry no topic: they would make every page relevant. */
const STOP_WORDS = new Set(
  'a an and are as at be by can could do does for find from get has have how i in is it its me my of on or our that the their there this to was what when where which who why will with you your'.split(
    ' ',
  ),
)

/** The topic words of a free-text task, lower case, in order, without repeats. */
export function topicWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []
  return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))]
}

/**
 * The intent behind a partner's free-text task (`intent.custom`). Its judge is necessarily coarse: done when a
 * page the agent read names at least half of the task's topic words (at least one) in its title, headings or
 * URL. Its keywords steer the deterministic agent; model-backed agents read the text itself.
 */
export function customIntent(text: string): IntentDefinition {
  const words = topicWords(text)
  const needed = Math.max(1, Math.ceil(words.length / 2))
  return defineIntent({
    meta: {
      id: 'custom',
      title: text,
      prompt: text,
      layers: ['discovery', 'experience'],
      keywords: words,
      paths: [],
      // Free text names no task the catalog knows: the run's observations name the checks.
      relatedChecks: [],
      // A task that asks for Markdown is served it where the site negotiates, as for the curated read-docs-markdown.
      ...(words.includes('markdown') ? { format: 'markdown' as const } : {}),
    },
    judge(_trajectory, evidence) {
      const matching = completedPages(evidence).filter((page) => {
        const heading = `${page.title} ${page.headings.join(' ')} ${decodeSafely(pathOf(page))}`.toLowerCase()
        return words.filter((word) => heading.includes(word)).length >= needed
      })
      const first = matching[0]
      return first
        ? {
            satisfied: true,
            reason: `${first.finalUrl} is about the task.`,
            evidence: stepsOf(matching),
            answer: {
              text: `${first.title || first.finalUrl}${first.description ? `: ${first.description}` : ''}`,
              source_url: first.finalUrl,
            },
          }
        : { satisfied: false, reason: 'No page the agent read is about the task.', evidence: [], answer: null }
    },
  })
}
