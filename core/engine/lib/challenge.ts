import { loadBoundedHtml } from '../../parse/html.ts'
import { type HttpSnapshot, isOk } from '../snapshot.ts'

/**
 * Bot-challenge detection (docs/checks.md §16). A response is challenged when the edge says so
 * (`cf-mitigated: challenge`, Cloudflare's documented marker) or the body is a known interstitial; it is
 * blocked when it answers 403/429/503 while a browser got a 2xx from the same URL.
 */

export interface ChallengeVerdict {
  /** `challenge`: an interstitial or CAPTCHA instead of the page; `blocked`: refused; null: served normally. */
  kind: 'challenge' | 'blocked' | null
  /** What gave it away, for details ("cf-mitigated: challenge", "403 while a browser got 200"). */
  reason: string | null
}

/** Markers only an interstitial page carries. */
const INTERSTITIAL_MARKERS: readonly (readonly [RegExp, string])[] = [
  [/<title>\s*Just a moment/i, 'a Cloudflare "Just a moment" interstitial'],
  [/_Incapsula_Resource/, 'an Imperva (Incapsula) challenge'],
  [/captcha-delivery\.com/i, 'a DataDome CAPTCHA'],
  [/px-captcha/i, 'a PerimeterX (HUMAN) CAPTCHA'],
]

/**
 * Markers that also appear on ordinary pages (Cloudflare's JS detections script, a CAPTCHA on a contact form),
 * so they count only on an error status or when the browser's copy of the page lacks them.
 */
const WIDGET_MARKERS: readonly (readonly [RegExp, string])[] = [
  [/\/cdn-cgi\/challenge-platform\//, 'the Cloudflare challenge platform'],
  [/cf-turnstile/i, 'a Cloudflare Turnstile widget'],
  [/g-recaptcha/i, 'a Google reCAPTCHA widget'],
  [/h-captcha/i, 'an hCaptcha widget'],
]

/** What an edge answers when it refuses a request outright. */
export const BLOCK_STATUSES: ReadonlySet<number> = new Set([403, 429, 503])

/**
 * Judges one response. `baseline` is what a browser got from the same URL; pass null when judging the
 * browser's own response.
 */
export function detectChallenge(response: HttpSnapshot, baseline: HttpSnapshot | null): ChallengeVerdict {
  const mitigated = response.headers['cf-mitigated']
  if (mitigated && /challenge/i.test(mitigated)) return { kind: 'challenge', reason: `cf-mitigated: ${mitigated}` }
  const interstitial = INTERSTITIAL_MARKERS.find(([pattern]) => pattern.test(response.body))
  if (interstitial) return { kind: 'challenge', reason: `${response.status} with ${interstitial[1]}` }
  const widget = WIDGET_MARKERS.find(([pattern]) => pattern.test(response.body))
  if (widget) {
    const browserHasIt = baseline !== null && isOk(baseline) && widget[0].test(baseline.body)
    if (!isOk(response) || (baseline !== null && !browserHasIt)) {
      return { kind: 'challenge', reason: `${response.status} with ${widget[1]} that a browser was not shown` }
    }
  }
  if (baseline !== null && isOk(baseline) && BLOCK_STATUSES.has(response.status)) {
    return { kind: 'blocked', reason: `${response.status} while a browser got ${baseline.status}` }
  }
  return { kind: null, reason: null }
}

/** A CAPTCHA widget inside a `<form>` of the page: agents cannot submit that form. Null when there is none. */
export function captchaOnForm(body: string): string | null {
  if (!/recaptcha|hcaptcha|turnstile|data-sitekey/i.test(body)) return null
  const $ = loadBoundedHtml(body)
  const widget = $('form')
    .find(
      '.g-recaptcha, .h-captcha, .cf-turnstile, [data-sitekey], iframe[src*="recaptcha"], iframe[src*="hcaptcha"], iframe[src*="challenges.cloudflare.com"]',
    )
    .first()
  if (widget.length === 0) return null
  const className = widget.attr('class') ?? widget.attr('src') ?? ''
  if (/turnstile|challenges\.cloudflare/i.test(className)) return 'Cloudflare Turnstile'
  if (/h-?captcha/i.test(className)) return 'hCaptcha'
  return 'reCAPTCHA'
}
