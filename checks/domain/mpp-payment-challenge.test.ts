import { describe, expect, test } from 'bun:test'
import type { CommerceSignals } from '../../core/engine/collectors/commerce-signals.ts'
import type { PaymentProbesArtifact } from '../../core/engine/collectors/payment-probes.ts'
import type { Outcome } from '../../core/engine/check.ts'
import { context, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './mpp-payment-challenge.ts'

const commerce = (isCommerce: boolean): CommerceSignals => ({
  isCommerce,
  reasons: isCommerce ? ['pricing page'] : [],
  productUrls: [],
  pricingUrl: null,
})
const request = Buffer.from(JSON.stringify({ amount: '1000', currency: 'usd', recipient: '0xabc' })).toString(
  'base64url',
)
const CHALLENGE = `Payment id="aB3cDeF4gHiJkLmN", realm="acme.test", method="tempo", intent="charge", request="${request}", expires="2026-04-01T12:05:00Z"`

function probes(wwwAuthenticate?: string, status = 402): PaymentProbesArtifact {
  const api = snapshot({
    url: 'https://acme.test/api',
    status,
    headers: {
      'content-type': 'application/problem+json',
      ...(wwwAuthenticate ? { 'www-authenticate': wwwAuthenticate } : {}),
    },
    body: '{"type":"https://paymentauth.org/problems/payment-required","status":402}',
  })
  return {
    responses: [
      { url: 'https://acme.test/', via: 'root', response: snapshot() },
      { url: 'https://acme.test/api', via: 'api', response: status === 404 ? notFound('https://acme.test/api') : api },
    ],
  }
}

describe('mpp-payment-challenge', () => {
  test.each<[string, Outcome['status'], PaymentProbesArtifact, boolean]>([
    ['a Payment challenge', 'pass', probes(CHALLENGE), false],
    [
      'a Payment challenge after a Bearer challenge (joined header)',
      'pass',
      probes(`Bearer realm="api", error="invalid_token", ${CHALLENGE}`),
      false,
    ],
    ['a Payment challenge without id', 'fail', probes(CHALLENGE.replace('id="aB3cDeF4gHiJkLmN", ', '')), false],
    ['a request that is not base64url JSON', 'fail', probes(CHALLENGE.replace(request, 'not*json')), false],
    ['a 402 without a Payment challenge', 'fail', probes(), false],
    ['an API alone, with no 402, is not a payment signal', 'na', probes(undefined, 404), false],
    ['no 402 and no commerce signal', 'na', probes(undefined, 404), false],
  ])('%s -> %s', (_name, expected, paymentProbes, isCommerce) => {
    const outcome = check.run({ paymentProbes, commerceSignals: commerce(isCommerce) }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('details name the method and intent', () => {
    const outcome = check.run({ paymentProbes: probes(CHALLENGE), commerceSignals: commerce(false) }, context)
    expect(outcome.details).toBe(
      '/api answers 402 with a Payment challenge (method "tempo", intent "charge", realm "acme.test")',
    )
  })
})
