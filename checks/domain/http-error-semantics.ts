// Unknown paths answer a real 404 (not a soft 404 or a redirect), and unknown API paths answer a JSON error
// (ideally application/problem+json). Spec: https://www.rfc-editor.org/rfc/rfc9110#name-404-not-found, https://www.rfc-editor.org/rfc/rfc9457
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { type HttpSnapshot, isOk } from '../../core/engine/snapshot.ts'

type Level = 'pass' | 'warning' | 'fail'
interface Verdict {
  level: Level
  text: string
  fix?: string
}

const RANK: Record<Level, number> = { pass: 0, warning: 1, fail: 2 }

export default defineCheck({
  meta: {
    id: 'http-error-semantics',
    name: 'Real 404s and structured API errors',
    description:
      'Agents trust status codes: a 200 for a missing page makes them read an error page as content, and an HTML error from an API leaves them nothing to parse.',
    layer: 'usability',
    applicability: 'domain-only',
    tier: 'required',
    maturity: 'verified',
    maxScore: 5,
    specUrl: 'https://www.rfc-editor.org/rfc/rfc9457',
    recommendation:
      'Answer unknown paths with 404 (or 410) and a small body, and unknown API paths with a JSON error, ideally application/problem+json (RFC 9457).',
    needs: ['notFound'],
  },
  run({ notFound }) {
    const verdicts = [judgePage(notFound.page)]
    if (notFound.api) verdicts.push(judgeApi(notFound.api))
    const details =
      verdicts.map((verdict) => verdict.text).join('; ') +
      (notFound.apiError ? `; the API probe failed (${notFound.apiError})` : '')
    const worst = verdicts.reduce((a, b) => (RANK[b.level] > RANK[a.level] ? b : a))
    const recommendation = verdicts.flatMap((verdict) => (verdict.fix ? [verdict.fix] : [])).join(' ')
    if (worst.level === 'pass') return pass(details)
    return worst.level === 'warning' ? warn(details, recommendation) : fail(details, recommendation)
  },
})

function judgePage(response: HttpSnapshot): Verdict {
  const path = new URL(response.requestedUrl).pathname
  const size = bodySize(response)
  if (response.status === 404 || response.status === 410)
    return { level: 'pass', text: `GET ${path} answered ${response.status} (${size})` }
  if (isOk(response) && response.redirects.length > 0) {
    return {
      level: 'warning',
      text: `GET ${path} redirected to ${new URL(response.url).pathname}, which answered ${response.status}`,
      fix: `Answer unknown paths such as ${path} with 404 instead of redirecting them to ${new URL(response.url).pathname}.`,
    }
  }
  if (isOk(response)) {
    return {
      level: 'fail',
      text: `GET ${path} answered ${response.status} (a soft 404: a page that does not exist looks like content)`,
      fix: `Make the catch-all route return status 404 for unknown paths such as ${path}; it currently answers ${response.status}.`,
    }
  }
  return {
    level: 'warning',
    text: `GET ${path} answered ${response.status} instead of 404`,
    fix: `Answer unknown paths such as ${path} with 404 rather than ${response.status}.`,
  }
}

/** The body's size as read (UTF-8 bytes), exact under 1 KB; a body cut at the read cap is "over" its size. */
function bodySize(response: Pick<HttpSnapshot, 'body' | 'truncated'>): string {
  const bytes = Buffer.byteLength(response.body, 'utf8')
  const amount = bytes < 1024 ? `${bytes}-byte` : `${(bytes / 1024).toFixed(1)} KB`
  return `${response.truncated ? 'over ' : ''}${amount} body`
}

function judgeApi(response: HttpSnapshot): Verdict {
  const path = new URL(response.requestedUrl).pathname
  const type = response.contentType || 'no Content-Type'
  const json = response.contentType === 'application/json' || response.contentType.endsWith('+json')
  const problemFix = `Return unknown API paths such as ${path} as 404 with Content-Type application/problem+json ({"type","title","status","detail"}).`
  if (response.status === 404 || response.status === 410 || (response.status === 401 && json)) {
    const reason = response.status === 401 ? 'authentication is checked before routing' : ''
    if (json) {
      const ideal =
        response.contentType === 'application/problem+json' ? '' : ' (application/problem+json would be ideal)'
      return {
        level: 'pass',
        text: `GET ${path} answered ${response.status} ${type}${ideal}${reason ? `; ${reason}` : ''}`,
        ...(ideal ? { fix: problemFix } : {}),
      }
    }
    return {
      level: 'warning',
      text: `GET ${path} answered ${response.status} with ${type}, not a JSON error`,
      fix: problemFix,
    }
  }
  if (isOk(response)) {
    const redirected = response.redirects.length > 0
    return {
      level: redirected ? 'warning' : 'fail',
      text: redirected
        ? `GET ${path} redirected to ${new URL(response.url).pathname}, which answered ${response.status}`
        : `GET ${path} answered ${response.status} for an API path that does not exist`,
      fix: problemFix,
    }
  }
  return { level: 'warning', text: `GET ${path} answered ${response.status} (${type}) instead of 404`, fix: problemFix }
}
