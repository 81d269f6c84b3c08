// robots.txt lines or the homepage's Content-Usage header carry valid Content-Signal (Cloudflare) or Content-Usage
// (IETF AIPREF) preferences that agree with the crawl rules.
// Spec: https://contentsignals.org/, https://datatracker.ietf.org/doc/draft-ietf-aipref-attach/ (attach-05) and
// https://datatracker.ietf.org/doc/draft-ietf-aipref-vocab/ (vocab-07); the AIPREF documents are still drafts.
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { AIPREF_LABELS, parseSignal, type SignalForm } from '../lib/content-signals.ts'

/** Lighthouse 12's robots.txt audit knows neither line (its list of directives predates them). */
const LIGHTHOUSE_TRADE =
  'Lighthouse 12\'s robots.txt audit reports a Content-Signal or Content-Usage line as an unknown directive and lowers the SEO score, so if that score matters send the preference as a "Content-Usage: train-ai=n, search=y" HTTP response header instead.'
const ADD_SIGNAL = `Add "Content-Signal: search=yes, ai-input=yes, ai-train=no" (with your own yes/no choices) under "User-agent: *" in robots.txt, or the IETF form "Content-Usage: train-ai=n, search=y". ${LIGHTHOUSE_TRADE}`

interface Statement {
  form: SignalForm
  value: string
  /** "line 4" or "the Content-Usage header of /". */
  where: string
  source: 'robots' | 'header'
  /** The robots.txt group's product tokens; none for the header, which is not scoped to crawlers. */
  agents: string[]
}

export default defineCheck({
  meta: {
    id: 'content-signals',
    name: 'Content Signals / Content-Usage',
    description:
      'Content-Signal (search, ai-input, ai-train) or IETF Content-Usage (train-ai, search) preferences, in robots.txt or the Content-Usage response header, tell agents which uses of the content are welcome, beyond whether they may crawl it.',
    layer: 'accessibility',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    draft: true,
    maxScore: 4,
    specUrl: 'https://contentsignals.org/',
    recommendation: ADD_SIGNAL,
    needs: ['robots', 'homepage'],
  },
  run({ robots, homepage }) {
    const header = homepage.headers['content-usage']
    const statements: Statement[] = robots.groups.flatMap((group) => [
      ...group.contentSignals.map((entry) => ({
        form: 'Content-Signal' as const,
        value: entry.value,
        where: `line ${entry.line}`,
        source: 'robots' as const,
        agents: group.agents,
      })),
      ...group.contentUsage.map((entry) => ({
        form: 'Content-Usage' as const,
        value: entry.value,
        where: `line ${entry.line}`,
        source: 'robots' as const,
        agents: group.agents,
      })),
    ])
    if (header !== undefined)
      statements.push({
        form: 'Content-Usage',
        value: header,
        where: 'the Content-Usage header of /',
        source: 'header',
        agents: [],
      })
    if (statements.length === 0) {
      if (!robots.found)
        return na(
          'No robots.txt and no Content-Usage header to carry content signals (robots.txt is reported by robots-txt)',
        )
      return fail(
        `robots.txt has ${robots.groups.length} group(s) but no Content-Signal or Content-Usage line, and / sends no Content-Usage header`,
        ADD_SIGNAL,
      )
    }
    const malformed: string[] = []
    const contradictions: string[] = []
    const ignored = new Set<string>()
    for (const statement of statements) {
      const parsed = parseSignal(statement.value, statement.form, statement.source)
      parsed.ignored?.forEach((label) => ignored.add(label))
      if (parsed.problems.length)
        malformed.push(`${statement.where} (${statement.form}: ${statement.value}): ${parsed.problems.join(', ')}`)
      const granted = parsed.pairs.filter((pair) => pair.grants).map((pair) => `${pair.key}=${pair.value}`)
      const path = parsed.path ?? '/'
      const refused = statement.agents.filter((agent) => !robots.isAllowed(agent, path))
      if (granted.length && refused.length) {
        contradictions.push(
          `${statement.where} grants ${granted.join(', ')} but the group (${refused.join(', ')}) disallows ${path}`,
        )
      }
    }
    const summary = `${statements.length} signal(s): ${statements
      .map((statement) => `${statement.form}: ${statement.value}`)
      .slice(0, 3)
      .join(' | ')}${ignored.size ? `; labels outside the AIPREF vocabulary ignored: ${[...ignored].join(', ')}` : ''}`
    if (malformed.length || contradictions.length) {
      return warn(
        `${summary}; ${[...malformed, ...contradictions].join('; ')}`,
        [
          malformed.length
            ? `Use only the known keys: Content-Signal takes search, ai-input, ai-train with yes/no; Content-Usage takes the lower-case labels ${AIPREF_LABELS.join(' and ')} with exactly y or n (draft-ietf-aipref-vocab-07), as comma-separated key=value pairs`
            : '',
          contradictions.length
            ? "make each signal agree with its group's crawl rules (a use cannot be granted where crawling is disallowed)"
            : '',
        ]
          .filter(Boolean)
          .join('; and ') + '.',
      )
    }
    return pass(summary)
  },
})
