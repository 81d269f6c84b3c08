// Public metadata documents (llms.txt, OpenAPI, catalogs) and the MCP endpoint allow cross-origin reads by browser-based agents.
// Spec: https://fetch.spec.whatwg.org/#http-cors-protocol
import { AGENT_ORIGIN, type CorsProbe, MCP_REQUEST_HEADERS } from '../../core/engine/collectors/cors.ts'
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)
const allowsOrigin = (probe: CorsProbe) => probe.allowOrigin === '*' || probe.allowOrigin === AGENT_ORIGIN
const covers = (value: string | null, wanted: string) => list(value).some((item) => item === '*' || item === wanted)

/** What is wrong with one probe for a browser-based agent; empty when it works. */
function gaps(probe: CorsProbe): string[] {
  const problems: string[] = []
  if (probe.resource === 'mcp-preflight' && (probe.status === null || probe.status < 200 || probe.status >= 300)) {
    problems.push(`the preflight answered ${probe.status}`)
  }
  if (probe.resource === 'mcp-initialize' && probe.status === 403) {
    problems.push(`initialize with Origin: ${AGENT_ORIGIN} answered 403 (the server's Origin validation refuses it)`)
  }
  if (!allowsOrigin(probe))
    problems.push(
      probe.allowOrigin ? `Access-Control-Allow-Origin is "${probe.allowOrigin}"` : 'no Access-Control-Allow-Origin',
    )
  if (probe.resource === 'mcp-preflight') {
    // POST is a CORS-safelisted method, so Allow-Methods only matters when it is sent and leaves POST out.
    if (probe.allowMethods && !covers(probe.allowMethods, 'post'))
      problems.push(`Access-Control-Allow-Methods (${probe.allowMethods}) lacks POST`)
    const missing = (probe.requestHeaders ?? MCP_REQUEST_HEADERS).filter(
      (header) => !covers(probe.allowHeaders, header),
    )
    if (missing.length) problems.push(`Access-Control-Allow-Headers lacks ${missing.join(', ')}`)
  }
  if (probe.resource === 'mcp-initialize' && probe.sessionId && !covers(probe.exposeHeaders, 'mcp-session-id')) {
    problems.push('an Mcp-Session-Id is issued but not listed in Access-Control-Expose-Headers')
  }
  return problems
}

export default defineCheck({
  meta: {
    id: 'cors-public-metadata',
    name: 'CORS on public metadata and MCP',
    description:
      'Agents running in a browser (web apps, extensions) can only read llms.txt, OpenAPI, catalogs and MCP responses from another origin when CORS allows it.',
    layer: 'accessibility',
    applicability: 'all',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 3,
    specUrl: 'https://fetch.spec.whatwg.org/#http-cors-protocol',
    recommendation:
      'Send Access-Control-Allow-Origin: * on public metadata (llms.txt, OpenAPI, /.well-known documents); for MCP, answer preflights allowing POST and the Content-Type, Mcp-Protocol-Version and Mcp-Session-Id headers, and expose Mcp-Session-Id.',
    needs: ['cors'],
  },
  run({ cors }, { target }) {
    const completed = cors.probes.filter((probe) => probe.status !== null)
    const failed = cors.probes.filter((probe) => probe.status === null)
    if (cors.probes.length === 0) {
      return na(
        target.kind === 'domain'
          ? 'No public metadata documents (llms.txt, OpenAPI, AI catalog, API catalog) to test'
          : 'No MCP endpoint or public metadata to test',
      )
    }
    if (completed.length === 0) {
      return unreachable(
        `No CORS probe completed: ${failed.map((probe) => `${probe.resource} (${probe.error})`).join(', ')}`,
      )
    }
    const judged = completed.map((probe) => ({ probe, problems: gaps(probe) }))
    const good = judged.filter(({ problems }) => problems.length === 0)
    const bad = judged.filter(({ problems }) => problems.length > 0)
    const okText = good.map(({ probe }) => `${probe.resource} (${probe.allowOrigin})`).join(', ')
    const badText = bad
      .map(({ probe, problems }) => `${probe.resource} at ${probe.url}: ${problems.join(', ')}`)
      .join('; ')
    const skipped = failed.length
      ? `; not tested (request failed): ${failed.map((probe) => probe.resource).join(', ')}`
      : ''
    const recommendation = `Fix CORS on ${bad.map(({ probe }) => probe.url).join(', ')}: ${[...new Set(bad.flatMap(({ probe }) => fixFor(probe)))].join('; ')}.`
    if (bad.length === 0) return pass(`Cross-origin reads allowed on every resource tested: ${okText}${skipped}`)
    if (good.length === 0)
      return fail(`No resource allows cross-origin reads by ${AGENT_ORIGIN}: ${badText}${skipped}`, recommendation)
    return warn(`CORS allowed on ${okText}, but not on ${badText}${skipped}`, recommendation, {
      fraction: good.length / judged.length,
    })
  },
})

function fixFor(probe: CorsProbe): string[] {
  if (probe.resource === 'mcp-preflight') {
    const headers = (probe.requestHeaders ?? MCP_REQUEST_HEADERS).map((header) =>
      header.replace(/(^|-)[a-z]/g, (start) => start.toUpperCase()),
    )
    return [
      `answer OPTIONS with 204, Access-Control-Allow-Origin, Access-Control-Allow-Methods: POST, GET, DELETE and Access-Control-Allow-Headers: ${[...headers, 'Authorization'].join(', ')}`,
    ]
  }
  if (probe.resource === 'mcp-initialize') {
    const origin =
      probe.status === 403
        ? [
            'let the Origin validation of a public server accept browser-based clients (it guards against DNS rebinding, which a public URL is not exposed to)',
          ]
        : []
    return [
      ...origin,
      'send Access-Control-Allow-Origin and Access-Control-Expose-Headers: Mcp-Session-Id on MCP responses',
    ]
  }
  return ['send Access-Control-Allow-Origin: * on public documents']
}
