// A 402 Payment Required carries x402 requirements: a v2 PAYMENT-REQUIRED header (base64 PaymentRequired), or the
// legacy v1 JSON body. Probes /, /api and paid OpenAPI operations; never pays. Spec: https://github.com/coinbase/x402/tree/main/specs
import { defineCheck, fail, na, pass, warn, type Outcome } from '../../core/engine/contract.ts'
import { no402Outcome, probedPaths, readPaymentChallenges, responses402, type Seen402 } from '../../core/engine/lib/payments.ts'
import { readX402 } from '../../core/engine/lib/x402.ts'
import { isRecord, parseJson } from '../../core/engine/snapshot.ts'

const V2_EXAMPLE =
  'PAYMENT-REQUIRED: base64({"x402Version":2,"resource":{"url":…},"accepts":[{"scheme":"exact","network":"eip155:8453","amount":"10000","asset":…,"payTo":…,"maxTimeoutSeconds":60}]})'

export default defineCheck({
  meta: {
    id: 'x402-payment-required',
    name: 'x402 payment requirements',
    description:
      'With x402 a paid resource answers 402 with machine-readable payment requirements, so an agent can pay per request without an account or a checkout page.',
    layer: 'payments',
    appliesTo: ['domain', 'mcp', 'mcp-app'],
    applicability: 'all',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: false,
    draft: true,
    beta: false,
    maxScore: 6,
    specUrl: 'https://github.com/coinbase/x402/tree/main/specs',
    recommendation: `Answer unpaid requests to paid resources with 402 and an x402 v2 header, ${V2_EXAMPLE}.`,
    needs: ['paymentProbes', 'commerceSignals'],
    deep: false,
  },
  run({ paymentProbes, commerceSignals }, { target }) {
    const seen = responses402(paymentProbes)
    if (seen.length > 0) return judge(seen)
    if (target.kind !== 'domain') {
      // MCP tool results (isError + structuredContent PaymentRequired) are not collected yet; HTTP 402s on the origin are.
      return na(`No 402 on the probed URLs (${probedPaths(paymentProbes)}) of the MCP server's origin`)
    }
    return no402Outcome(
      paymentProbes,
      commerceSignals,
      'x402 payment requirements',
      `If any resource is paid, answer unpaid requests with 402 and ${V2_EXAMPLE}; document the 402 response on paid operations in the OpenAPI document.`,
    )
  },
})

function judge(seen: Seen402[]): Outcome {
  const readings = seen.map((entry) => ({ ...entry, reading: readX402(entry.response) }))
  const where = (entry: Seen402) => new URL(entry.url).pathname
  const v2 = readings.find((entry) => entry.reading?.version === 2 && entry.reading.valid)
  if (v2) return pass(`${where(v2)} answers 402 with a valid x402 v2 PAYMENT-REQUIRED header (${v2.reading!.options.join(', ')})`)
  const v1 = readings.find((entry) => entry.reading?.version === 1 && entry.reading.valid)
  if (v1) {
    return warn(
      `${where(v1)} answers 402 with legacy x402 v1 requirements in the body (${v1.reading!.options.join(', ')}), no v2 header`,
      `Also send the v2 header on ${where(v1)}: ${V2_EXAMPLE} (CAIP-2 network ids, amount in atomic units).`,
    )
  }
  const invalid = readings.find((entry) => entry.reading !== null)
  if (invalid) {
    return warn(
      `${where(invalid)} answers 402 with x402 v${invalid.reading!.version} requirements that do not validate: ${invalid.reading!.problems.slice(0, 3).join('; ')}`,
      `Fix the x402 requirements on ${where(invalid)}: ${invalid.reading!.problems.slice(0, 3).join('; ')}.`,
    )
  }
  const envelope = readings.find((entry) => readPaymentChallenges(entry.response).length > 0 || isRecord(parseJson(entry.response.body)))
  if (envelope) {
    const kind = readPaymentChallenges(envelope.response).length > 0 ? 'an MPP Payment challenge' : `a ${envelope.response.contentType || 'JSON'} body`
    return warn(
      `${where(envelope)} answers 402 with ${kind}, but not x402 requirements`,
      `Add an x402 v2 header to the 402 from ${where(envelope)}: ${V2_EXAMPLE}.`,
    )
  }
  const first = readings[0]!
  return fail(
    `${where(first)} answers 402 without machine-readable payment requirements (${first.response.contentType || 'no Content-Type'}, ${first.response.body.length} bytes)`,
    `Tell agents how to pay on ${where(first)}: send ${V2_EXAMPLE} with the 402.`,
  )
}
