import { z } from 'zod'
import type { ToolAnnotations } from './server.ts'

/**
 * The JSON Schemas `tools/list` advertises, derived once per app from the tools' zod schemas. Every agent that
 * connects reads the whole listing into its context, so it is kept small: the zod schemas stay exact for validating
 * arguments and shaping results, while the advertised forms only ever relax them. A relaxed schema still accepts
 * every valid value, so valid arguments stay valid and structuredContent always validates against the advertised
 * outputSchema.
 */

type JsonSchema = Record<string, unknown>

/** Enums longer than this are advertised as their base type; the call still validates the value (and says why not). */
const MAX_LISTED_ENUM = 8

/**
 * Bounds and defaults of input values: the call validates them and a violation comes back as a tool error naming
 * the field and the bound, so the listing need not spell them out for every field of every tool.
 */
const CALL_CHECKED = new Set(['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'pattern', 'format', 'default'])

/** 2020-12 is MCP's default dialect when `$schema` is absent, so the key would only repeat itself in every schema. */
function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema
  return rest
}

/**
 * An input schema as clients need it to build arguments: every field, its type, short enums, what is required and
 * the description of each argument; long enums, bounds and defaults are left to the call's validation.
 */
export function listedInputSchema(schema: z.ZodObject): JsonSchema {
  return relaxInput(toJsonSchema(schema, 'input'), 0)
}

function relaxInput(node: unknown, depth: number): any {
  if (Array.isArray(node)) return node.map((item) => relaxInput(item, depth))
  if (node === null || typeof node !== 'object') return node
  const result: JsonSchema = {}
  for (const [key, value] of Object.entries(node)) {
    if (CALL_CHECKED.has(key)) continue
    if (key === 'enum' && Array.isArray(value) && value.length > MAX_LISTED_ENUM) continue
    // The arguments themselves are described; what lies inside one is the argument's description to explain.
    if (key === 'description' && depth > 1) continue
    if (key === 'properties') {
      result[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([name, property]) => [name, relaxInput(property, depth + 1)]))
    } else result[key] = relaxInput(value, depth)
  }
  return result
}

/**
 * The advertised outputSchema of every tool: results are JSON objects in structuredContent. What they hold is said by
 * the tool's description; their exact shape is the tool's zod schema, which every result is parsed through before it
 * is sent. Listing field by field would cost every connecting agent kilobytes for what most of them never read.
 */
export const LISTED_OUTPUT_SCHEMA = { type: 'object' } as const

/**
 * The behaviour hints a client cannot infer: readOnlyHint always; destructiveHint and idempotentHint only on tools
 * that write (the spec gives them meaning only there); and a hint only where it differs from the spec's default
 * (destructive, not idempotent, open world), since a missing hint means exactly that default.
 */
export function listedAnnotations(hints: ToolAnnotations): Partial<ToolAnnotations> {
  return {
    readOnlyHint: hints.readOnlyHint,
    ...(!hints.readOnlyHint && { destructiveHint: hints.destructiveHint }),
    ...(!hints.readOnlyHint && hints.idempotentHint && { idempotentHint: true }),
    ...(!hints.openWorldHint && { openWorldHint: false }),
  }
}
