import { describe, expect, test } from 'bun:test'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import { closedOrigin } from '../../../tests/support/ports.ts'
import { type CollectorContext, CollectorError } from '../check.ts'
import type { OpenapiArtifact } from './openapi.ts'
import { operationsBase, paidOperations, paymentProbesCollector } from './payment-probes.ts'

/** A home page, and a 402 x402 challenge on one paid operation and one paid document. */
const site = recordingSite({
  routes: {
    '/': () => new Response('<h1>Acme</h1>', { headers: { 'content-type': 'text/html' } }),
    '/v1/weather/1': paymentRequired,
    '/premium.md': paymentRequired,
  },
})
const { origin } = site

function paymentRequired(): Response {
  return Response.json({}, { status: 402, headers: { 'payment-required': btoa('{"x402Version":2}') } })
}

const DOCUMENT = {
  openapi: '3.1.0',
  servers: [{ url: '/v1' }],
  paths: {
    '/free': { get: { responses: { '200': { description: 'OK' } } } },
    '/buy': { post: { 'x-payment-info': { price: '0.01' }, responses: { '200': { description: 'OK' } } } },
    '/weather/{city}': {
      get: { responses: { '200': { description: 'OK' }, '402': { description: 'Payment required' } } },
    },
    '/report': { get: { 'x-payment-info': {}, responses: { '200': { description: 'OK' } } } },
  },
}

function context(openapi: Record<string, unknown> | 'fails', at = origin): CollectorContext {
  const artifact =
    openapi === 'fails' ? undefined : ({ url: `${at}/openapi.json`, document: openapi } as unknown as OpenapiArtifact)
  return collectorContext({ target: localTarget(at), artifacts: { openapi: artifact } })
}

describe('paymentProbesCollector', () => {
  test('GETs /, /api and two paid operations (GET first), never with payment headers', async () => {
    const artifact = await paymentProbesCollector.collect(context(DOCUMENT))
    expect(
      artifact.responses.map((probe) => [
        new URL(probe.url).pathname,
        probe.via,
        probe.operation,
        probe.response?.status,
      ]),
    ).toEqual([
      ['/', 'root', undefined, 200],
      ['/api', 'api', undefined, 404],
      ['/v1/weather/1', 'openapi-paid', 'GET /weather/{city}', 402],
      ['/v1/report', 'openapi-paid', 'GET /report', 404],
    ])
    expect(site.requests.every((request) => request.method === 'GET')).toBe(true)
    for (const request of site.requests) {
      expect([...request.headers.keys()].filter((name) => /payment|authorization/i.test(name))).toEqual([])
    }
  })

  test('an OpenAPI failure still leaves / and /api probed', async () => {
    const artifact = await paymentProbesCollector.collect(context('fails'))
    expect(artifact.responses.map((probe) => probe.via)).toEqual(['root', 'api'])
  })

  test('a target that answers nothing is a CollectorError', async () => {
    await expect(paymentProbesCollector.collect(context('fails', closedOrigin()))).rejects.toBeInstanceOf(
      CollectorError,
    )
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
    expect(
      operationsBase({ servers: [{ url: '/v1' }] }, 'https://acme.test/openapi.json', 'https://acme.test', 'acme.test'),
    ).toBe('https://acme.test/v1')
    expect(
      operationsBase(
        { servers: [{ url: 'https://{env}.acme.test/v2/', variables: { env: { default: 'api' } } }] },
        null,
        'https://acme.test',
        'acme.test',
      ),
    ).toBe('https://api.acme.test/v2')
    expect(
      operationsBase(
        { swagger: '2.0', host: 'api.acme.test', basePath: '/v1', schemes: ['https'] },
        null,
        'https://acme.test',
        'acme.test',
      ),
    ).toBe('https://api.acme.test/v1')
    expect(
      operationsBase({ servers: [{ url: 'https://payments.example.com' }] }, null, 'https://acme.test', 'acme.test'),
    ).toBe('https://acme.test')
  })
})
