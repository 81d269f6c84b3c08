import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { ScanSession } from '../../http/session.ts'
import { collectorContext, localTarget, scanSession } from '../../../tests/support/collector.ts'
import { type CollectorContext, CollectorError } from '../contract.ts'
import type { OpenapiArtifact } from './openapi.ts'
import { operationsBase, paidOperations, paymentProbesCollector } from './payment-probes.ts'

let seen: { method: string; path: string; headers: Record<string, string> }[] = []
let server: ReturnType<typeof Bun.serve>
let origin: string

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const path = new URL(request.url).pathname
      seen.push({ method: request.method, path, headers: Object.fromEntries(request.headers) })
      if (path === '/') return new Response('<h1>Acme</h1>', { headers: { 'content-type': 'text/html' } })
      if (path === '/v1/weather/1' || path === '/premium.md') {
        return Response.json({}, { status: 402, headers: { 'payment-required': btoa('{"x402Version":2}') } })
      }
      return new Response('Not found', { status: 404 })
    },
  })
  origin = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))
beforeEach(() => {
  seen = []
})

const DOCUMENT = {
  openapi: '3.1.0',
  servers: [{ url: '/v1' }],
  paths: {
    '/free': { get: { responses: { '200': { description: 'OK' } } } },
    '/buy': { post: { 'x-payment-info': { price: '0.01' }, responses: { '200': { description: 'OK' } } } },
    '/weather/{city}': { get: { responses: { '200': { description: 'OK' }, '402': { description: 'Payment required' } } } },
    '/report': { get: { 'x-payment-info': {}, responses: { '200': { description: 'OK' } } } },
  },
}

function context(http: ScanSession, openapi: Record<string, unknown> | 'fails', at = origin): CollectorContext {
  const artifact = openapi === 'fails' ? undefined : ({ url: `${at}/openapi.json`, document: openapi } as unknown as OpenapiArtifact)
  return collectorContext({ target: localTarget(at), http, artifacts: { openapi: artifact } })
}

const session = scanSession

describe('paymentProbesCollector', () => {
  test('GETs /, /api and two paid operations (GET first), never with payment headers', async () => {
    const http = session()
    const artifact = await paymentProbesCollector.collect(context(http, DOCUMENT))
    expect(artifact.responses.map((probe) => [new URL(probe.url).pathname, probe.via, probe.operation, probe.response?.status])).toEqual([
      ['/', 'root', undefined, 200],
      ['/api', 'api', undefined, 404],
      ['/v1/weather/1', 'openapi-paid', 'GET /weather/{city}', 402],
      ['/v1/report', 'openapi-paid', 'GET /report', 404],
    ])
    const probes = seen
    expect(probes.every((request) => request.method === 'GET')).toBe(true)
    for (const request of probes) {
      expect(Object.keys(request.headers).filter((name) => /payment|authorization/i.test(name))).toEqual([])
    }
  })

  test('an OpenAPI failure still leaves / and /api probed', async () => {
    const artifact = await paymentProbesCollector.collect(context(session(), 'fails'))
    expect(artifact.responses.map((probe) => probe.via)).toEqual(['root', 'api'])
  })

  test('a target that answers nothing is a CollectorError', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const deadOrigin = `http://127.0.0.1:${closed.port}`
    closed.stop(true)
    await expect(paymentProbesCollector.collect(context(session(), 'fails', deadOrigin))).rejects.toBeInstanceOf(CollectorError)
  })
})

describe('paidOperations and operationsBase', () => {
  test('operations with a 402 response or x-payment-info, GET first', () => {
    expect(paidOperations(DOCUMENT)).toEqual([
      { method: 'get', path: '/weather/{city}' },
      { method: 'get', path: '/report' },
      { method: 'post', path: '/buy' },
    ])
    expect(paidOperations(null)).toEqual([])
  })

  test('servers resolve against the document; another site falls back to the origin', () => {
    expect(operationsBase({ servers: [{ url: '/v1' }] }, 'https://acme.test/openapi.json', 'https://acme.test', 'acme.test')).toBe('https://acme.test/v1')
    expect(
      operationsBase({ servers: [{ url: 'https://{env}.acme.test/v2/', variables: { env: { default: 'api' } } }] }, null, 'https://acme.test', 'acme.test'),
    ).toBe('https://api.acme.test/v2')
    expect(operationsBase({ swagger: '2.0', host: 'api.acme.test', basePath: '/v1', schemes: ['https'] }, null, 'https://acme.test', 'acme.test')).toBe(
      'https://api.acme.test/v1',
    )
    expect(operationsBase({ servers: [{ url: 'https://payments.example.com' }] }, null, 'https://acme.test', 'acme.test')).toBe('https://acme.test')
  })
})
