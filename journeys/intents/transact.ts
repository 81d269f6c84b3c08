import { isRecord } from '../../core/engine/snapshot.ts'
import { defineIntent, type FetchedPage } from '../types.ts'
import { answerFrom, completedPages, hasString, jsonObject, judgement, pathOf } from '../judging.ts'

/** An x402 challenge's payment requirements, from the `payment-required` header (base64 JSON) or the body. */
function x402Requirements(page: FetchedPage): Record<string, unknown> | null {
  if (page.status !== 402 || page.challenged) return null
  const header = page.headers['payment-required']
  const fromHeader = header ? decoded(header) : null
  if (paymentRequirements(fromHeader)) return fromHeader as Record<string, unknown>
  return paymentRequirements(page.json) ? (page.json as Record<string, unknown>) : null
}

const x402 = (page: FetchedPage) => x402Requirements(page) !== null

/** The protocol and the endpoint to pay through: `x402 at <url> (network, amount)`, `ACP at <api_base_url>`, `UCP …`. */
function protocol(page: FetchedPage): string {
  const requirements = x402Requirements(page)
  if (requirements) {
    const accepts: Record<string, unknown> = (requirements.accepts as unknown[]).find(isRecord) ?? {}
    const terms = [accepts.scheme, accepts.network, accepts.amount ?? accepts.maxAmountRequired, accepts.asset].filter(
      (value): value is string => typeof value === 'string',
    )
    return `x402 at ${page.finalUrl}${terms.length > 0 ? ` (${terms.join(', ')})` : ''}`
  }
  const doc = jsonObject(page)!
  if (acp(page)) return `ACP at ${doc.api_base_url as string} (discovery ${page.finalUrl})`
  const services = Object.keys((doc.ucp as { services: Record<string, unknown> }).services)
  return `UCP services ${services.join(', ')} (profile ${page.finalUrl})`
}

function decoded(header: string): unknown {
  try {
    return JSON.parse(Buffer.from(header, 'base64').toString('utf8'))
  } catch {
    return null
  }
}

function paymentRequirements(value: unknown): boolean {
  return (
    isRecord(value) && typeof value.x402Version === 'number' && Array.isArray(value.accepts) && value.accepts.length > 0
  )
}

/** ACP discovery: the protocol it speaks and where its API is. */
function acp(page: FetchedPage): boolean {
  const doc = jsonObject(page)
  return (
    doc !== null &&
    pathOf(page) === '/.well-known/acp.json' &&
    isRecord(doc.protocol) &&
    doc.protocol.name === 'acp' &&
    hasString(doc, 'api_base_url')
  )
}

/** A UCP business profile with at least one service. */
function ucp(page: FetchedPage): boolean {
  const doc = jsonObject(page)
  return (
    doc !== null &&
    pathOf(page) === '/.well-known/ucp' &&
    isRecord(doc.ucp) &&
    isRecord(doc.ucp.services) &&
    Object.keys(doc.ucp.services).length > 0
  )
}

/**
 * Found when the agent met a way to pay or check out as a machine: an x402 payment challenge (402 with payment
 * requirements), ACP discovery or a UCP profile. A price on an HTML page, or a cart for people, is not one.
 */
export default defineIntent({
  meta: {
    id: 'transact',
    title: 'Transact as an agent',
    prompt: 'Buy from {domain} as an agent: find a machine payment or agentic checkout it accepts (x402, ACP or UCP).',
    layers: ['payments'],
    keywords: ['x402', 'acp', 'ucp', 'checkout', 'pay', 'premium', 'buy'],
    paths: ['/.well-known/acp.json', '/.well-known/ucp'],
    relatedChecks: ['x402-payment-required', 'acp-discovery', 'ucp-profile', 'mpp-payment-challenge'],
  },
  judge(_trajectory, evidence) {
    const ready = [
      ...evidence.pages.filter(x402),
      ...completedPages(evidence).filter((page) => acp(page) || ucp(page)),
    ].sort((a, b) => evidence.pages.indexOf(a) - evidence.pages.indexOf(b))
    return judgement(
      ready,
      (page) => `${page.finalUrl} offers agents a way to pay.`,
      'No x402 challenge, ACP discovery or UCP profile was found.',
      (found) => answerFrom(found[0]!, `Payment: ${found.slice(0, 3).map(protocol).join('; ')}.`),
    )
  },
})
