// A 402 Payment Required carries x402 requirements: a v2 PAYMENT-REQUIRED header (base64 PaymentRequired), or the
// legacy v1 JSON body; on MCP, a tool result with isError and structuredContent = PaymentRequired. Probes /, /api and
// paid OpenAPI operations, and only reads MCP tool results the scan already has; never pays.
// Spec: https://github.com/coinbase/x402/tree/main/specs (transports-v2/http.md, transports-v2/mcp.md)
import type { AgentProbes } from '../../core/engine/collectors/agent-probes.ts'
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, na, pass, warn, type Outcome } from '../../core/engine/check.ts'
import { no402Outcome, probedPaths, readPaymentChallenges, responses402 } from '../lib/payments.ts'
import { readX402, validatePaymentRequiredV2 } from '../lib/x402.ts'
import { type HttpSnapshot, isRecord, parseJson } from '../../core/engine/snapshot.ts'

const V2_EXAMPLE =
  'PAYMENT-REQUIRED: base64({"x402Version":2,"resource":{"url":…},"accepts":[{"scheme":"exact","network":"eip155:8453","amount":"10000","asset":…,"payTo":…,"maxTimeoutSeconds":60}]})'
const MCP_EXAMPLE =
  'a tools/call result {"isError": true, "structuredContent": <PaymentRequired {"x402Version":2,"resource":{"url":…},"accepts":[…]}>, "content": [{"type": "text", "text": "{\\"x402/error\\": {\\"code\\": 402, \\"data\\": <PaymentRequired>}}"}]}'

/** A 402 seen somewhere in the scan: where (for details) and the fields that carry requirements. */
interface Answered402 {
  where: string
  response: Pick<HttpSnapshot, 'headers' | 'body' | 'contentType'>
}

export default defineCheck({
  meta: {
    id: 'x402-payment-required',
    name: 'x402 payment requirements',
    description:
      'With x402 a paid resource answers 402 with machine-readable payment requirements, so an agent can pay per request without an account or a checkout page.',
    layer: 'payments',
    applicability: 'all',
    tier: 'emerging',
    maturity: 'emerging',
    draft: true,
    maxScore: 6,
    specUrl: 'https://github.com/coinbase/x402/tree/main/specs',
    recommendation: `Answer unpaid requests to paid resources with 402 and an x402 v2 header, ${V2_EXAMPLE}.`,
    needs: ['paymentProbes', 'commerceSignals', 'agentProbes'],
  },
  run({ paymentProbes, commerceSignals, agentProbes }, { target }) {
    const seen = responses402(paymentProbes).map(({ url, response }) => ({ where: new URL(url).pathname, response }))
    if (target.kind !== 'domain') return judgeMcp(seen, agentProbes, probedPaths(paymentProbes))
    if (seen.length > 0) return judge(seen)
    return no402Outcome(
      paymentProbes,
      commerceSignals,
      'x402 payment requirements',
      `If any resource is paid, answer unpaid requests with 402 and ${V2_EXAMPLE}; document the 402 response on paid operations in the OpenAPI document.`,
    )
  },
})

function judge(seen: Answered402[]): Outcome {
  const readings = seen.map((entry) => ({ ...entry, reading: readX402(entry.response) }))
  const where = (entry: Answered402) => entry.where
  const v2 = readings.find((entry) => entry.reading?.version === 2 && entry.reading.valid)
  if (v2)
    return pass(
      `${where(v2)} answers 402 with a valid x402 v2 PAYMENT-REQUIRED header (${v2.reading!.options.join(', ')})`,
    )
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
  const envelope = readings.find(
    (entry) => readPaymentChallenges(entry.response).length > 0 || isRecord(parseJson(entry.response.body)),
  )
  if (envelope) {
    const kind =
      readPaymentChallenges(envelope.response).length > 0
        ? 'an MPP Payment challenge'
        : `a ${envelope.response.contentType || 'JSON'} body`
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

// ---------------------------------------------------------------------------------------------------------
// MCP (x402 transports-v2/mcp.md): payment requirements travel in tool results, or as HTTP 402 from the endpoint.

type ToolResult = NonNullable<McpServerArtifact['toolCalls'][number]['result']>

const RANK: Record<Outcome['status'], number> = { pass: 3, warning: 2, fail: 1, na: 0, error: 0 }

function judgeMcp(originSeen: Answered402[], agentProbes: AgentProbes, probed: string): Outcome {
  const session = agentProbes.mcpSession
  const endpointSeen: Answered402[] = [
    ...agentProbes.probes
      .filter((probe) => probe.response.status === 402)
      .map((probe) => ({ where: `the MCP endpoint (initialize as ${probe.agent})`, response: probe.response })),
    ...(session?.exchanges ?? [])
      .filter(({ exchange }) => exchange.status === 402)
      .map(({ label, exchange }) => ({ where: `the MCP endpoint (${label})`, response: exchange })),
  ]
  const seen = [...originSeen, ...endpointSeen]
  const outcomes = [toolResultsOutcome(session?.toolCalls ?? []), seen.length > 0 ? judge(seen) : null].filter(
    (outcome): outcome is Outcome => outcome !== null,
  )
  if (outcomes.length > 0)
    return outcomes.reduce((best, outcome) => (RANK[outcome.status] > RANK[best.status] ? outcome : best))
  const calls = session?.toolCalls.length ?? 0
  return na(
    `No payment signal: no 402 on the probed URLs (${probed}) of the MCP server's origin or from the endpoint, and ${calls > 0 ? `none of the ${calls} read-only tool result(s) asks for payment` : 'no tool result to inspect'} (the scanner never pays)`,
  )
}

/** The PaymentRequired a tool result carries: structuredContent, or the `x402/error` text envelope. */
function toolPayment(result: ToolResult) {
  const structured = result.structuredContent
  if (isRecord(structured) && 'x402Version' in structured)
    return { source: 'structuredContent' as const, value: structured }
  const texts = (Array.isArray(result.content) ? result.content : []).flatMap((item) =>
    isRecord(item) && typeof item.text === 'string' ? [item.text] : [],
  )
  for (const text of texts) {
    const envelope = parseJson(text)
    const error = isRecord(envelope) ? envelope['x402/error'] : undefined
    if (isRecord(error)) return { source: 'text' as const, value: error.data, code: error.code }
  }
  const generic = result.isError === true && texts.some((text) => /payment required|\b402\b/i.test(text))
  return generic ? { source: 'generic' as const, value: undefined } : null
}

function toolResultsOutcome(calls: McpServerArtifact['toolCalls']): Outcome | null {
  const found = calls.flatMap((call) => {
    const payment = call.result ? toolPayment(call.result) : null
    return payment ? [{ tool: call.name, isError: call.result!.isError === true, ...payment }] : []
  })
  if (found.length === 0) return null
  const judged = found.map((entry) => {
    if (entry.source === 'generic') return { ...entry, problems: [] }
    const code =
      entry.source === 'text' && entry.code !== 402 ? [`x402/error.code is ${JSON.stringify(entry.code)}, not 402`] : []
    return { ...entry, problems: [...code, ...validatePaymentRequiredV2(entry.value)] }
  })
  const fix = `Return ${MCP_EXAMPLE} from the paid tool.`
  const valid = judged.filter((entry) => entry.source !== 'generic' && entry.problems.length === 0)
  const best = valid.find((entry) => entry.source === 'structuredContent' && entry.isError) ?? valid[0]
  if (best) {
    const options = acceptedOptions(best.value)
    if (best.source === 'structuredContent' && best.isError) {
      return pass(`tools/call ${best.tool} answers with a valid x402 PaymentRequired in structuredContent (${options})`)
    }
    const gap =
      best.source === 'text'
        ? 'only in the content text ({"x402/error": …}), not in structuredContent'
        : 'in a result not flagged isError, so clients take it for a successful call'
    return warn(`tools/call ${best.tool} carries valid x402 requirements (${options}) ${gap}`, fix)
  }
  const invalid = judged.find((entry) => entry.source !== 'generic')
  if (invalid) {
    return warn(
      `tools/call ${invalid.tool} carries x402 requirements that do not validate: ${invalid.problems.slice(0, 3).join('; ')}`,
      `Fix the PaymentRequired of ${invalid.tool}: ${invalid.problems.slice(0, 3).join('; ')}.`,
    )
  }
  return warn(
    `tools/call ${judged[0]!.tool} asks for payment in its text, without machine-readable x402 requirements`,
    fix,
  )
}

function acceptedOptions(value: unknown): string {
  const accepts = isRecord(value) && Array.isArray(value.accepts) ? value.accepts.filter(isRecord) : []
  return accepts
    .map((option) => [option.scheme, option.network].filter((part) => typeof part === 'string').join(' '))
    .join(', ')
}
