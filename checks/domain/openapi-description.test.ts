import { describe, expect, test } from 'bun:test'
import type { ApiSignals } from '../../core/engine/collectors/api-signals.ts'
import type { OpenapiArtifact } from '../../core/engine/collectors/openapi.ts'
import { context, jsonSnapshot } from '../../tests/support/artifacts.ts'
import check from './openapi-description.ts'

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Acme API', version: '1.0.0' },
  servers: [{ url: 'https://api.acme.test/v1' }],
  paths: { '/anvils': { get: { responses: { '200': { description: 'ok' } } } } },
}

function found(document: Record<string, unknown>, overrides: Partial<OpenapiArtifact> = {}): OpenapiArtifact {
  const url = 'https://acme.test/openapi.json'
  return {
    source: 'advertised',
    url,
    response: jsonSnapshot(document, { url }),
    document,
    valid: true,
    errors: [],
    tried: [url],
    ...overrides,
  }
}

const none: OpenapiArtifact = {
  source: null,
  url: null,
  response: null,
  document: null,
  valid: false,
  errors: [],
  tried: ['https://acme.test/openapi.json', 'https://acme.test/swagger.json'],
}
const rest: ApiSignals = {
  hasApi: true,
  rest: true,
  graphql: false,
  reasons: ['homepage links to /docs/api'],
  hasAuth: false,
  authReasons: [],
}
const graphqlOnly: ApiSignals = { ...rest, rest: false, graphql: true }
const noApi: ApiSignals = { ...rest, hasApi: false, rest: false, reasons: [] }

describe('openapi-description', () => {
  test.each([
    ['advertised and valid', found(DOCUMENT), rest, 'pass'],
    [
      'Swagger 2.0 with a host',
      found({ swagger: '2.0', host: 'api.acme.test', info: DOCUMENT.info, paths: DOCUMENT.paths }),
      rest,
      'pass',
    ],
    ['found only by guessing', found(DOCUMENT, { source: 'guessed' }), rest, 'warning'],
    ['no servers', found({ ...DOCUMENT, servers: [] }), rest, 'warning'],
    ['API signals but no document', none, rest, 'fail'],
    [
      'invalid per the validator',
      found(DOCUMENT, { valid: false, errors: ['#/paths/~1anvils: bad response'] }),
      rest,
      'fail',
    ],
    ['empty paths', found({ ...DOCUMENT, paths: {} }), rest, 'fail'],
    ['unsupported version', found({ ...DOCUMENT, openapi: '4.0.0' }), rest, 'fail'],
    ['3.1 with webhooks only', found({ ...DOCUMENT, paths: undefined, webhooks: { ping: {} } }), rest, 'pass'],
    ['no API signals', none, noApi, 'na'],
    ['GraphQL-only API', none, graphqlOnly, 'na'],
  ] as const)('%s -> %s', (_name, openapi, apiSignals, expected) => {
    const outcome = check.run({ openapi, apiSignals }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'na') expect(outcome.naReason).toBeString()
    else if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })
})
