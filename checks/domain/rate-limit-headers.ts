// API (or MCP) responses state their rate limits with the IETF RateLimit-Policy / RateLimit fields, and every 429
// carries Retry-After. Spec: https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/
import { parseList } from 'structured-headers'
import { defineCheck, fail, na, pass, warn, type Outcome } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'

interface Observed {
  label: string
  response: Pick<HttpSnapshot, 'status' | 'headers'>
}

const LEGACY_FIELDS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-rate-limit-limit',
  'x-rate-limit-remaining',
  'x-rate-limit-reset',
  // Fields of early drafts of the IETF document (-00 to -06), since replaced by RateLimit / RateLimit-Policy.
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
]

export default defineCheck({
  meta: {
    id: 'rate-limit-headers',
    name: 'RateLimit headers and Retry-After',
    description:
      'An agent that can read its remaining quota paces itself; one that gets a bare 429 can only guess when to retry, or hammer the server.',
    layer: 'usability',
    applicability: 'all',
    tier: 'emerging',
    maturity: 'emerging',
    draft: true,
    maxScore: 3,
    specUrl: 'https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/',
    recommendation:
      'Send RateLimit-Policy: "default";q=100;w=60 and RateLimit: "default";r=50;t=30 on API responses, and Retry-After on every 429.',
    needs: ['apiSignals', 'notFound', 'openapi', 'paymentProbes', 'agentProbes'],
    surface: 'api',
  },
  run({ apiSignals, notFound, openapi, paymentProbes, agentProbes }, { target }) {
    if (target.kind !== 'domain') {
      // For MCP kinds the agent probes are initialize POSTs to the endpoint, and the scanner's own MCP session adds
      // every other request it made (lists, probes, resource reads, tool calls): any of them may carry the fields or a 429.
      const session = (agentProbes.mcpSession?.exchanges ?? []).flatMap(({ label, exchange }) =>
        exchange.status === null
          ? []
          : [{ label: `MCP ${label}`, response: { status: exchange.status, headers: exchange.headers } }],
      )
      const responses = [
        ...agentProbes.probes.map((probe) => ({ label: `MCP endpoint as ${probe.agent}`, response: probe.response })),
        ...session,
      ]
      return evaluate(responses, responses, 'the MCP endpoint')
    }
    if (!apiSignals.hasApi)
      return na(
        'No API signals (no OpenAPI document, API links or API subdomain), so there are no API responses to assess',
      )
    const api: Observed[] = [
      ...paymentProbes.responses.flatMap((probe) =>
        probe.via !== 'root' && probe.response
          ? [{ label: `GET ${new URL(probe.url).pathname}`, response: probe.response }]
          : [],
      ),
      ...(notFound.api
        ? [{ label: `GET ${new URL(notFound.api.requestedUrl).pathname}`, response: notFound.api }]
        : []),
      ...(openapi.response && openapi.url
        ? [{ label: `the OpenAPI document ${new URL(openapi.url).pathname}`, response: openapi.response }]
        : []),
    ]
    const everything: Observed[] = [
      ...api,
      ...paymentProbes.responses.flatMap((probe) =>
        probe.via === 'root' && probe.response ? [{ label: 'GET /', response: probe.response }] : [],
      ),
      ...agentProbes.probes.map((probe) => ({ label: `the homepage as ${probe.agent}`, response: probe.response })),
    ]
    return evaluate(api, everything, 'the API')
  },
})

/** `observed`: responses that should describe their limits; `all`: every response, searched for 429s. */
function evaluate(observed: Observed[], all: Observed[], subject: string): Outcome {
  const bare429 = all.filter(({ response }) => response.status === 429 && !response.headers['retry-after'])
  if (bare429.length > 0) {
    return fail(
      `429 without Retry-After on ${bare429.map((entry) => entry.label).join(', ')}`,
      `Send Retry-After (seconds or an HTTP date) with every 429 from ${subject}, plus RateLimit-Policy and RateLimit fields so agents can pace themselves.`,
    )
  }
  if (observed.length === 0) {
    return fail(
      `No response from ${subject} could be inspected for rate-limit fields`,
      `Make ${subject} answer requests (even errors) with RateLimit-Policy and RateLimit fields.`,
    )
  }
  const ietf = observed.filter(({ response }) => response.headers['ratelimit-policy'] || response.headers.ratelimit)
  const labels = (entries: Observed[]) =>
    entries
      .map((entry) => entry.label)
      .slice(0, 3)
      .join(', ')
  if (ietf.length > 0) {
    const problems = ietf.flatMap(({ label, response }) => [
      ...syntaxProblems(response.headers['ratelimit-policy'], 'RateLimit-Policy', 'q').map(
        (problem) => `${label}: ${problem}`,
      ),
      ...syntaxProblems(response.headers.ratelimit, 'RateLimit', 'r').map((problem) => `${label}: ${problem}`),
    ])
    const sample = ietf[0]!.response.headers
    const shown = [
      sample['ratelimit-policy'] && `RateLimit-Policy: ${sample['ratelimit-policy']}`,
      sample.ratelimit && `RateLimit: ${sample.ratelimit}`,
    ]
      .filter(Boolean)
      .join(', ')
    if (problems.length > 0) {
      return warn(
        `IETF rate-limit fields on ${labels(ietf)} do not parse: ${problems.slice(0, 3).join('; ')}`,
        'Write the fields as structured-field lists, e.g. RateLimit-Policy: "default";q=100;w=60 and RateLimit: "default";r=50;t=30.',
      )
    }
    return pass(`IETF rate-limit fields on ${labels(ietf)} (${shown})`)
  }
  const legacy = observed.filter(({ response }) => LEGACY_FIELDS.some((field) => response.headers[field]))
  if (legacy.length > 0) {
    const fields = [
      ...new Set(legacy.flatMap(({ response }) => LEGACY_FIELDS.filter((field) => response.headers[field]))),
    ]
    return warn(
      `Only legacy rate-limit fields on ${labels(legacy)} (${fields.join(', ')})`,
      `Add the IETF fields alongside ${fields[0]}: RateLimit-Policy: "default";q=<limit>;w=<window seconds> and RateLimit: "default";r=<remaining>;t=<seconds to reset>.`,
    )
  }
  return fail(
    `No rate-limit fields on ${observed.length} response(s) from ${subject} (${labels(observed)})`,
    `Send RateLimit-Policy and RateLimit fields on responses from ${subject} (e.g. on ${observed[0]!.label}), and Retry-After with every 429.`,
  )
}

/** draft-ietf-httpapi-ratelimit-headers-11: both fields are structured-field Lists whose items need q (policy) or r (limit). */
function syntaxProblems(value: string | undefined, field: string, required: 'q' | 'r'): string[] {
  if (value === undefined) return []
  try {
    const items = parseList(value)
    if (items.length === 0) return [`${field} is empty`]
    return items.every(([, params]) => typeof params.get(required) === 'number')
      ? []
      : [`${field} items need a ${required}= parameter`]
  } catch {
    return [`${field} "${value.slice(0, 60)}" is not a structured-field list`]
  }
}
