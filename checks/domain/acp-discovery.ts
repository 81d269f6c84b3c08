// The Agentic Commerce Protocol discovery document at /.well-known/acp.json: protocol versions, an https API base,
// transports and services from the closed enums. Spec: https://github.com/agentic-commerce-protocol/agentic-commerce-protocol
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { commerceGate } from '../lib/payments.ts'
import { isOk, isRecord, looksLikeHtml, parseJson } from '../../core/engine/snapshot.ts'

const DATE = /^\d{4}-\d{2}-\d{2}$/
const TRANSPORTS = new Set(['rest', 'mcp'])
const SERVICES = new Set(['checkout', 'orders', 'delegate_payment', 'carts'])
const INTERVENTIONS = new Set(['3ds', 'biometric', 'address_verification'])
const EXAMPLE =
  '{"protocol":{"name":"acp","version":"2026-04-17","supported_versions":["2026-04-17"]},"api_base_url":"https://…","transports":["rest"],"capabilities":{"services":["checkout"]}}'

export default defineCheck({
  meta: {
    id: 'acp-discovery',
    name: 'ACP discovery (/.well-known/acp.json)',
    description:
      'The ACP discovery document tells a buying agent that the seller supports agentic checkout, which API versions it speaks and where its checkout API lives.',
    layer: 'payments',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    maxScore: 5,
    specUrl: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol',
    recommendation: `Publish /.well-known/acp.json as application/json with Cache-Control: public, max-age=3600, e.g. ${EXAMPLE}.`,
    needs: ['commerceSignals', 'acp'],
  },
  run({ commerceSignals, acp }) {
    const gate = commerceGate(commerceSignals)
    if (gate) return gate
    const url = acp.url
    if (!isOk(acp)) {
      return fail(
        `/.well-known/acp.json answered ${acp.status}: no ACP discovery document on a site that sells (${commerceSignals.reasons.slice(0, 2).join('; ') || 'commerce signals'})`,
        `If you support agentic checkout, publish /.well-known/acp.json, e.g. ${EXAMPLE}.`,
      )
    }
    const document = parseJson(acp.body)
    if (!isRecord(document)) {
      const what = looksLikeHtml(acp.body) ? 'an HTML page' : 'not a JSON object'
      return fail(
        `${url} answered ${acp.status} with ${what}`,
        `Serve a JSON discovery document at /.well-known/acp.json, e.g. ${EXAMPLE}.`,
      )
    }

    const errors: string[] = []
    const warnings: string[] = []
    const protocol = isRecord(document.protocol) ? document.protocol : null
    if (!protocol) errors.push('protocol is missing')
    else {
      if (protocol.name !== 'acp') errors.push(`protocol.name is ${JSON.stringify(protocol.name)}, expected "acp"`)
      if (typeof protocol.version !== 'string' || !DATE.test(protocol.version))
        errors.push('protocol.version must be a YYYY-MM-DD date')
      const versions = Array.isArray(protocol.supported_versions) ? protocol.supported_versions : null
      if (!versions || versions.length === 0 || !versions.every((v) => typeof v === 'string' && DATE.test(v))) {
        errors.push('protocol.supported_versions must be a non-empty list of YYYY-MM-DD dates')
      } else {
        const sorted = [...versions].sort()
        if (sorted.join() !== versions.join()) warnings.push('supported_versions is not in chronological order')
        if (versions.at(-1) !== protocol.version)
          warnings.push(
            `protocol.version ${String(protocol.version)} is not the last supported version (${String(versions.at(-1))})`,
          )
      }
      if (protocol.documentation_url !== undefined && !isUrl(protocol.documentation_url))
        warnings.push('protocol.documentation_url is not a URL')
    }
    if (!isUrl(document.api_base_url)) errors.push('api_base_url must be a URL')
    else if (!document.api_base_url.startsWith('https://'))
      warnings.push(`api_base_url ${document.api_base_url} is not https`)
    checkEnumList(document.transports, 'transports', TRANSPORTS, errors, warnings)
    const capabilities = isRecord(document.capabilities) ? document.capabilities : null
    if (!capabilities) errors.push('capabilities is missing')
    else {
      checkEnumList(capabilities.services, 'capabilities.services', SERVICES, errors, warnings)
      if (
        capabilities.extensions !== undefined &&
        !(
          Array.isArray(capabilities.extensions) &&
          capabilities.extensions.every((e) => isRecord(e) && typeof e.name === 'string')
        )
      ) {
        warnings.push('capabilities.extensions must list objects with a name')
      }
      if (capabilities.intervention_types !== undefined)
        checkEnumList(
          capabilities.intervention_types,
          'capabilities.intervention_types',
          INTERVENTIONS,
          warnings,
          warnings,
        )
      if (
        capabilities.supported_currencies !== undefined &&
        !stringList(capabilities.supported_currencies, /^[A-Za-z]{3}$/)
      ) {
        warnings.push('capabilities.supported_currencies must be ISO 4217 codes')
      }
      if (
        capabilities.supported_locales !== undefined &&
        !stringList(capabilities.supported_locales, /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/)
      ) {
        warnings.push('capabilities.supported_locales must be BCP 47 tags')
      }
    }
    if (!acp.headers['cache-control']) warnings.push('no Cache-Control header (public, max-age=3600 is recommended)')
    if (acp.contentType !== 'application/json')
      warnings.push(`Content-Type is "${acp.contentType || 'missing'}", not application/json`)

    if (errors.length > 0) {
      return fail(
        `${url} is malformed: ${errors.join('; ')}`,
        `Fix /.well-known/acp.json: ${errors.join('; ')}. A minimal valid document: ${EXAMPLE}.`,
      )
    }
    const summary = `ACP ${String(protocol!.version)} at ${url}: ${describeList(document.transports)} transport(s), services ${describeList(capabilities!.services)}`
    if (warnings.length > 0)
      return warn(`${summary}; but ${warnings.join('; ')}`, `Tidy /.well-known/acp.json: ${warnings.join('; ')}.`)
    return pass(summary)
  },
})

function checkEnumList(
  value: unknown,
  name: string,
  allowed: ReadonlySet<string>,
  errors: string[],
  warnings: string[],
): void {
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === 'string')) {
    errors.push(`${name} must be a non-empty list of strings`)
    return
  }
  const unknown = value.filter((item) => !allowed.has(item))
  if (unknown.length > 0)
    warnings.push(
      `${name} has unknown value(s) ${unknown.map((item) => `"${item}"`).join(', ')} (allowed: ${[...allowed].join(', ')})`,
    )
}

function stringList(value: unknown, pattern: RegExp): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string' && pattern.test(item))
}

function isUrl(value: unknown): value is string {
  return typeof value === 'string' && URL.canParse(value)
}

function describeList(value: unknown): string {
  return Array.isArray(value) ? value.join(', ') : ''
}
