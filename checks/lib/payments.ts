/**
 * Pure helpers shared by the payments checks: the commerce gate, the 402 responses a scan saw, HTTP
 * authentication challenges (RFC 9110 §11.6.1) for MPP's `Payment` scheme, and price detection in page text.
 */
import type { CheerioAPI } from 'cheerio'
import type { AnyNode } from 'domhandler'
import type { CommerceSignals } from '../../core/engine/collectors/commerce-signals.ts'
import type { PaymentProbesArtifact } from '../../core/engine/collectors/payment-probes.ts'
import { fail, na, type Outcome } from '../../core/engine/check.ts'
import { isRecord, parseJson, type HttpSnapshot } from '../../core/engine/snapshot.ts'

/** The payments-layer gate (docs/checks.md §19): `na` on a target with no commerce signal, null otherwise. */
export function commerceGate(commerce: CommerceSignals): Outcome | null {
  if (commerce.isCommerce) return null
  return na(
    'No commerce signal: no Product/Offer markup, cart or checkout links, shop platform marker, agent-commerce artefact or pricing page',
  )
}

export interface Seen402 {
  url: string
  response: HttpSnapshot
}

export function responses402(probes: PaymentProbesArtifact): Seen402[] {
  return probes.responses.flatMap(({ url, response }) => (response?.status === 402 ? [{ url, response }] : []))
}

/**
 * Why a target might take payments even though no probe answered 402 (x402 and MPP are `na` only when
 * there is neither a 402 nor any of these).
 */
function paymentSignalReasons(commerce: CommerceSignals, probes: PaymentProbesArtifact): string[] {
  const reasons: string[] = []
  if (commerce.isCommerce) reasons.push(`commerce signals (${commerce.reasons.slice(0, 2).join('; ') || 'detected'})`)
  const paidOperations = probes.responses
    .filter((probe) => probe.via === 'openapi-paid')
    .map((probe) => probe.operation ?? probe.url)
  if (paidOperations.length > 0) reasons.push(`OpenAPI operations that declare payment (${paidOperations.join(', ')})`)
  return reasons
}

/**
 * The outcome when no probe answered 402: `na` without any payment signal, otherwise `fail` naming the signals.
 * `expected` says what the 402 should have carried ("x402 payment requirements").
 */
export function no402Outcome(
  probes: PaymentProbesArtifact,
  commerce: CommerceSignals,
  expected: string,
  recommendation: string,
): Outcome {
  const probed = probedPaths(probes)
  const signals = paymentSignalReasons(commerce, probes)
  if (signals.length === 0) return na(`No 402 on the probed URLs (${probed}) and no commerce or payment signal`)
  return fail(
    `No probed URL (${probed}) answered 402 with ${expected}, although the site shows ${signals.join(' and ')}`,
    recommendation,
  )
}

export function probedPaths(probes: PaymentProbesArtifact): string {
  return probes.responses.map((probe) => new URL(probe.url).pathname).join(', ')
}

/** One `WWW-Authenticate` challenge: an auth scheme with either auth-params or a token68. */
export interface AuthChallenge {
  scheme: string
  params: Record<string, string>
  token68?: string
}

const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y
/** token68 (RFC 9110 §11.2) as the whole credential: it must end the challenge. */
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*(?=\s*(?:,|$))/y
const WHITESPACE = /[ \t]*/y
const SEPARATORS = /[\s,]*/y
const QUOTED = /"((?:[^"\\]|\\.)*)"/y

/**
 * Parses a `WWW-Authenticate` value into challenges. Repeated header fields arrive joined with ", ", so the
 * parser must tell a comma between params from one between challenges: a new challenge starts with a token
 * that is not followed by `=`.
 */
export function parseAuthChallenges(header: string): AuthChallenge[] {
  const challenges: AuthChallenge[] = []
  let position = 0
  // Sticky patterns match exactly at `position` or not at all.
  const read = (pattern: RegExp): RegExpExecArray | null => {
    pattern.lastIndex = position
    const match = pattern.exec(header)
    if (match) position += match[0].length
    return match
  }

  while (position < header.length) {
    read(SEPARATORS)
    const scheme = read(TOKEN)?.[0]
    if (!scheme) break
    const challenge: AuthChallenge = { scheme, params: {} }
    challenges.push(challenge)
    read(WHITESPACE)
    const token68 = read(TOKEN68)?.[0]
    if (token68) {
      challenge.token68 = token68
      continue
    }
    for (;;) {
      const start = position
      read(SEPARATORS)
      const name = read(TOKEN)?.[0]
      read(WHITESPACE)
      if (!name || header[position] !== '=') {
        position = start
        break
      }
      position += 1
      read(WHITESPACE)
      const quoted = read(QUOTED)
      challenge.params[name.toLowerCase()] = quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : (read(TOKEN)?.[0] ?? '')
    }
  }
  return challenges
}

export interface PaymentChallenge {
  method: string
  intent: string
  realm: string
  valid: boolean
  problems: string[]
}

/**
 * MPP (draft-ryan-httpauth-payment): `WWW-Authenticate: Payment id, realm, method, intent, request` where
 * `request` is base64url JSON. Returns every `Payment` challenge in the response, valid or not.
 */
export function readPaymentChallenges(response: Pick<HttpSnapshot, 'headers'>): PaymentChallenge[] {
  const header = response.headers['www-authenticate']
  if (!header) return []
  return parseAuthChallenges(header)
    .filter((challenge) => challenge.scheme.toLowerCase() === 'payment')
    .map(({ params }) => {
      const problems = ['id', 'realm', 'method', 'intent', 'request']
        .filter((name) => !params[name]?.trim())
        .map((name) => `the ${name} parameter is missing`)
      if (params.request?.trim() && !isRecord(decodeBase64Url(params.request))) {
        problems.push('request is not base64url-encoded JSON')
      }
      if (params.method && params.method !== params.method.toLowerCase())
        problems.push(`method "${params.method}" is not lower-case`)
      return {
        method: params.method ?? '',
        intent: params.intent ?? '',
        realm: params.realm ?? '',
        valid: problems.length === 0,
        problems,
      }
    })
}

function decodeBase64Url(value: string): unknown {
  const compact = value.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(compact)) return undefined
  return parseJson(Buffer.from(compact, 'base64url').toString('utf8'))
}

/** Text a reader sees without running scripts: text nodes outside script, style, noscript, template and svg. */
export function visibleText($: CheerioAPI): string {
  const body = ($('body').length > 0 ? $('body') : $('html')).first().clone()
  body.find('script, style, noscript, template, svg').remove()
  // Text nodes in document order joined with spaces, so adjacent blocks (<h3>Pro</h3><p>$29</p>) do not run together.
  const parts: string[] = []
  const collect = (node: AnyNode): void => {
    if (node.type === 'text') parts.push(node.data)
    else if ('children' in node) node.children.forEach(collect)
  }
  body.toArray().forEach(collect)
  return parts.join(' ').replace(/\s+/g, ' ').trim()
}

const CURRENCY_SYMBOL = '[$€£¥₹₩₽]|US\\$|A\\$|C\\$|R\\$|CHF'
const CURRENCY_CODE = 'USD|EUR|GBP|JPY|INR|CAD|AUD|CHF|SEK|NOK|DKK|BRL|MXN|CNY|KRW|PLN|ZAR|NZD|SGD|HKD'
const AMOUNT = '\\d{1,3}(?:[,.\\s]\\d{3})*(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?'
// Symbol or code first ("$29", "USD 29"), or amount first ("29 €", "49 USD"); an amount-first match must not be
// the tail of an identifier (SKU "RL-HL-400 $42") nor a symbol that starts the next price.
const NOT_IN_WORD = '(?<![\\w.,-])'
const PRICE = new RegExp(
  [
    `(?:${CURRENCY_SYMBOL})\\s?(?:${AMOUNT})`,
    `\\b(?:${CURRENCY_CODE})\\s?(?:${AMOUNT})`,
    `${NOT_IN_WORD}(?:${AMOUNT})\\s?(?:${CURRENCY_SYMBOL})(?!\\s?\\d)`,
    `${NOT_IN_WORD}(?:${AMOUNT})\\s?(?:${CURRENCY_CODE})\\b`,
  ].join('|'),
  'g',
)

/** Price-looking strings ("$29", "€9,99", "49 USD") in text, deduplicated, at most 10. */
export function findPrices(text: string): string[] {
  return [...new Set(text.match(PRICE) ?? [])].map((price) => price.trim()).slice(0, 10)
}

/**
 * An explicit free plan or tier ("Free plan", "Free tier", "Free forever", "Plan: Free", "free of charge"), the one
 * price a text can state without an amount; a bare "free" (free shipping, free trial) is not one.
 */
export function statesFreePlan(text: string): boolean {
  return /\bfree\s+(?:plan|tier|forever|of charge)\b|\b(?:plan|tier|price)\s*:\s*free\b|\bfree\s*[-–:]\s*(?:\$|€|£)?0\b/i.test(
    text,
  )
}

/** "Contact sales" style wording that replaces a price. */
export function mentionsContactSales(text: string): boolean {
  return /\b(?:contact (?:sales|us)|talk to (?:sales|us)|request (?:a )?(?:quote|demo)|get (?:a )?quote|custom pricing)\b/i.test(
    text,
  )
}
