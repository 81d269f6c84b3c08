/**
 * JSON Schema compilation for the checks that judge MCP tool schemas: the dialect a schema declares, a compiled
 * validator per distinct schema (Ajv, meta-schemas from the disk cache), and why a value does not match.
 */
import type { Options, ValidateFunction } from 'ajv'
import Ajv from 'ajv'
import Ajv2019 from 'ajv/dist/2019.js'
import Ajv2020 from 'ajv/dist/2020.js'
import type AjvCore from 'ajv/dist/core.js'
import AjvDraft04 from 'ajv-draft-04'
import { cachedValidator } from '../../core/engine/lib/ajv-cache.ts'
import { clip } from '../../core/engine/lib/describe.ts'

export type SchemaDialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-04'

export type CompiledSchema =
  | { ok: true; dialect: SchemaDialect; validate: ValidateFunction }
  | { ok: false; dialect: SchemaDialect | null; problem: string }

// Formats are not asserted (MCP SDKs differ on them) and unknown keywords are allowed, as the SDK's own validator does.
const AJV_OPTIONS = { strict: false, validateFormats: false, allErrors: true, logger: false } as const
const DIALECTS: Record<string, SchemaDialect> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': 'draft-07',
  'json-schema.org/draft-04/schema': 'draft-04',
}
/** Each dialect's meta-schema, under the id its Ajv registers it with. */
const META_SCHEMA_IDS: Record<SchemaDialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema',
  'draft-04': 'http://json-schema.org/draft-04/schema',
}
const instances = new Map<SchemaDialect, AjvCore>()
/** Compiled schemas by dialect and text, shared across scans: tool schemas repeat across servers built on one SDK. */
const compiled = new Map<string, CompiledSchema>()
const CACHE_LIMIT = 2000

function newAjv(dialect: SchemaDialect, options: Options): AjvCore {
  if (dialect === '2020-12') return new Ajv2020(options)
  if (dialect === '2019-09') return new Ajv2019(options)
  if (dialect === 'draft-07') return new Ajv(options)
  return new AjvDraft04(options)
}

function ajvFor(dialect: SchemaDialect): AjvCore {
  let ajv = instances.get(dialect)
  if (!ajv) {
    ajv = newAjv(dialect, AJV_OPTIONS)
    useCachedMetaSchema(ajv, dialect)
    instances.set(dialect, ajv)
  }
  return ajv
}

/**
 * Ajv compiles a meta-schema the first time a schema is checked against it (20-30 ms for 2020-12, on every CLI
 * run); the compiled code comes from the disk cache instead and is handed to Ajv as that meta-schema's validator.
 * It is compiled apart, by an Ajv that keeps its code (the one tool schemas go through need not).
 */
function useCachedMetaSchema(ajv: AjvCore, dialect: SchemaDialect): void {
  const id = META_SCHEMA_IDS[dialect]
  const meta = ajv.schemas[id]
  if (!meta || meta.validate) return
  // The vocabularies a meta-schema refers to are part of what its code was compiled from.
  const identity = { options: AJV_OPTIONS, schemas: Object.values(ajv.schemas).map((env) => env?.schema) }
  meta.validate = cachedValidator(`meta-schema-${dialect}`, identity, () => {
    const compiler = newAjv(dialect, { ...AJV_OPTIONS, code: { source: true } })
    return { ajv: compiler, validate: compiler.getSchema(id)! }
  })
}

/** The dialect a schema declares: 2020-12 when `$schema` is absent (MCP 2025-11-25), null when unsupported. */
export function schemaDialect(schema: Record<string, unknown>): SchemaDialect | null {
  if (schema.$schema === undefined) return '2020-12'
  if (typeof schema.$schema !== 'string') return null
  const key = schema.$schema
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/#$/, '')
    .replace(/\/$/, '')
  return DIALECTS[key] ?? null
}

/** Compiles a schema once per distinct text and dialect; the answer says why it does not compile. */
export function compileSchema(schema: Record<string, unknown>): CompiledSchema {
  const dialect = schemaDialect(schema)
  if (!dialect)
    return { ok: false, dialect: null, problem: `unsupported $schema dialect "${clip(String(schema.$schema), 80)}"` }
  const key = `${dialect}\n${JSON.stringify(schema)}`
  const known = compiled.get(key)
  if (known) return known
  const ajv = ajvFor(dialect)
  let answer: CompiledSchema
  try {
    // Checked against the meta-schema first, for one precise message instead of Ajv's summary of every branch.
    const invalid = ajv.validateSchema(schema) ? null : ajv.errors?.[0]
    answer = invalid
      ? { ok: false, dialect, problem: clip(`${invalid.instancePath || '/'} ${invalid.message ?? 'is invalid'}`, 160) }
      : { ok: true, dialect, validate: ajv.compile(schema) }
  } catch (error) {
    answer = { ok: false, dialect, problem: clip(error instanceof Error ? error.message : String(error), 160) }
  } finally {
    // Keep the instance's registry empty, so that two tools reusing one `$id` never collide.
    ajv.removeSchema(schema)
  }
  if (compiled.size >= CACHE_LIMIT) compiled.delete(compiled.keys().next().value!)
  compiled.set(key, answer)
  return answer
}

/** Why a value does not match a compiled schema ("/count must be integer"); null when it does. */
export function schemaMismatch(validate: ValidateFunction, value: unknown): string | null {
  if (validate(value)) return null
  const first = validate.errors?.[0]
  return first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'does not match'
}
