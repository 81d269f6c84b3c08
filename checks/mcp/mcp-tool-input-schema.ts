// Every tool's inputSchema compiles as JSON Schema (2020-12 unless $schema says otherwise), has type "object",
// requires only defined properties and types each property. Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
import type { McpTool } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { clip, listSome } from '../../core/engine/lib/describe.ts'
import { compileSchema } from '../lib/json-schema.ts'
import { listedTools, MCP_SPEC, schemaProperties } from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

interface Findings {
  /** Problems that make the schema unusable: null, not an object type, does not compile, unsatisfiable. */
  broken: string[]
  /** SHOULD-level gaps: untyped properties, open no-argument schemas, an unsupported dialect. */
  loose: string[]
}

export default defineCheck({
  meta: {
    id: 'mcp-tool-input-schema',
    name: 'Valid input schemas',
    description:
      'Clients validate arguments and models build them from inputSchema; a schema that does not compile, is not an object, or leaves properties untyped produces rejected or wrong calls.',
    layer: 'usability',
    applicability: 'mcp',
    tier: 'required',
    maturity: 'verified',
    maxScore: 8,
    specUrl: `${MCP_SPEC}/server/tools#tool`,
    recommendation:
      'Give every tool an inputSchema of {"type": "object"} with typed, described properties and a required list naming only defined properties; for no arguments use {"type": "object", "additionalProperties": false}.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const listed = listedTools(mcp)
    if ('outcome' in listed) return listed.outcome
    const { tools } = listed
    const options = { occurrences: tools.length }

    const judged = tools.map((tool) => ({ name: clip(tool.name, 60), ...judge(tool) }))
    const broken = judged.filter((tool) => tool.broken.length > 0)
    const loose = judged.filter((tool) => tool.broken.length === 0 && tool.loose.length > 0)
    const explain = (entries: typeof judged, key: keyof Findings) =>
      listSome(entries.map((tool) => `"${tool.name}": ${tool[key].join(', ')}`))
    const recommendation = (entries: typeof judged) =>
      `Fix the inputSchema of ${listSome(
        entries.map((tool) => `"${tool.name}" (${[...tool.broken, ...tool.loose].join('; ')})`),
        4,
      )}.`

    if (broken.length > 0) {
      const alsoLoose = loose.length > 0 ? `; ${loose.length} more with gaps: ${explain(loose, 'loose')}` : ''
      return fail(
        `${broken.length} of ${tools.length} input schemas are unusable: ${explain(broken, 'broken')}${alsoLoose}`,
        recommendation([...broken, ...loose]),
        options,
      )
    }
    if (loose.length > 0)
      return warn(
        `${tools.length - loose.length} of ${tools.length} input schemas are complete; gaps in ${explain(loose, 'loose')}`,
        recommendation(loose),
        options,
      )
    return pass(`All ${tools.length} input schemas compile, are objects and type every property`, options)
  },
})

function judge(tool: McpTool): Findings {
  const schema = tool.inputSchema
  if (schema === undefined || schema === null)
    return { broken: [`inputSchema is ${schema === null ? 'null' : 'missing'}`], loose: [] }
  if (!isRecord(schema))
    return {
      broken: [`inputSchema is ${Array.isArray(schema) ? 'an array' : `a ${typeof schema}`}, not an object`],
      loose: [],
    }

  const broken: string[] = []
  const loose: string[] = []
  if (schema.type !== 'object') broken.push(`type is ${JSON.stringify(schema.type) ?? 'missing'}, not "object"`)
  const compiled = compileSchema(schema)
  if (!compiled.ok)
    (compiled.dialect === null ? loose : broken).push(
      compiled.dialect === null ? compiled.problem : `does not compile: ${compiled.problem}`,
    )

  const properties = schemaProperties(schema)
  const defined = new Set(properties.map(([name]) => name))
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : []
  const undefinedRequired = required.filter((name) => !defined.has(name))
  if (undefinedRequired.length > 0) {
    const names = undefinedRequired.map((name) => `"${clip(name, 40)}"`).join(', ')
    // With additionalProperties false no argument object can satisfy the schema.
    if (schema.additionalProperties === false)
      broken.push(`requires ${names} but does not define it and forbids other properties`)
    else loose.push(`requires ${names} without defining it in properties`)
  }
  const untyped = properties.filter(([, property]) => !typed(property)).map(([name]) => clip(name, 40))
  if (untyped.length > 0)
    loose.push(`untyped ${untyped.length === 1 ? 'property' : 'properties'} ${untyped.join(', ')}`)
  const noArguments = properties.length === 0 && schema.patternProperties === undefined
  if (noArguments && schema.additionalProperties === undefined)
    loose.push('takes no arguments but does not set additionalProperties: false')
  return { broken, loose }
}

/** A property is typed by type, enum, const or $ref, or by anyOf/oneOf branches that are all typed (allOf: any). */
function typed(schema: unknown, depth = 0): boolean {
  if (!isRecord(schema) || depth > 8) return false
  if ('type' in schema || 'enum' in schema || 'const' in schema || '$ref' in schema) return true
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key]
    if (Array.isArray(branches) && branches.length > 0 && branches.every((branch) => typed(branch, depth + 1)))
      return true
  }
  return Array.isArray(schema.allOf) && schema.allOf.some((branch) => typed(branch, depth + 1))
}
