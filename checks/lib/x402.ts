/**
 * x402 payment requirements (coinbase/x402 specs): v2 sends `PAYMENT-REQUIRED: base64(PaymentRequired)` with a
 * 402; legacy v1 puts `{x402Version:1, accepts:[…]}` in the JSON body. Pure parsing and validation only.
 */
import { isRecord, parseJson, type HttpSnapshot } from '../../core/engine/snapshot.ts'

export interface X402Reading {
  version: 1 | 2
  source: 'header' | 'body'
  valid: boolean
  /** Schema problems, empty when valid. */
  problems: string[]
  /** `scheme network` of each accepted payment option. */
  options: string[]
}

/** CAIP-2 chain id, e.g. `eip155:84532`. */
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/
const ATOMIC_AMOUNT = /^\d+$/

/**
 * Reads x402 requirements from a response: the v2 header first, then a v1 (or misplaced v2) JSON body.
 * Null when the response carries nothing x402-shaped.
 */
export function readX402(response: Pick<HttpSnapshot, 'headers' | 'body'>): X402Reading | null {
  const header = response.headers['payment-required']
  if (header !== undefined) {
    const decoded = decodeBase64Json(header)
    if (decoded === undefined) {
      return {
        version: 2,
        source: 'header',
        valid: false,
        problems: ['PAYMENT-REQUIRED is not base64-encoded JSON'],
        options: [],
      }
    }
    return reading(2, 'header', decoded, validatePaymentRequiredV2(decoded))
  }
  const body = parseJson(response.body)
  if (!isRecord(body) || !('x402Version' in body)) return null
  if (body.x402Version === 1) return reading(1, 'body', body, validatePaymentRequiredV1(body))
  const problems = validatePaymentRequiredV2(body)
  problems.unshift('v2 requirements belong in the PAYMENT-REQUIRED header, not only in the body')
  return reading(2, 'body', body, problems)
}

/** v2 PaymentRequired (also the MCP transport's structuredContent). */
export function validatePaymentRequiredV2(value: unknown): string[] {
  if (!isRecord(value)) return ['PaymentRequired is not a JSON object']
  const problems: string[] = []
  if (value.x402Version !== 2) problems.push(`x402Version is ${JSON.stringify(value.x402Version)}, expected 2`)
  if (!isRecord(value.resource) || !nonEmpty(value.resource.url)) problems.push('resource.url is missing')
  problems.push(
    ...validateAccepts(value.accepts, (option, at) => {
      const issues = missing(option, ['scheme', 'network', 'asset', 'payTo'], at)
      if (nonEmpty(option.network) && !CAIP2.test(option.network))
        issues.push(`${at}.network "${option.network}" is not a CAIP-2 id`)
      if (option.amount !== undefined && !(typeof option.amount === 'string' && ATOMIC_AMOUNT.test(option.amount))) {
        issues.push(`${at}.amount must be a base-10 string of atomic units`)
      }
      return issues
    }),
  )
  return problems
}

/** v1 body: `{x402Version:1, error, accepts:[{scheme, network, maxAmountRequired, resource, payTo, asset, …}]}`. */
export function validatePaymentRequiredV1(value: Record<string, unknown>): string[] {
  return validateAccepts(value.accepts, (option, at) => {
    const issues = missing(option, ['scheme', 'network', 'maxAmountRequired', 'resource', 'payTo', 'asset'], at)
    if (nonEmpty(option.maxAmountRequired) && !ATOMIC_AMOUNT.test(option.maxAmountRequired)) {
      issues.push(`${at}.maxAmountRequired must be a base-10 string`)
    }
    return issues
  })
}

function reading(version: 1 | 2, source: 'header' | 'body', value: unknown, problems: string[]): X402Reading {
  const accepts = isRecord(value) && Array.isArray(value.accepts) ? value.accepts.filter(isRecord) : []
  const options = accepts.map((option) => [option.scheme, option.network].filter(nonEmpty).join(' ')).filter(Boolean)
  return { version, source, valid: problems.length === 0, problems, options }
}

function validateAccepts(
  accepts: unknown,
  validate: (option: Record<string, unknown>, at: string) => string[],
): string[] {
  if (!Array.isArray(accepts) || accepts.length === 0) return ['accepts must list at least one payment option']
  return accepts.flatMap((option, index) =>
    isRecord(option) ? validate(option, `accepts[${index}]`) : [`accepts[${index}] is not an object`],
  )
}

function missing(option: Record<string, unknown>, fields: string[], at: string): string[] {
  return fields.filter((field) => !nonEmpty(option[field])).map((field) => `${at}.${field} is missing`)
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== ''
}

/** Standard or URL-safe base64 (padding optional) holding JSON; undefined when it is neither. */
export function decodeBase64Json(value: string): unknown {
  const compact = value.trim()
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return undefined
  return parseJson(Buffer.from(compact, 'base64').toString('utf8'))
}
