// robots.txt carries valid Content-Signal (Cloudflare) or Content-Usage (IETF AIPREF) preference lines that agree with its crawl rules.
// Spec: https://contentsignals.org/ and https://datatracker.ietf.org/doc/draft-ietf-aipref-attach/
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { parseSignal, type SignalForm } from '../lib/content-signals.ts'

export default defineCheck({
  meta: {
    id: 'content-signals',
    name: 'Content Signals / Content-Usage',
    description:
      'Content-Signal (search, ai-input, ai-train) or IETF Content-Usage lines in robots.txt tell agents which uses of the content are welcome, beyond whether they may crawl it.',
    layer: 'accessibility',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    draft: true,
    maxScore: 4,
    specUrl: 'https://contentsignals.org/',
    recommendation:
      'Add a line such as "Content-Signal: search=yes, ai-input=yes, ai-train=no" to the "User-agent: *" group of robots.txt.',
    needs: ['robots'],
  },
  run({ robots }) {
    if (!robots.found) return na('No robots.txt to carry content signals (reported by robots-txt)')
    const lines = robots.groups.flatMap((group) => [
      ...group.contentSignals.map((entry) => ({ ...entry, form: 'Content-Signal' as SignalForm, group })),
      ...group.contentUsage.map((entry) => ({ ...entry, form: 'Content-Usage' as SignalForm, group })),
    ])
    if (lines.length === 0) {
      return fail(
        `robots.txt has ${robots.groups.length} group(s) but no Content-Signal or Content-Usage line`,
        'Add "Content-Signal: search=yes, ai-input=yes, ai-train=no" (with your own yes/no choices) under "User-agent: *" in robots.txt.',
      )
    }
    const malformed: string[] = []
    const contradictions: string[] = []
    for (const line of lines) {
      const parsed = parseSignal(line.value, line.form)
      if (parsed.problems.length) malformed.push(`line ${line.line} (${line.form}: ${line.value}): ${parsed.problems.join(', ')}`)
      const granted = parsed.pairs.filter((pair) => pair.grants).map((pair) => `${pair.key}=${pair.value}`)
      const path = parsed.path ?? '/'
      const refused = line.group.agents.filter((agent) => !robots.isAllowed(agent, path))
      if (granted.length && refused.length) {
        contradictions.push(`line ${line.line} grants ${granted.join(', ')} but the group (${refused.join(', ')}) disallows ${path}`)
      }
    }
    const summary = `${lines.length} signal line(s): ${lines.map((line) => `${line.form}: ${line.value}`).slice(0, 3).join(' | ')}`
    if (malformed.length || contradictions.length) {
      return warn(
        `${summary}; ${[...malformed, ...contradictions].join('; ')}`,
        [
          malformed.length ? 'Use only the known keys with yes/no (Content-Signal: search, ai-input, ai-train) or y/n (Content-Usage: train-ai, search…), as key=value pairs separated by commas' : '',
          contradictions.length ? 'make each signal agree with its group\'s crawl rules (a use cannot be granted where crawling is disallowed)' : '',
        ]
          .filter(Boolean)
          .join('; and ') + '.',
      )
    }
    return pass(summary)
  },
})
