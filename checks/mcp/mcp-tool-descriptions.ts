// Every tool has a description of at least 20 characters that is more than its name, and the input properties are
// described. Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
import type { McpTool } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { clip, listSome } from '../../core/engine/lib/describe.ts'
import { listedTools, MCP_SPEC, schemaProperties, sentence, text } from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const MIN_LENGTH = 20
const PROPERTY_SHARE = 0.8
const WARN_SHARE = 0.7

export default defineCheck({
  meta: {
    id: 'mcp-tool-descriptions',
    name: 'Tools and params described',
    description:
      'The model chooses a tool and fills its arguments from the descriptions alone; an undescribed tool or parameter is guessed at, or never used.',
    layer: 'usability',
    applicability: 'mcp',
    tier: 'required',
    maturity: 'verified',
    maxScore: 8,
    specUrl: `${MCP_SPEC}/server/tools#tool`,
    recommendation:
      'Give every tool a description of at least 20 characters saying what it does and when to use it, and a description on every inputSchema property.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const listed = listedTools(mcp)
    if ('outcome' in listed) return listed.outcome
    const { tools } = listed

    const weak = tools.flatMap((tool) => {
      const problem = descriptionProblem(tool)
      return problem ? [`"${clip(tool.name, 60)}" (${problem})`] : []
    })
    const properties = tools.flatMap((tool) =>
      schemaProperties(tool.inputSchema).map(([name, schema]) => ({ label: `${tool.name}.${name}`, schema })),
    )
    const undescribed = properties
      .filter(({ schema }) => !isRecord(schema) || !text(schema.description))
      .map(({ label }) => label)

    const toolShare = (tools.length - weak.length) / tools.length
    const propertyShare = properties.length === 0 ? 1 : (properties.length - undescribed.length) / properties.length
    // The score follows both shares; the status follows the thresholds of docs/checks.md §6.
    const fraction = properties.length === 0 ? toolShare : (toolShare + propertyShare) / 2
    const options = { fraction, occurrences: tools.length }
    const propertyPart =
      properties.length === 0
        ? 'no tool takes arguments'
        : `${properties.length - undescribed.length}/${properties.length} input properties are described`
    const summary = `${tools.length - weak.length}/${tools.length} tools have a description of ${MIN_LENGTH}+ characters; ${propertyPart}`
    const fixes = [
      weak.length > 0 && `describe what these tools do and when to use them: ${listSome(weak)}`,
      undescribed.length > 0 && `add a description to ${listSome(undescribed)}`,
    ].filter((fix): fix is string => fix !== false)
    const recommendation = sentence(fixes)

    if (toolShare === 1 && propertyShare >= PROPERTY_SHARE) {
      return pass(undescribed.length > 0 ? `${summary} (undescribed: ${listSome(undescribed)})` : summary, options)
    }
    return toolShare >= WARN_SHARE ? warn(summary, recommendation, options) : fail(summary, recommendation, options)
  },
})

function descriptionProblem(tool: McpTool): string | null {
  const description = text(tool.description)
  if (!description) return 'no description'
  if (words(description) === words(tool.name)) return 'the description repeats the name'
  if (description.length < MIN_LENGTH)
    return `"${clip(description, 30)}" is only ${description.length} character${description.length === 1 ? '' : 's'}`
  return null
}

/** "Search_Anvils" and "search anvils" say the same thing. */
function words(value: string): string {
  return value
    .toLowerCase()
    .replace(/[\s_.-]+/g, ' ')
    .trim()
}
