// /ai.txt (Spawning) is served as text/plain and parses as robots-like records stating AI training permissions.
// Spec: https://site.spawning.ai/spawning-ai-txt
import { parseRobots } from '../../core/engine/collectors/robots.ts'
import { defineCheck, fail, pass } from '../../core/engine/check.ts'

const RECOMMENDATION =
  'Optionally publish /ai.txt as text/plain with robots-style records, e.g. "User-Agent: *" followed by "Allow: /" or "Disallow: *.jpg", to state AI training permissions.'

export default defineCheck({
  meta: {
    id: 'ai-txt',
    name: 'ai.txt published',
    description:
      "Spawning's /ai.txt states, in robots-like syntax, which content may be used to train AI; an emerging convention with no IETF standing, so it only adds points.",
    layer: 'accessibility',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: true,
    draft: true,
    maxScore: 1,
    specUrl: 'https://site.spawning.ai/spawning-ai-txt',
    recommendation: RECOMMENDATION,
    needs: ['aiTxt'],
  },
  run({ aiTxt }) {
    const parsed = parseRobots(aiTxt)
    if (aiTxt.status < 200 || aiTxt.status >= 300) return fail(`No /ai.txt (status ${aiTxt.status})`, RECOMMENDATION)
    if (!parsed.found)
      return fail(`/ai.txt answered ${aiTxt.status} with an HTML page, not an ai.txt file`, RECOMMENDATION)
    if (parsed.groups.length === 0) {
      return fail(
        '/ai.txt has no User-Agent record, so it states no permissions',
        'Start /ai.txt with "User-Agent: *" followed by Allow/Disallow lines.',
      )
    }
    if (aiTxt.contentType !== 'text/plain') {
      return fail(
        `/ai.txt parses (${parsed.groups.length} group(s)) but is served as "${aiTxt.contentType || 'no content type'}"`,
        'Serve /ai.txt with Content-Type: text/plain.',
      )
    }
    const rules = parsed.groups.reduce((count, group) => count + group.rules.length, 0)
    const invalid = parsed.invalidLines.length ? `; ${parsed.invalidLines.length} unrecognised line(s) ignored` : ''
    return pass(`/ai.txt is text/plain with ${parsed.groups.length} group(s) and ${rules} rule(s)${invalid}`)
  },
})
