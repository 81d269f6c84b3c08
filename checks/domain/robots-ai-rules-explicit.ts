// robots.txt states an explicit AI policy: a group naming an AI agent token, or a Content-Signal / Content-Usage line.
// Spec: https://www.rfc-editor.org/rfc/rfc9309 (tokens: docs/checks.md §2; signals: https://contentsignals.org/)
import { defineCheck, fail, pass } from '../../core/engine/check.ts'
import { findAiAgent } from '../../core/engine/lib/ai-agents.ts'

export default defineCheck({
  meta: {
    id: 'robots-ai-rules-explicit',
    name: 'Explicit AI policy in robots.txt',
    description:
      "A robots.txt group naming AI agents, or a Content-Signal / Content-Usage line, tells agents the site's AI policy instead of leaving them to infer it from the wildcard rules.",
    layer: 'accessibility',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    bonus: true,
    maxScore: 2,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc9309',
    recommendation:
      'State your AI policy in robots.txt: name AI agents in their own groups (e.g. "User-agent: ChatGPT-User" / "Allow: /") or add a "Content-Signal: search=yes, ai-input=yes, ai-train=no" line.',
    needs: ['robots'],
    essentialsExcluded: true,
  },
  run({ robots }) {
    if (!robots.found) {
      return fail(
        `No robots.txt (${robots.isHtml ? 'an HTML page' : `status ${robots.response.status}`}), so no AI policy is stated`,
        'Publish /robots.txt with a "User-agent: *" group plus groups naming the AI agents you allow or refuse, and a Content-Signal line.',
      )
    }
    const named = [
      ...new Set(
        robots.groups.flatMap((group) =>
          group.agents.map((agent) => findAiAgent(agent)?.token).filter((token) => token !== undefined),
        ),
      ),
    ]
    const signals = robots.groups.reduce(
      (count, group) => count + group.contentSignals.length + group.contentUsage.length,
      0,
    )
    const found: string[] = []
    if (named.length)
      found.push(
        `groups naming ${named.length} AI agent token(s) (${named.slice(0, 6).join(', ')}${named.length > 6 ? ', …' : ''})`,
      )
    if (signals) found.push(`${signals} Content-Signal/Content-Usage line(s)`)
    if (found.length) return pass(`robots.txt states an AI policy: ${found.join(' and ')}`)
    return fail(
      `robots.txt has ${robots.groups.length} group(s) (${
        robots.groups
          .flatMap((group) => group.agents)
          .slice(0, 4)
          .join(', ') || 'none'
      }) but none names an AI agent, and there is no Content-Signal or Content-Usage line`,
      'Add an explicit AI policy to robots.txt, e.g. a group with the lines "User-agent: ChatGPT-User", "User-agent: Claude-User" and "Allow: /" and, in the "User-agent: *" group, "Content-Signal: search=yes, ai-input=yes, ai-train=no".',
    )
  },
})
