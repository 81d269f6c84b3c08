import { describe, expect, test } from 'bun:test'
import type { ApiSignals } from '../../core/engine/collectors/api-signals.ts'
import type { GraphqlArtifact } from '../../core/engine/collectors/graphql.ts'
import type { Outcome } from '../../core/engine/check.ts'
import { context, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './graphql-introspection.ts'

const ENDPOINT = 'https://acme.test/graphql'
const probes = [{ url: ENDPOINT, status: 200, contentType: 'application/graphql-response+json' }]
const answered = (introspection: unknown, sdl: GraphqlArtifact['sdl'] = null): GraphqlArtifact => ({
  endpoint: ENDPOINT,
  introspection,
  probes,
  sdl,
})
const disabled = { errors: [{ message: 'GraphQL introspection is not allowed' }] }
const noEndpoint: GraphqlArtifact = {
  endpoint: null,
  introspection: null,
  probes: [
    { url: ENDPOINT, status: 404, contentType: 'text/html' },
    { url: 'https://acme.test/api/graphql', status: 404, contentType: 'text/html' },
  ],
  sdl: null,
}
const signals: ApiSignals = {
  hasApi: true,
  rest: false,
  graphql: true,
  reasons: [`GraphQL endpoint at ${ENDPOINT}`],
  hasAuth: false,
  authReasons: [],
}
const sdl = (body: string) =>
  snapshot({ url: 'https://acme.test/schema.graphql', headers: { 'content-type': 'text/plain' }, body })

describe('graphql-introspection', () => {
  test.each([
    ['introspection on', answered({ data: { __schema: { queryType: { name: 'Query' } } } }), 'pass'],
    ['introspection off but SDL published', answered(disabled, sdl('type Query {\n  anvils: [Anvil!]!\n}\n')), 'pass'],
    ['introspection off, no SDL', answered(disabled, notFound('https://acme.test/schema.graphql')), 'warning'],
    ['introspection off, SDL path serves HTML', answered(disabled, sdl('<!doctype html><html></html>')), 'warning'],
    ['a __schema without queryType', answered({ data: { __schema: {} } }), 'warning'],
    ['no GraphQL endpoint', noEndpoint, 'na'],
    [
      'probes unreachable',
      { ...noEndpoint, probes: [{ url: ENDPOINT, status: null, contentType: '', error: 'timeout' }] },
      'error',
    ],
  ] satisfies [string, GraphqlArtifact, Outcome['status']][])('%s -> %s', (_name, graphql, expected) => {
    const outcome = check.run({ graphql, apiSignals: signals }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'na') expect(outcome.naReason).toBeString()
    if (expected === 'warning') expect(outcome.recommendation).toContain('/schema.graphql')
  })

  test('details quote the GraphQL error', () => {
    expect(check.run({ graphql: answered(disabled), apiSignals: signals }, context).details).toContain(
      'introspection is not allowed',
    )
  })
})
