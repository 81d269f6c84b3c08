import { expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import Ajv from 'ajv'
import Ajv2019 from 'ajv/dist/2019.js'
import Ajv2020 from 'ajv/dist/2020.js'
import type AjvCore from 'ajv/dist/core.js'
import AjvDraft04 from 'ajv-draft-04'
import { CACHE_DIR } from '../../core/engine/lib/ajv-cache.ts'
import { compileSchema, type SchemaDialect } from './json-schema.ts'

/** Ajv as it is without the disk cache: it compiles each meta-schema itself. */
const plain: Record<SchemaDialect, () => AjvCore> = {
  '2020-12': () => new Ajv2020({ strict: false, validateFormats: false, allErrors: true, logger: false }),
  '2019-09': () => new Ajv2019({ strict: false, validateFormats: false, allErrors: true, logger: false }),
  'draft-07': () => new Ajv({ strict: false, validateFormats: false, allErrors: true, logger: false }),
  'draft-04': () =>
    new AjvDraft04({ strict: false, validateFormats: false, allErrors: true, logger: false }) as unknown as AjvCore,
}
const declared: Record<SchemaDialect, string | undefined> = {
  '2020-12': undefined,
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  'draft-04': 'http://json-schema.org/draft-04/schema#',
}
const bodies: Record<string, unknown>[] = [
  { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  { type: 'strin' },
  { required: 'q' },
  { type: 'object', properties: { n: { type: 'number', minimum: 'one' } } },
  { type: 'object', properties: { list: { type: 'array', items: 5 } } },
  { anyOf: [] },
  { type: 'object', additionalProperties: { minLength: -1 } },
]

test('each dialect judges schemas as plain Ajv does, with its meta-schema from the disk cache', () => {
  for (const [dialect, $schema] of Object.entries(declared) as [SchemaDialect, string | undefined][]) {
    const reference = plain[dialect]()
    for (const body of bodies) {
      const schema = $schema ? { $schema, ...body } : body
      const answer = compileSchema(structuredClone(schema))
      const valid = reference.validateSchema(schema) as boolean
      const first = reference.errors?.[0]
      expect({ dialect, schema, ok: answer.ok }).toEqual({ dialect, schema, ok: valid })
      if (!answer.ok) expect(answer.problem).toBe(`${first!.instancePath || '/'} ${first!.message}`)
    }
    expect(readdirSync(CACHE_DIR).some((file) => file.startsWith(`meta-schema-${dialect}-`))).toBe(true)
  }
})
