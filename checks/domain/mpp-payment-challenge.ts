// A 402 carries a parseable MPP challenge: WWW-Authenticate: Payment id, realm, method, intent, request (base64url
// JSON). Bonus. Spec: https://paymentauth.org (draft-ryan-httpauth-payment)
import { defineCheck, fail, pass } from '../../core/engine/check.ts'
import { no402Outcome, readPaymentChallenges, responses402 } from '../lib/payments.ts'

const EXAMPLE =
  'WWW-Authenticate: Payment id="…", realm="<host>", method="tempo", intent="charge", request="<base64url JSON>"'

export default defineCheck({
  meta: {
    id: 'mpp-payment-challenge',
    name: 'MPP Payment challenge',
    description:
      'The Machine Payments Protocol turns a 402 into a standard HTTP authentication challenge (scheme "Payment") that agents answer with a payment credential.',
    layer: 'payments',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: true,
    draft: true,
    maxScore: 2,
    specUrl: 'https://paymentauth.org',
    recommendation: `Answer unpaid requests to paid resources with 402 and ${EXAMPLE}.`,
    needs: ['paymentProbes', 'commerceSignals'],
  },
  run({ paymentProbes, commerceSignals }) {
    const seen = responses402(paymentProbes).map((entry) => ({
      path: new URL(entry.url).pathname,
      challenges: readPaymentChallenges(entry.response),
    }))
    const valid = seen.find((entry) => entry.challenges.some((challenge) => challenge.valid))
    if (valid) {
      const challenge = valid.challenges.find((candidate) => candidate.valid)!
      return pass(
        `${valid.path} answers 402 with a Payment challenge (method "${challenge.method}", intent "${challenge.intent}", realm "${challenge.realm}")`,
      )
    }
    const broken = seen.find((entry) => entry.challenges.length > 0)
    if (broken) {
      const problems = broken.challenges.flatMap((challenge) => challenge.problems)
      return fail(
        `${broken.path} answers 402 with a Payment challenge that does not parse: ${problems.join('; ')}`,
        `Fix the challenge on ${broken.path}: ${problems.join('; ')} (${EXAMPLE}).`,
      )
    }
    if (seen.length > 0) {
      return fail(
        `${seen.map((entry) => entry.path).join(', ')} answer(s) 402 without a WWW-Authenticate: Payment challenge`,
        `Add ${EXAMPLE} to the 402 from ${seen[0]!.path}.`,
      )
    }
    return no402Outcome(
      paymentProbes,
      commerceSignals,
      'a Payment challenge',
      `To let agents pay per request, answer unpaid requests to paid resources with 402 and ${EXAMPLE}.`,
    )
  },
})
