import { describe, expect, test } from 'bun:test'
import type { ApiSignals } from '../../core/engine/collectors/api-signals.ts'
import type { OpenapiArtifact } from '../../core/engine/collectors/openapi.ts'
import { context } from '../../tests/support/artifacts.ts'
import check from './openapi-operation-quality.ts'

const apiSignals: ApiSignals = {
  hasApi: true,
  rest: true,
  graphql: false,
  reasons: ['OpenAPI at /openapi.json'],
  hasAuth: false,
  authReasons: [],
}
const artifact = (document: Record<string, unknown> | null): OpenapiArtifact => ({
  source: document ? 'advertised' : null,
  url: document ? 'https://acme.test/openapi.json' : null,
  response: null,
  document,
  valid: document !== null,
  errors: [],
  tried: [],
})

const jsonResponse = {
  description: 'OK',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Anvil' } } },
}
const GOOD = {
  openapi: '3.1.0',
  info: { title: 'Acme', version: '1.0.0' },
  servers: [{ url: 'https://api.acme.test/v1' }],
  security: [{ bearer: [] }],
  paths: {
    '/anvils': {
      get: {
        operationId: 'listAnvils',
        summary: 'List anvils',
        parameters: [{ $ref: '#/components/parameters/limit' }],
        responses: { '200': jsonResponse },
      },
      post: { operationId: 'createAnvil', summary: 'Create an anvil', responses: { '201': jsonResponse } },
    },
    '/anvils/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, description: 'Anvil id', schema: { type: 'string' } }],
      get: {
        operationId: 'getAnvil',
        description: 'One anvil',
        responses: { '200': { $ref: '#/components/responses/Anvil' } },
      },
      delete: {
        operationId: 'deleteAnvil',
        summary: 'Delete an anvil',
        responses: { '204': { description: 'Deleted' } },
      },
    },
  },
  components: {
    schemas: { Anvil: { type: 'object' } },
    parameters: { limit: { name: 'limit', in: 'query', description: 'Page size', schema: { type: 'integer' } } },
    responses: { Anvil: jsonResponse },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
  },
}

const bare = (responses: Record<string, unknown> = { '200': { description: 'OK' } }) => ({ responses })
const POOR = {
  openapi: '3.0.3',
  info: { title: 'Acme', version: '1' },
  servers: [{ url: '/api' }],
  security: [{ apiKey: [] }],
  paths: {
    '/a': { get: bare(), post: bare() },
    '/b/{id}': { get: { ...bare(), parameters: [{ name: 'id', in: 'path', required: true }] } },
  },
}

const SWAGGER = {
  swagger: '2.0',
  info: { title: 'Acme', version: '1' },
  host: 'api.acme.test',
  paths: {
    '/a': {
      get: { operationId: 'a', summary: 'A', responses: { '200': { description: 'OK', schema: { type: 'object' } } } },
    },
    '/b': { get: { operationId: 'a', summary: 'B', responses: { '200': { description: 'OK' } } } },
  },
}

describe('openapi-operation-quality', () => {
  test.each([
    ['ids, summaries, schemas, described params, security and servers', 'pass', artifact(GOOD)],
    ['Swagger 2.0 with a duplicate id and a schemaless response', 'warning', artifact(SWAGGER)],
    ['bare operations, relative server, undeclared security', 'fail', artifact(POOR)],
    ['no document', 'na', artifact(null)],
    [
      'a document without operations',
      'na',
      artifact({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} }),
    ],
  ] as const)('%s -> %s', (_name, expected, openapi) => {
    const outcome = check.run({ apiSignals, openapi }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning' || expected === 'fail') expect(outcome.recommendation).toBeString()
    if (expected === 'na') expect(outcome.naReason).toBeString()
  })

  test('fraction is the mean share per criterion; occurrences is the operation count', () => {
    const outcome = check.run({ apiSignals, openapi: artifact(SWAGGER) }, context)
    // operationId 0/2, summary 2/2, 2xx schema 1/2, host absolute 1/1 -> (0 + 1 + 0.5 + 1) / 4
    expect(outcome.fraction).toBeCloseTo(0.625)
    expect(outcome.occurrences).toBe(2)
    expect(outcome.recommendation).toContain('give a unique operationId to: GET /a, GET /b')
  })

  test('names undeclared security schemes and relative servers', () => {
    const outcome = check.run({ apiSignals, openapi: artifact(POOR) }, context)
    expect(outcome.recommendation).toContain('"apiKey"')
    expect(outcome.recommendation).toContain('servers url "/api"')
  })
})
