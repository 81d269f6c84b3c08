import type { JSONObject, JSONValue } from '@modelcontextprotocol/server'
import { z } from 'zod'
import type { ToolAnnotations } from './server.ts'

/**
 * The JSON Schemas `tools/list` advertises, derived once per app from the tools' zod schemas. Every agent that
 * connects reads the whole listing into its context, so it is kept small: the zod schemas stay exact for validating
 * arguments and shaping results, while the advertised forms only ever relax them. A relaxed schema still accepts
 * every valid value, so valid arguments stay valid and structuredContent always validates against the advertised
 * outputSchema.
 */

/** z.toJSONSchema's output is plain JSON, which is what the SDKs' listing types ask for. */
type JsonSchema = JSONObject

/** What MCP requires of a tool's inputSchema: an object schema. */
export interface ListedInputSchema {
  type: 'object'
  properties: Record<string, JsonSchema>
  [keyword: string]: JSONValue
}

/** Enums longer than this are advertised as their base type; the call still validates the value (and says why not). */
const MAX_LISTED_ENUM = 8

/**
 * What the listing says about one argument: its description, its JSON type and a short enum. Bounds, defaults, long
 * enums and the inside of arrays and objects are left to the argument's description and to the call's validation,
 * whose error names the argument and what it expects.
 */
const ARGUMENT_KEYS = new Set(['description', 'type', 'enum', 'const', 'anyOf'])

/**
 * An input schema as clients need it to build arguments: each argument with its description and type, which are
 * required, and whether others are refused. No `$schema`: 2020-12 is MCP's default dialect without one.
 */
export function listedInputSchema(schema: z.ZodObject): ListedInputSchema {
  const jsonSchema = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema
  const { $schema: _dialect, properties = {}, ...object } = jsonSchema
  return {
    ...object,
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(properties as Record<string, JsonSchema>).map(([name, argument]) => [
        name,
        listedArgument(argument),
      ]),
    ),
  }
}

function listedArgument(argument: JsonSchema): JsonSchema {
  const result: JsonSchema = {}
  for (const [key, value] of Object.entries(argument)) {
    if (!ARGUMENT_KEYS.has(key)) continue
    if (key === 'enum' && Array.isArray(value) && value.length > MAX_LISTED_ENUM) continue
    result[key] = key === 'anyOf' ? (value as JsonSchema[]).map(listedArgument) : value
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
