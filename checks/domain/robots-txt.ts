// robots.txt is served at the root, as text/plain, and parses into at least one group (RFC 9309).
// Spec: https://www.rfc-editor.org/rfc/rfc9309
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { isOk } from '../../core/engine/snapshot.ts'

const PARSE_LIMIT_BYTES = 500 * 1024

export default defineCheck({
  meta: {
    id: 'robots-txt',
    name: 'robots.txt present and valid',
    description:
      'Agents and crawlers read /robots.txt first to learn what they may fetch and where the sitemap is; a missing file tells them nothing, a broken one (5xx) locks them out.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'required',
    maturity: 'verified',
    maxScore: 10,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc9309',
    recommendation: 'Serve /robots.txt as text/plain with at least one User-agent group and a Sitemap line.',
    needs: ['robots'],
  },
  run({ robots }) {
    const { response } = robots
    if (response.status >= 500) {
      return fail(
        `/robots.txt answered ${response.status}; under RFC 9309 a 5xx means "disallow everything" to every crawler`,
        'Fix the server error on /robots.txt so that it answers 200 (or 404 if you want no restrictions).',
      )
    }
    // A soft 404 is a success status serving HTML for a file that does not exist; an HTML 404 is just a missing file.
    if (robots.isHtml && isOk(response)) {
      return fail(
        `/robots.txt answered ${response.status} with an HTML page (a soft 404), not a robots file`,
        'Serve a plain-text robots.txt at /robots.txt instead of an HTML page.',
      )
    }
    // Under RFC 9309 a missing file (4xx) restricts nothing: agents get in, they just learn no policy and no
    // sitemap from it. The journeys show no intent lost to it, so it is an improvement, not a failure.
    if (!robots.found) {
      return warn(
        `/robots.txt answered ${response.status}: no robots file, so under RFC 9309 agents may fetch everything but learn no policy or sitemap from it`,
        'Publish /robots.txt with a User-agent group (e.g. "User-agent: *" and "Allow: /") and a Sitemap line.',
      )
    }
    if (robots.groups.length === 0) {
      return fail(
        '/robots.txt has no User-agent group, so it states no rules',
        'Add at least one group, e.g. "User-agent: *" followed by Allow/Disallow lines.',
      )
    }
    const problems: string[] = []
    if (response.contentType !== 'text/plain')
      problems.push(`Content-Type is "${response.contentType || 'missing'}", not text/plain`)
    if (response.truncated || response.body.length > PARSE_LIMIT_BYTES)
      problems.push('the file is over 500 KiB; only the first 500 KiB are read')
    if (robots.invalidLines.length > 0) {
      const first = robots.invalidLines[0]!
      problems.push(
        `${robots.invalidLines.length} unparseable line(s), first at line ${first.line}: "${first.text.slice(0, 60)}"`,
      )
    }
    if (robots.crossHostRedirect) problems.push('it is served only after a redirect to another host')
    const summary = `${robots.groups.length} group(s), ${robots.sitemaps.length} Sitemap line(s)`
    if (problems.length > 0) {
      return warn(
        `robots.txt parses (${summary}) but ${problems.join('; ')}`,
        'Serve robots.txt as text/plain from the same host, under 500 KiB, with only valid records.',
      )
    }
    return pass(`robots.txt is valid: ${summary}`)
  },
})
