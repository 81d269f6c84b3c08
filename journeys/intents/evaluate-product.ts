import { defineIntent, type FetchedPage } from '../types.ts'
import { answerFrom, completedPages, judgement, pathOf, readable } from '../judging.ts'

/** Enough visible text to say what a product does, beyond a name and a navigation bar. */
const MIN_DESCRIPTION_CHARS = 300
/** Pages whose job is to say what the site offers. */
const OVERVIEW_PATH = /^\/($|index\.html?$|about|company|product|features|overview|why)/i

/** A sentence worth quoting: prose, not a navigation label. */
const SENTENCE = /[^.!?]{20,}?[.!?](?=\s|$)/g

/**
 * Two sentences from the site's own description of itself: its meta description, then its first paragraph
 * (llms.txt: its summary, then what follows), never words of ours.
 */
function twoSentences(page: FetchedPage): string {
  const sentences: string[] = []
  for (const match of `${page.description} ${page.lead}`.matchAll(SENTENCE)) {
    const sentence = match[0].trim()
    if (!sentences.includes(sentence)) sentences.push(sentence)
    if (sentences.length === 2) break
  }
  return sentences.length > 0 ? sentences.join(' ') : page.title
}

/**
 * Found when an overview page (home, about, product, features) describes the product in real text with a title,
 * or llms.txt gives a title and a summary. An app shell, a bare title or a soft-404 page is not a description.
 */
export default defineIntent({
  meta: {
    id: 'evaluate-product',
    title: 'Evaluate the product',
    prompt: 'What does {domain} offer? Describe its product or service in two sentences.',
    layers: ['discovery', 'experience'],
    keywords: ['about', 'product', 'features', 'overview', 'company', 'llms'],
    paths: ['/about', '/llms.txt'],
    relatedChecks: ['llms-txt', 'content-without-js', 'structured-data-jsonld', 'opengraph-metadata'],
  },
  judge(_trajectory, evidence) {
    const described = completedPages(evidence).filter((page) => {
      const path = pathOf(page)
      if (/llms\.txt$/i.test(path))
        return !/html/.test(page.contentType) && page.title.length > 0 && /^#\s.+\n+>\s*\S.{40,}/m.test(page.text)
      return (
        /html/.test(page.contentType) &&
        readable(page) &&
        page.title.length > 0 &&
        page.text.length >= MIN_DESCRIPTION_CHARS &&
        OVERVIEW_PATH.test(path)
      )
    })
    return judgement(
      described,
      (page) => `${page.finalUrl} describes what the product does.`,
      'No overview page or llms.txt summary the agent could read describes the product.',
      ([page]) => answerFrom(page!, twoSentences(page!)),
    )
  },
})
