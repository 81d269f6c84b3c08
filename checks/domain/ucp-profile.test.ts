import { describe, expect, test } from 'bun:test'
import type { CommerceSignals } from '../../core/engine/collectors/commerce-signals.ts'
import type { Outcome } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, jsonSnapshot, notFound } from '../../tests/support/artifacts.ts'
import check from './ucp-profile.ts'

const commerce = (isCommerce: boolean): CommerceSignals => ({
  isCommerce,
  reasons: isCommerce ? ['Shopify marker'] : [],
  productUrls: [],
  pricingUrl: null,
})
const URL_ = 'https://acme.test/.well-known/ucp'
const ucp = (value: unknown): HttpSnapshot => jsonSnapshot(value, { url: URL_ })

const CURRENT = {
  ucp: {
    version: '2026-04-08',
    services: {
      'dev.ucp.shopping': [
        {
          version: '2026-04-08',
          spec: 'https://ucp.dev/specification/overview',
          transport: 'rest',
          endpoint: 'https://acme.test/ucp/v1',
          schema: 'https://ucp.dev/services/shopping/rest.openapi.json',
        },
        {
          version: '2026-04-08',
          spec: 'https://ucp.dev/specification/overview',
          transport: 'mcp',
          endpoint: 'https://acme.test/ucp/mcp',
        },
      ],
    },
    capabilities: {
      'dev.ucp.shopping.checkout': [
        {
          version: '2026-04-08',
          spec: 'https://ucp.dev/specification/checkout',
          schema: 'https://ucp.dev/schemas/shopping/checkout.json',
        },
      ],
    },
    payment_handlers: {},
  },
  keys: [{ kid: 'k1', kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }],
}
const LEGACY = {
  ucp: {
    version: '2026-01-11',
    services: {
      'dev.ucp.shopping': {
        version: '2026-01-11',
        spec: 'https://ucp.dev/specification/overview',
        rest: { schema: 'https://ucp.dev/services/shopping/rest.openapi.json', endpoint: 'https://acme.test/ucp/v1' },
        mcp: null,
      },
    },
    capabilities: [
      {
        name: 'dev.ucp.shopping.checkout',
        version: '2026-01-11',
        spec: 'https://ucp.dev/specification/checkout',
        schema: 'https://ucp.dev/schemas/shopping/checkout.json',
      },
    ],
  },
  payment: { handlers: [{ id: 'gpay', name: 'com.google.pay', version: '2026-01-11' }] },
}

describe('ucp-profile', () => {
  test.each<[string, Outcome['status'], boolean, HttpSnapshot]>([
    ['a 2026-04-08 profile', 'pass', true, ucp(CURRENT)],
    ['a 2026-01-11 profile', 'warning', true, ucp(LEGACY)],
    ['empty services', 'warning', true, ucp({ ucp: { ...CURRENT.ucp, services: {} } })],
    ['a key without kid', 'warning', true, ucp({ ...CURRENT, keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'abc' }] })],
    ['no payment handlers', 'fail', true, ucp({ ucp: { version: '2026-04-08', services: CURRENT.ucp.services } })],
    [
      'a binding with an unknown transport',
      'fail',
      true,
      ucp({
        ucp: {
          ...CURRENT.ucp,
          services: { 'dev.ucp.shopping': [{ version: '2026-04-08', spec: 'x', transport: 'grpc' }] },
        },
      }),
    ],
    ['no ucp object', 'fail', true, ucp({ version: '2026-04-08' })],
    ['absent on a commerce site', 'fail', true, notFound(URL_)],
    ['a non-commerce site', 'na', false, ucp(CURRENT)],
  ])('%s -> %s', (_name, expected, isCommerce, profile) => {
    const outcome = check.run({ commerceSignals: commerce(isCommerce), ucp: profile }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('the legacy shape is named in the details', () => {
    expect(check.run({ commerceSignals: commerce(true), ucp: ucp(LEGACY) }, context).details).toContain(
      'older 2026-01-11 shape',
    )
  })
})
