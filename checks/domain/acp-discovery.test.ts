import { describe, expect, test } from 'bun:test'
import type { CommerceSignals } from '../../core/engine/collectors/commerce-signals.ts'
import type { Outcome } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, htmlPage, jsonSnapshot, notFound } from '../../tests/support/artifacts.ts'
import check from './acp-discovery.ts'

const commerce = (isCommerce: boolean): CommerceSignals => ({
  isCommerce,
  reasons: isCommerce ? ['/checkout link'] : [],
  productUrls: [],
  pricingUrl: null,
})
const URL_ = 'https://acme.test/.well-known/acp.json'
const DOC = {
  protocol: {
    name: 'acp',
    version: '2026-04-17',
    supported_versions: ['2025-09-29', '2026-04-17'],
    documentation_url: 'https://acme.test/docs/acp',
  },
  api_base_url: 'https://api.acme.test/acp',
  transports: ['rest', 'mcp'],
  capabilities: {
    services: ['checkout', 'orders'],
    supported_currencies: ['usd'],
    supported_locales: ['en-US'],
    intervention_types: ['3ds'],
  },
}
const acp = (
  value: unknown,
  headers: Record<string, string> = { 'cache-control': 'public, max-age=3600' },
): HttpSnapshot => jsonSnapshot(value, { url: URL_, headers: { 'content-type': 'application/json', ...headers } })

describe('acp-discovery', () => {
  test.each<[string, Outcome['status'], boolean, HttpSnapshot]>([
    ['a complete document', 'pass', true, acp(DOC)],
    ['no Cache-Control', 'warning', true, acp(DOC, {})],
    [
      'version is not the latest supported',
      'warning',
      true,
      acp({ ...DOC, protocol: { ...DOC.protocol, version: '2025-09-29' } }),
    ],
    ['an unknown service', 'warning', true, acp({ ...DOC, capabilities: { services: ['checkout', 'subscriptions'] } })],
    ['an http api_base_url', 'warning', true, acp({ ...DOC, api_base_url: 'http://api.acme.test/acp' })],
    ['missing required fields', 'fail', true, acp({ protocol: { name: 'acp' }, transports: [] })],
    ['an HTML page', 'fail', true, { ...htmlPage('<!doctype html><html><body>Shop</body></html>'), url: URL_ }],
    ['absent on a commerce site', 'fail', true, notFound(URL_)],
    ['a non-commerce site', 'na', false, notFound(URL_)],
  ])('%s -> %s', (_name, expected, isCommerce, document) => {
    const outcome = check.run({ commerceSignals: commerce(isCommerce), acp: document }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('details name the version, transports and services', () => {
    expect(check.run({ commerceSignals: commerce(true), acp: acp(DOC) }, context).details).toBe(
      `ACP 2026-04-17 at ${URL_}: rest, mcp transport(s), services checkout, orders`,
    )
  })
})
