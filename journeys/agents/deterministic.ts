import {
  type AgentDefinition,
  type AgentIdentity,
  answerText,
  defineAgent,
  type FetchedPage,
  NO_USAGE,
  type StepSource,
} from '../types.ts'
import { SELF } from '../identities.ts'
import { onSite } from '../insights.ts'
import type { FetchIntent } from '../session.ts'

interface Candidate {
  url: string
  how: FetchIntent
  score: number
  /** Discovery order: ties go to what was found first, so the same site always gives the same walk. */
  order: number
}

/** How much each kind of pointer is worth before relevance: an agent reads the machine-facing ones first. */
const SOURCE_WEIGHT: Partial<Record<StepSource, number>> = {
  'well-known': 8,
  'llms-txt': 5,
  'link-header': 3,
  alternate: 3,
  sitemap: 1,
}
/** Well-known URIs (RFC 8615) and files with a conventional name: an agent knows them without a link. */
const REGISTERED_PATH = /^\/\.well-known\/|\.[a-z]+$/
/** rel values that name machine-readable descriptions of the site: a tie-breaker among relevant pointers. */
const MACHINE_RELS = /\b(service-desc|service-doc|api-catalog|alternate|describedby|llms-txt|mcp|ai-catalog)\b/

/** What a pointer matching only an intent's fallback keywords is worth: less than any pointer matching its keywords. */
const FALLBACK_SCORE = 0.5

/**
 * The built-in agent: no model, no randomness. It reads a site the way an agent does (robots.txt first, then the
 * home page, llms.txt, the sitemap, the intent's well-known locations, links by their text and rel, Link headers),
 * always takes the most relevant unvisited pointer (ties by discovery order), renders a page in Chromium when its
 * content needs JavaScript, and stops when the intent is settled, nothing relevant is left, the budget is spent
 * or a challenge met. Its answer is the one the intent's judge draws from the evidence, with the page it came
 * from. The same site therefore gives the same trajectory and answer every time.
 */
export function createDeterministicAgent(
  meta: Pick<AgentDefinition['meta'], 'id' | 'label' | 'public'>,
  identity: AgentIdentity,
): AgentDefinition {
  return defineAgent({
    meta: { ...meta, harness: 'builtin', model: 'deterministic', identity },
    run: walk,
  })
}

export default createDeterministicAgent(
  { id: 'deterministic', label: 'Built-in deterministic agent', public: true },
  SELF,
)

async function walk(run: Parameters<AgentDefinition['run']>[0]): ReturnType<AgentDefinition['run']> {
  const { tools, intent, origin } = run
  const keywords = intent.meta.keywords.map((word) => word.toLowerCase())
  const fallback = (intent.meta.fallbackKeywords ?? []).map((word) => word.toLowerCase())
  const frontier = new Map<string, Candidate>()
  let order = 0

  const count = (words: readonly string[], text: string) => {
    const haystack = text.toLowerCase()
    return words.reduce((sum, word) => sum + (haystack.includes(word) ? 1 : 0), 0)
  }
  const relevance = (text: string) => count(keywords, text)
  const offer = (url: string, how: FetchIntent, score: number) => {
    if (tools.seen(url) || score <= 0) return
    const known = frontier.get(url)
    if (known && known.score >= score) return
    frontier.set(url, { url, how, score, order: known?.order ?? order++ })
  }
  const follow = (page: FetchedPage) => {
    for (const link of page.links) {
      const host = new URL(link.url).host
      const local = onSite(host, run.domain)
      const source: StepSource =
        link.rel === 'sitemap-entry'
          ? 'sitemap'
          : /llms(-full)?\.txt$/.test(page.url)
            ? 'llms-txt'
            : page.headers.link?.includes(link.url) && !link.text
              ? 'link-header'
              : /alternate/.test(link.rel)
                ? 'alternate'
                : 'link'
      const path = new URL(link.url).pathname.replace(/[-_/.]/g, ' ')
      const matched = 3 * relevance(`${link.text} ${link.rel}`) + 2 * relevance(path)
      // Where a pointer came from only matters once it is relevant: a site's api-catalog is no help to find its terms.
      const bonus = matched > 0 ? (SOURCE_WEIGHT[source] ?? 0) + (MACHINE_RELS.test(link.rel) ? 1 : 0) : 0
      const score =
        matched > 0
          ? matched * (local ? 1 : 0.3) + bonus
          : local && count(fallback, `${link.text} ${path}`) > 0
            ? FALLBACK_SCORE
            : 0
      offer(link.url, { source, anchor: link.text || link.rel || undefined, parentId: page.stepId }, score)
    }
  }

  run.say(`Task: ${run.prompt}`, 'Task')
  tools.nextTurn()
  const home = await tools.fetchPage(`${origin}/`, { source: 'start' })
  let current = home
  if (home?.jsOnly) current = (await tools.renderPage(`${origin}/`, { source: 'start', parentId: home.stepId })) ?? home
  if (current) follow(current)
  // Registered locations (/.well-known/…, files such as /openapi.json) are where an agent looks first; a guessed
  // page path (/contact) comes after a visible link that says what it is.
  intent.meta.paths.forEach((path, index) =>
    offer(
      new URL(path, origin).href,
      { source: 'well-known', anchor: path },
      (REGISTERED_PATH.test(path) ? 20 : 4.5) - index * 0.01,
    ),
  )
  offer(`${origin}/llms.txt`, { source: 'well-known', anchor: 'llms.txt' }, 6)
  offer(`${origin}/sitemap.xml`, { source: 'well-known', anchor: 'sitemap' }, 2)

  const settled = () => {
    const judged = run.judgement()
    return judged.settled ?? judged.satisfied
  }
  while (!settled() && run.hasBudget()) {
    const next = [...frontier.values()].sort((a, b) => b.score - a.score || a.order - b.order)[0]
    if (!next) break
    frontier.delete(next.url)
    tools.nextTurn()
    let page = await tools.fetchPage(next.url, next.how)
    if (page?.jsOnly && run.hasBudget())
      page = (await tools.renderPage(next.url, { ...next.how, parentId: page.stepId })) ?? page
    if (page && page.status < 400 && !page.challenged) follow(page)
  }

  const { answer } = run.judgement()
  const blocked = tools.challenged()
  const response = answer
    ? answerText(answer)
    : blocked
      ? tools.refusal(blocked)
        ? `The edge refused the agent at ${blocked.url} (${tools.refusal(blocked)}).`
        : `A bot challenge answered instead of ${blocked.url}.`
      : run.hasBudget()
        ? 'Nothing relevant was left to follow.'
        : 'The budget ran out.'
  run.say(response, answer ? 'Answer' : 'Gave up')
  return { response, usage: NO_USAGE }
}
