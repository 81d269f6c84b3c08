// Bad requests get structured JSON-RPC errors: an unknown method -32601, an unknown tool -32602 (or an isError
// result), an unknown resource -32602/-32002, malformed JSON -32700 or HTTP 400. Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling
import type { McpExchange, McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import {
  describeExchange,
  errorCode,
  isModern,
  MCP_SPEC,
  resultOf,
  sentence,
  settle,
  unfinished,
} from '../lib/mcp-checks.ts'

/** ok: the expected answer; wrong: a JSON-RPC error with the wrong code or status; bad: not a JSON-RPC error at all. */
type Grade = 'ok' | 'wrong' | 'bad' | 'unfinished'

interface Probe {
  label: string
  exchange: McpExchange
  expected: string
  grade: Grade
}

export default defineCheck({
  meta: {
    id: 'mcp-error-handling',
    name: 'Structured JSON-RPC errors',
    description:
      'Agents recover from mistakes by reading error codes: -32601 means "no such method", -32602 "fix your arguments". A 500, an HTML page or silence leaves them retrying blindly.',
    layer: 'usability',
    applicability: 'mcp',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 4,
    specUrl: `${MCP_SPEC}/server/tools#error-handling`,
    recommendation:
      'Answer unknown methods with -32601, unknown tools with -32602 (or an isError result), unknown resources with -32602/-32002 and unparseable bodies with -32700 (HTTP 400), never with a 500 or an HTML page.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const probes = gradeProbes(mcp)
    const bad = probes.filter((probe) => probe.grade === 'bad')
    const wrong = probes.filter((probe) => probe.grade === 'wrong')
    const pending = probes.filter((probe) => probe.grade === 'unfinished').map((probe) => probe.label)
    const line = (probe: Probe) => `${probe.label} got ${describeExchange(probe.exchange)}`
    const fix = (entries: Probe[]) => sentence(entries.map((probe) => `answer ${probe.label} with ${probe.expected}`))

    if (bad.length > 0) {
      const others = wrong.length > 0 ? `; ${wrong.map(line).join('; ')}` : ''
      return settle(fail(`${bad.map(line).join('; ')}${others}`, fix([...bad, ...wrong])), pending)
    }
    const answered = probes.filter((probe) => probe.grade !== 'unfinished')
    const outcome =
      wrong.length > 0
        ? warn(`Errors are JSON-RPC, but ${wrong.map(line).join('; ')}`, fix(wrong))
        : pass(
            `All ${answered.length} bad requests get the expected JSON-RPC errors (${answered.map((probe) => `${probe.label}: ${shortAnswer(probe.exchange)}`).join(', ')})`,
          )
    return settle(outcome, pending)
  },
})

function gradeProbes(mcp: McpServerArtifact): Probe[] {
  const { unknownMethod, unknownTool, unknownResource, malformedJson } = mcp.probes
  const modern = isModern(mcp)
  // Without the capability, tools/call or resources/read is itself an unknown method.
  const toolCodes = mcp.tools.declared ? [-32602] : [-32602, -32601]
  const resourceCodes = mcp.resources.declared ? [-32602, -32002] : [-32602, -32002, -32601]
  return [
    {
      label: 'the unknown method foo/bar',
      exchange: unknownMethod,
      expected: modern ? 'HTTP 404 and JSON-RPC error -32601' : 'JSON-RPC error -32601 (method not found)',
      grade: gradeError(unknownMethod, [-32601], modern ? 404 : undefined),
    },
    {
      label: 'tools/call of an unknown tool',
      exchange: unknownTool,
      expected: 'JSON-RPC error -32602 (unknown tool), or a result with isError: true',
      grade: resultOf(unknownTool)?.isError === true ? 'ok' : gradeError(unknownTool, toolCodes),
    },
    {
      label: 'resources/read of x-unknown://nope',
      exchange: unknownResource,
      expected: `JSON-RPC error ${modern ? '-32602' : '-32002 (resource not found) or -32602'}`,
      grade: gradeError(unknownResource, resourceCodes),
    },
    {
      label: 'a malformed JSON body',
      exchange: malformedJson,
      expected: 'HTTP 400 with JSON-RPC error -32700 (parse error)',
      grade: gradeMalformed(malformedJson),
    },
  ]
}

function gradeError(exchange: McpExchange, codes: number[], httpStatus?: number): Grade {
  if (unfinished(exchange)) return 'unfinished'
  if (broken(exchange)) return 'bad'
  const code = errorCode(exchange)
  if (code === undefined) return 'bad'
  return codes.includes(code) && (httpStatus === undefined || exchange.status === httpStatus) ? 'ok' : 'wrong'
}

function gradeMalformed(exchange: McpExchange): Grade {
  if (unfinished(exchange)) return 'unfinished'
  if (broken(exchange) || exchange.response?.result !== undefined) return 'bad'
  if (errorCode(exchange) === -32700 || exchange.status === 400) return 'ok'
  return 'wrong'
}

/** A server error, an HTML page, or a success where an error was due. */
function broken(exchange: McpExchange): boolean {
  return (
    (exchange.status ?? 0) >= 500 ||
    exchange.html ||
    (exchange.response?.result !== undefined && exchange.response.error === undefined)
  )
}

function shortAnswer(exchange: McpExchange): string {
  const code = errorCode(exchange)
  if (code !== undefined) return `${code}${exchange.status !== 200 ? ` (HTTP ${exchange.status})` : ''}`
  return resultOf(exchange)?.isError === true ? 'isError result' : `HTTP ${exchange.status}`
}
