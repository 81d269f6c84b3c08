import { describe, expect, test } from 'bun:test'
import { openapiSchemaErrors } from './openapi-validation.ts'

const minimal31 = {
  openapi: '3.1.0',
  info: { title: 'Widgets', version: '1.0.0' },
  paths: {
    '/widgets': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } },
          },
        },
      },
    },
  },
  components: { schemas: { Widget: { type: 'object', properties: { id: { type: 'string' } } } } },
}

describe('openapiSchemaErrors', () => {
  test('valid 3.1, 3.0 and Swagger 2.0 documents have no errors', () => {
    expect(openapiSchemaErrors(minimal31)).toEqual([])
    expect(openapiSchemaErrors({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} })).toEqual([])
    expect(openapiSchemaErrors({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {} })).toEqual([])
  })

  test('schema violations are reported with their location', () => {
    const errors = openapiSchemaErrors({ ...minimal31, info: { title: 'Widgets' } })
    expect(errors.join('\n')).toContain('/info')
    const badOperation = openapiSchemaErrors({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/x': { get: { responses: 'nope' } } },
    })
    expect(badOperation.length).toBeGreaterThan(0)
  })

  test('a dangling internal $ref is an error; unsupported versions are named', () => {
    const dangling = structuredClone(minimal31)
    delete (dangling.components.schemas as Record<string, unknown>).Widget
    expect(openapiSchemaErrors(dangling)).toContain('$ref #/components/schemas/Widget does not resolve')
    expect(openapiSchemaErrors({ openapi: '4.0.0' })[0]).toContain('unsupported version')
  })
})
