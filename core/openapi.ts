import { z } from 'zod'

/**
 * An OpenAPI 3.1 schema object from a zod model, for routes that answer with a Response of their own media type and
 * so document it by hand (Elysia would document application/json). Same conversion as the docs plugin applies to
 * route schemas; the `$schema` dialect marker is dropped, OpenAPI 3.1 already speaks JSON Schema 2020-12.
 */
export function openApiSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'output' })
  return rest
}
