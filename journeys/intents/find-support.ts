import { defineIntent, type FetchedPage } from '../types.ts'
import { answerFrom, completedPages, judgement, readable, topicOf } from '../judging.ts'

const EMAIL = /\b[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b/i
/** Pages whose job is to say how to reach people; an address quoted in a blog post or a code sample is not one. */
const TOPIC = /contact|support|help|about|team|imprint|impressum|get in touch/i

/** A form that sends a message: somewhere to write it and a way to be answered. */
function contactForm(page: FetchedPage): FetchedPage['forms'][number] | undefined {
  return page.forms.find(
    (form) =>
      form.method === 'post' &&
      form.fields.some((field) =>
        /^(message|body|comment|question|enquiry|inquiry|description|details)\b/.test(field),
      ) &&
      form.fields.some((field) => /email|phone/.test(field)),
  )
}

/** The addresses a page gives (mailto: and JSON-LD first, then the text of a contact page), and its contact form. */
function contact(page: FetchedPage): string {
  const emails =
    page.emails.length > 0
      ? page.emails
      : TOPIC.test(topicOf(page))
        ? [...new Set(page.text.match(new RegExp(EMAIL.source, 'gi')) ?? [])].map((email) => email.toLowerCase())
        : []
  const form = contactForm(page)
  const parts = [
    ...(emails.length > 0 ? [`email ${emails.slice(0, 3).join(', ')}`] : []),
    ...(form ? [`contact form at ${page.finalUrl} (posts to ${form.action})`] : []),
  ]
  return `Contact: ${parts.join('; ')}.`
}

/**
 * Found when a page gives a way to reach the people behind the site: a mailto: link or a JSON-LD contact email
 * anywhere, an address in the text of a contact, support or about page, or a contact form. A newsletter sign-up
 * (an email field and nothing to say) is not.
 */
export default defineIntent({
  meta: {
    id: 'find-support',
    title: 'Find support',
    prompt: 'How can I contact {domain} for help? Find a support email, a contact form or a contact page.',
    layers: ['experience'],
    keywords: ['contact', 'support', 'help', 'about', 'feedback'],
    paths: ['/contact', '/support', '/help', '/about'],
    relatedChecks: ['structured-data-jsonld', 'accessible-forms', 'llms-txt'],
  },
  judge(_trajectory, evidence) {
    const reachable = completedPages(evidence).filter(
      (page) =>
        readable(page) &&
        (contactForm(page) !== undefined ||
          page.emails.length > 0 ||
          (TOPIC.test(topicOf(page)) && EMAIL.test(page.text))),
    )
    return judgement(
      reachable,
      (page) => `${page.finalUrl} says how to reach the team.`,
      'No page the agent could read gives a contact email or form.',
      ([page]) => answerFrom(page!, contact(page!)),
    )
  },
})
