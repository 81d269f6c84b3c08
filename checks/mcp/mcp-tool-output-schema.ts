// Tools that return data declare an object outputSchema that compiles; in deep mode, read-only tools called once
// must return structuredContent matching it. Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema
import type { McpServerArtifact, McpTool } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { clip, listSome } from '../../core/engine/lib/describe.ts'
import { compileSchema, schemaMismatch } from '../lib/json-schema.ts'
import { isObjectSchema, listedTools, MCP_SPEC, quoted, sentence, unfinished } from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const SHARE = 0.5

export default defineCheck({
  meta: {
    id: 'mcp-tool-output-schema',
    name: 'Output schemas declared',
    description:
      'An outputSchema tells the agent the shape of a tool result before calling it and lets clients validate structuredContent, instead of parsing free text.',
    layer: 'usability',
    applicability: 'mcp',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 4,
    specUrl: `${MCP_SPEC}/server/tools#output-schema`,
    recommendation:
      'Declare an outputSchema ({"type": "object", ...}) on tools that return data, and return matching structuredContent alongside the text content.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const listed = listedTools(mcp)
    if ('outcome' in listed) return listed.outcome
    const { tools } = listed
    const options = { occurrences: tools.length }

    const declared = tools.filter((tool) => tool.outputSchema !== undefined)
    if (declared.length === 0) {
      return fail(
        `None of the ${tools.length} tools declares an outputSchema`,
        `Declare an outputSchema on those of ${quoted(tools.map((tool) => tool.name))} that return data, and return matching structuredContent.`,
        options,
      )
    }
    const broken = declared.flatMap((tool) => {
      const problem = schemaProblem(tool.outputSchema)
      return problem ? [`"${clip(tool.name, 60)}" (${problem})`] : []
    })
    const valid = declared.length - broken.length
    const mismatches = callMismatches(mcp, tools)
    const undeclared = tools.filter((tool) => tool.outputSchema === undefined).map((tool) => tool.name)
    const called = mcp.toolCalls.length > 0 ? `; ${mcp.toolCalls.length} read-only tool(s) called` : ''
    const summary = `${valid}/${tools.length} tools declare a valid object outputSchema${called}`

    if (valid / tools.length >= SHARE && broken.length === 0 && mismatches.length === 0) {
      return pass(`${summary}${undeclared.length > 0 ? ` (without one: ${quoted(undeclared)})` : ''}`, options)
    }
    const problems = [
      broken.length > 0 && `invalid outputSchema on ${listSome(broken)}`,
      mismatches.length > 0 && `structuredContent does not match the outputSchema for ${listSome(mismatches)}`,
    ].filter((problem): problem is string => problem !== false)
    const fixes = [
      broken.length > 0 && `fix the outputSchema of ${listSome(broken)} (an object schema that compiles)`,
      mismatches.length > 0 &&
        `return structuredContent that matches the declared outputSchema from ${listSome(mismatches)}`,
      valid / tools.length < SHARE && `declare an outputSchema on ${quoted(undeclared)}`,
    ].filter((fix): fix is string => fix !== false)
    return warn(
      problems.length > 0 ? `${summary}, but ${problems.join('; ')}` : `${summary}, under half of them`,
      sentence(fixes),
      options,
    )
  },
})

function schemaProblem(schema: unknown): string | null {
  if (!isRecord(schema))
    return `it is ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : `a ${typeof schema}`}`
  if (schema.type !== 'object') return `type is ${JSON.stringify(schema.type) ?? 'missing'}, not "object"`
  const compiled = compileSchema(schema)
  return compiled.ok ? null : compiled.problem
}

/** Deep mode: tools called once whose successful result does not carry conforming structuredContent. */
function callMismatches(mcp: McpServerArtifact, tools: McpTool[]): string[] {
  return mcp.toolCalls.flatMap((call) => {
    const schema = tools.find((tool) => tool.name === call.name)?.outputSchema
    if (!isObjectSchema(schema) || unfinished(call.exchange) || !call.result || call.result.isError === true) return []
    const compiled = compileSchema(schema)
    if (!compiled.ok) return []
    const label = `"${clip(call.name, 60)}"`
    if (call.result.structuredContent === undefined) return [`${label} (no structuredContent)`]
    const mismatch = schemaMismatch(compiled.validate, call.result.structuredContent)
    return mismatch ? [`${label} (${clip(mismatch, 80)})`] : []
  })
}
