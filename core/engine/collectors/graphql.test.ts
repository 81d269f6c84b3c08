import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { collectorContext, localTarget } from '../../../tests/support/collector.ts'
import { graphqlCollector } from './graphql.ts'

/** Each test names the fixture behaviour in the first path segment: /<mode>/graphql. */
let server: ReturnType<typeof Bun.serve>
let base: string
const seen: { path: string; accept: string | null; body: string }[] = []

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const { pathname } = new URL(request.url)
      seen.push({ path: pathname, accept: request.headers.get('accept'), body: request.method === 'POST' ? await request.text() : '' })
      const [, mode, rest] = /^\/([^/]+)(\/.*)$/.exec(pathname) ?? []
      const graphql = (value: unknown) => Response.json(value, { headers: { 'content-type': 'application/graphql-response+json' } })
      if (mode === 'open' && rest === '/graphql') return graphql({ data: { __schema: { queryType: { name: 'Query' } } } })
      if (mode === 'closed' && rest === '/api/graphql') return graphql({ errors: [{ message: 'introspection disabled' }] })
      if (mode === 'closed' && rest === '/schema.graphql') return new Response('type Query { anvils: [String] }\n')
      return new Response('<!doctype html><html>Not found</html>', { status: 404, headers: { 'content-type': 'text/html' } })
    },
  })
  base = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))

function collect(mode: string) {
  // The graphql collector reads no other artifact.
  return graphqlCollector.collect(collectorContext({ target: localTarget(`${base}/${mode}`) }))
}

describe('graphqlCollector', () => {
  test('POSTs the introspection query and stops at the first GraphQL answer', async () => {
    const graphql = await collect('open')
    expect(graphql).toMatchObject({ endpoint: `${base}/open/graphql`, sdl: null, introspection: { data: { __schema: { queryType: { name: 'Query' } } } } })
    const request = seen.find((entry) => entry.path === '/open/graphql')!
    expect(JSON.parse(request.body)).toEqual({ query: '{__schema{queryType{name}}}' })
    expect(request.accept).toBe('application/graphql-response+json, application/json')
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
