import { describe, expect, test } from 'bun:test'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import { graphqlCollector } from './graphql.ts'

/** Each test names the fixture behaviour in the first path segment: /<mode>/graphql. */
const site = recordingSite({ otherwise: graphqlByMode })
const base = site.origin

function graphqlByMode(request: Request): Response {
  const [, mode, rest] = /^\/([^/]+)(\/.*)$/.exec(new URL(request.url).pathname) ?? []
  const graphql = (value: unknown) =>
    Response.json(value, { headers: { 'content-type': 'application/graphql-response+json' } })
  if (mode === 'open' && rest === '/graphql') return graphql({ data: { __schema: { queryType: { name: 'Query' } } } })
  if (mode === 'closed' && rest === '/api/graphql') return graphql({ errors: [{ message: 'introspection disabled' }] })
  if (mode === 'closed' && rest === '/schema.graphql') return new Response('type Query { anvils: [String] }\n')
  return new Response('<!doctype html><html>Not found</html>', {
    status: 404,
    headers: { 'content-type': 'text/html' },
  })
}

function collect(mode: string) {
  // The graphql collector reads no other artifact.
  return graphqlCollector.collect(collectorContext({ target: localTarget(`${base}/${mode}`) }))
}

describe('graphqlCollector', () => {
  test('POSTs the introspection query and stops at the first GraphQL answer', async () => {
    const graphql = await collect('open')
    expect(graphql).toMatchObject({
      endpoint: `${base}/open/graphql`,
      sdl: null,
      introspection: { data: { __schema: { queryType: { name: 'Query' } } } },
    })
    const request = site.requests.find((entry) => entry.path === '/open/graphql')!
    expect(JSON.parse(request.body)).toEqual({ query: '{__schema{queryType{name}}}' })
    expect(request.headers.get('accept')).toBe('application/graphql-response+json, application/json')
  })

  test('introspection disabled: tries /api/graphql, then fetches the SDL', async () => {
    const graphql = await collect('closed')
    expect(graphql.endpoint).toBe(`${base}/closed/api/graphql`)
    expect(graphql.probes.map((probe) => probe.status)).toEqual([404, 200])
    expect(graphql.sdl?.body).toContain('type Query')
  })

  test('no GraphQL endpoint', async () => {
    expect(await collect('none')).toMatchObject({ endpoint: null, introspection: null, sdl: null })
  })
})
