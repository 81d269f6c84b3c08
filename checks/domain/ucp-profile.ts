// The Universal Commerce Protocol business profile at /.well-known/ucp: a dated version, services in either the
// 2026-04-08 (arrays of bindings) or 2026-01-11 (transport keys) shape, and payment handlers. Spec: https://ucp.dev/specification/overview/
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { commerceGate } from '../lib/payments.ts'
import { isOk, isRecord, looksLikeHtml, parseJson } from '../../core/engine/snapshot.ts'

const DATE = /^\d{4}-\d{2}-\d{2}$/
const TRANSPORTS = new Set(['rest', 'mcp', 'a2a', 'embedded'])
const EXAMPLE =
  '{"ucp":{"version":"2026-04-08","services":{"dev.ucp.shopping":[{"version":"2026-04-08","spec":"https://ucp.dev/…","transport":"rest","endpoint":"https://…/ucp"}]},"capabilities":{},"payment_handlers":{}}}'

type Era = 'current' | 'legacy'

export default defineCheck({
  meta: {
    id: 'ucp-profile',
    name: 'UCP business profile (/.well-known/ucp)',
    description:
      'The UCP business profile tells shopping agents which commerce services, capabilities and payment handlers a merchant supports, and where to call them.',
    layer: 'payments',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    maxScore: 5,
    specUrl: 'https://ucp.dev/specification/overview/',
    recommendation: `Publish /.well-known/ucp as JSON in the 2026-04-08 shape, e.g. ${EXAMPLE}.`,
    needs: ['commerceSignals', 'ucp'],
  },
  run({ commerceSignals, ucp }) {
    const gate = commerceGate(commerceSignals)
    if (gate) return gate
    if (!isOk(ucp)) {
      return fail(
        `/.well-known/ucp answered ${ucp.status}: no UCP business profile on a site that sells (${commerceSignals.reasons.slice(0, 2).join('; ') || 'commerce signals'})`,
        `If shopping agents may buy from you, publish /.well-known/ucp, e.g. ${EXAMPLE}.`,
      )
    }
    const document = parseJson(ucp.body)
    const profile = isRecord(document) && isRecord(document.ucp) ? document.ucp : null
    if (!isRecord(document) || !profile) {
      const what = looksLikeHtml(ucp.body)
        ? 'an HTML page'
        : isRecord(document)
          ? 'JSON without a "ucp" object'
          : 'not a JSON object'
      return fail(
        `${ucp.url} answered ${ucp.status} with ${what}`,
        `Serve the business profile as JSON with a top-level "ucp" object, e.g. ${EXAMPLE}.`,
      )
    }

    const errors: string[] = []
    const warnings: string[] = []
    if (typeof profile.version !== 'string' || !DATE.test(profile.version))
      errors.push('ucp.version must be a YYYY-MM-DD date')
    const services = isRecord(profile.services) ? profile.services : null
    const eras = new Set<Era>()
    if (!services) errors.push('ucp.services must be an object keyed by service name')
    else {
      if (Object.keys(services).length === 0) warnings.push('ucp.services is empty')
      for (const [name, value] of Object.entries(services)) {
        const verdict = serviceShape(value)
        if (verdict.era) eras.add(verdict.era)
        errors.push(...verdict.problems.map((problem) => `service "${name}": ${problem}`))
      }
    }
    if (Array.isArray(profile.capabilities)) eras.add('legacy')
    const currentHandlers = isRecord(profile.payment_handlers)
    const legacyHandlers = isRecord(document.payment) && Array.isArray(document.payment.handlers)
    if (legacyHandlers) eras.add('legacy')
    if (!currentHandlers && !legacyHandlers)
      errors.push('no payment handlers (ucp.payment_handlers must be present, even when empty)')
    if (eras.has('legacy'))
      warnings.push(
        `the profile uses the older 2026-01-11 shape${eras.has('current') ? ' mixed with the 2026-04-08 one' : ''}`,
      )
    const keys = Array.isArray(document.keys) ? document.keys : []
    const keyless = keys.filter((key) => !isRecord(key) || typeof key.kid !== 'string' || typeof key.kty !== 'string')
    if (document.keys !== undefined && !Array.isArray(document.keys)) warnings.push('keys must be a JWK array')
    else if (keyless.length > 0) warnings.push(`${keyless.length} of ${keys.length} signing key(s) lack kid or kty`)

    if (errors.length > 0) {
      return fail(
        `${ucp.url} is malformed: ${errors.slice(0, 4).join('; ')}`,
        `Fix /.well-known/ucp: ${errors.slice(0, 4).join('; ')}. Shape: ${EXAMPLE}.`,
      )
    }
    const summary = `UCP ${String(profile.version)} profile at ${ucp.url} with service(s) ${Object.keys(services!).join(', ') || 'none'}`
    if (warnings.length > 0) {
      return warn(
        `${summary}; but ${warnings.join('; ')}`,
        `Update /.well-known/ucp: ${warnings.join('; ')} (current shape: ${EXAMPLE}).`,
      )
    }
    return pass(summary)
  },
})

/** 2026-04-08+: an array of {version, spec, transport, endpoint?, schema?}; 2026-01-11: an object with rest/mcp/a2a/embedded bindings. */
function serviceShape(value: unknown): { era: Era | null; problems: string[] } {
  if (Array.isArray(value)) {
    if (value.length === 0) return { era: 'current', problems: ['has no bindings'] }
    const problems = value.flatMap((binding, index) => {
      if (!isRecord(binding)) return [`binding ${index} is not an object`]
      const issues: string[] = []
      if (typeof binding.version !== 'string') issues.push(`binding ${index} has no version`)
      if (typeof binding.spec !== 'string') issues.push(`binding ${index} has no spec`)
      if (typeof binding.transport !== 'string' || !TRANSPORTS.has(binding.transport)) {
        issues.push(`binding ${index} transport ${JSON.stringify(binding.transport)} is not rest, mcp, a2a or embedded`)
      }
      return issues
    })
    return { era: 'current', problems }
  }
  if (isRecord(value)) {
    const transports = Object.keys(value).filter((key) => TRANSPORTS.has(key) && value[key] !== null)
    if (transports.length === 0) return { era: 'legacy', problems: ['names no rest, mcp, a2a or embedded binding'] }
    const problems = transports
      .filter((key) => !isRecord(value[key]))
      .map((key) => `the ${key} binding is not an object`)
    return { era: 'legacy', problems }
  }
  return { era: null, problems: ['is neither a list of bindings nor a binding object'] }
}
