// A GraphQL endpoint (/graphql, /api/graphql) answers an introspection query, or publishes its SDL when introspection is off.
// Spec: https://spec.graphql.org/October2021/#sec-Introspection (transport: https://graphql.github.io/graphql-over-http/draft/)
import { defineCheck, na, pass, warn } from '../../core/engine/check.ts'
import { listSome, pathOf } from '../../core/engine/lib/describe.ts'
import { unreachable } from '../lib/outcomes.ts'
import { isOk, isRecord, looksLikeHtml } from '../../core/engine/snapshot.ts'

/** SDL: a schema definition or at least one type definition. */
const SDL = /(^|\n)\s*(schema|type|interface|input|enum|union|scalar)\s+[_A-Za-z]/

export default defineCheck({
  meta: {
    id: 'graphql-introspection',
    name: 'GraphQL schema introspectable',
    description:
      'An agent can only write GraphQL queries against a schema it can read, through introspection or a published SDL.',
    layer: 'discovery',
    applicability: 'api',
    protocol: 'graphql',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 5,
    specUrl: 'https://spec.graphql.org/October2021/#sec-Introspection',
    recommendation: 'Allow introspection of the schema, or publish the SDL at /schema.graphql.',
    needs: ['graphql', 'apiSignals'],
  },
  run({ graphql, apiSignals }, { target }) {
    const probes = graphql.probes.map((probe) => `${pathOf(probe.url)} → ${probe.status ?? 'unreachable'}`)
    if (!graphql.endpoint) {
      if (graphql.probes.length > 0 && graphql.probes.every((probe) => probe.status === null)) {
        return unreachable(`GraphQL probes could not be sent: ${listSome(probes)}`)
      }
      const hint = apiSignals.graphql ? ' although API signals mention GraphQL' : ''
      return na(
        `No GraphQL endpoint${hint}`,
        `No GraphQL endpoint answered an introspection POST (${listSome(probes)})${hint}`,
      )
    }
    const where = pathOf(graphql.endpoint)
    const introspection = isRecord(graphql.introspection) ? graphql.introspection : {}
    const data = isRecord(introspection.data) ? introspection.data : {}
    const schema = isRecord(data.__schema) ? data.__schema : null
    const queryType = schema && isRecord(schema.queryType) ? schema.queryType.name : undefined
    if (typeof queryType === 'string') return pass(`${where} answers introspection: the query type is "${queryType}"`)

    const sdl = graphql.sdl
    if (sdl && isOk(sdl) && !looksLikeHtml(sdl.body) && SDL.test(sdl.body)) {
      return pass(`${where} refuses introspection, but the schema is published as SDL at ${pathOf(sdl.url)}`)
    }
    const errors = Array.isArray(introspection.errors) ? introspection.errors : []
    const message = errors
      .map((error) => (isRecord(error) && typeof error.message === 'string' ? error.message : ''))
      .find(Boolean)
    const why = schema
      ? 'returned a __schema without a queryType name'
      : `returned ${errors.length > 0 ? `errors${message ? ` ("${message.slice(0, 80)}")` : ''}` : 'no data.__schema'}`
    return warn(
      `GraphQL endpoint ${where} ${why} and no SDL is published at /schema.graphql${sdl ? ` (it answered ${sdl.status})` : ''}`,
      `Publish the schema SDL at ${target.origin}/schema.graphql (introspection may stay disabled), or enable introspection on ${where}.`,
    )
  },
})
