import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, createPublicKey, randomUUID, verify } from 'node:crypto'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Elysia } from 'elysia'
import { compactVerify, importJWK } from 'jose'
import type { AppHandle } from '../../app/app.ts'
import { CONTRACT_VERSION } from '../../core/version.ts'
import { generateSigningKeyJwk, loadSigningKeys } from '../../core/crypto/signing.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { request, testApp } from '../../tests/helpers.ts'
import { checkResult, discoveryLayer, scanReport } from '../../tests/support/scan-report.ts'
import { docsPlugin } from '../docs/public.ts'
import { trustPlugin } from './index.ts'

/**
 * Attestations are checked the way an outside verifier would: the public key comes from the JWKS route, the
 * signing input is rebuilt by hand from the response (BASE64URL(header) "." BASE64URL(canonical payload)) and
 * node:crypto verifies; `jose` gives a second opinion.
 */

const CURRENT = generateSigningKeyJwk()
const PREVIOUS = generateSigningKeyJwk()
const currentKid = JSON.parse(CURRENT).kid as string
const previousKid = JSON.parse(PREVIOUS).kid as string

let signed: AppHandle
let unsigned: AppHandle
let app: { handle(request: Request): Promise<Response> }
let unsignedApp: { handle(request: Request): Promise<Response> }

/** Unique per run: the suite may share a real database with other runs. */
const domainOf = (label: string) => `${label}-${randomUUID().slice(0, 8)}.example`

function report(domain: string, overrides: Partial<ScanReport> = {}): ScanReport {
  const robots = checkResult('robots-txt', 'pass', {
    name: 'robots.txt',
    description: 'A robots.txt exists',
    score: 7,
    details: 'Found\u001f with a control character (jsonb refuses only NUL)',
    fraction: 0.7,
  })
  return scanReport({
    domain,
    // Non-ASCII text and a fractional number exercise the canonical form of the digested result.
    name: 'Café ☕ 😀 "quoted"',
    scannedAt: new Date(Date.now() - 60_000).toISOString(),
    durationMs: 1234,
    requestCount: 17,
    score: 72,
    grade: 'B',
    ctaTier: 'high',
    ctaMessage: 'Nearly there',
    layers: [{ ...discoveryLayer([robots]), score: 7.5, maxScore: 10 }],
    ...overrides,
  })
}

async function store(domain: string, options: { ephemeral?: boolean; overrides?: Partial<ScanReport> } = {}) {
  return signed.pieces.scans.insert(report(domain, options.overrides), { ephemeral: options.ephemeral ?? false })
}

beforeAll(async () => {
  signed = await testApp({ SIGNING_KEY: CURRENT, SIGNING_KEYS_PREVIOUS: PREVIOUS }, { features: ['scan', 'trust'] })
  app = new Elysia().use(trustPlugin(signed.pieces))
  unsigned = await testApp({}, { features: ['scan', 'trust'] })
  unsignedApp = new Elysia().use(trustPlugin(unsigned.pieces))
}, 60_000)
afterAll(async () => {
  await Promise.all([signed.close(), unsigned.close()])
})

interface SignedBody {
  signed: true
  payload: Record<string, unknown>
  jws: string
  kid: string
  alg: string
  jwksUri: string
  mediaType: string
}

/** The verifying key, by kid, from the JWKS route of `from` (never from the app's deps). */
async function keyFromJwks(kid: string, from = app) {
  const response = await from.handle(request('/.well-known/jwks.json'))
  const { keys } = (await response.json()) as { keys: { kid: string; x: string; kty: string; crv: string }[] }
  const jwk = keys.find((key) => key.kid === kid)
  if (!jwk) throw new Error(`kid ${kid} is not in the key set`)
  return jwk
}

/**
 * RFC 8785 written independently of the service, for the values these documents hold (objects, arrays, strings,
 * integers, a float): keys sorted recursively, scalars as JSON.stringify writes them, which for these values is
 * exactly the scheme.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}

function verifiesWithNode(jws: string, payloadBytes: Buffer, x: string): boolean {
  const [header, empty, signature] = jws.split('.')
  expect(empty).toBe('')
  const signingInput = `${header}.${payloadBytes.toString('base64url')}`
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })
  return verify(null, Buffer.from(signingInput), publicKey, Buffer.from(signature!, 'base64url'))
}

describe('GET /api/ard/attestation/:domain (signed)', () => {
  test('verifies with node:crypto and with jose, keys from the JWKS route; one changed payload byte fails', async () => {
    const domain = domainOf('attested')
    const row = await store(domain)
    const response = await app.handle(request(`/api/ard/attestation/${domain}`))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('vary')).toBe('Accept')
    const text = await response.text()
    const body = JSON.parse(text) as SignedBody
    expect(body).toMatchObject({
      signed: true,
      kid: currentKid,
      alg: 'EdDSA',
      jwksUri: 'http://localhost:3000/.well-known/jwks.json',
      mediaType: 'application/jose',
    })

    const header = JSON.parse(Buffer.from(body.jws.split('.')[0]!, 'base64url').toString())
    expect(header).toEqual({ alg: 'EdDSA', kid: currentKid, typ: 'JOSE' })
    expect(header.kid).toBe(body.kid)

    // The payload binds what the attestation is about.
    const stored = (await signed.pieces.scans.byId(row.id))!.result!
    expect(body.payload).toEqual({
      analysisStatus: 'complete',
      contractVersion: CONTRACT_VERSION,
      domain,
      generatedAt: expect.any(String),
      grade: 'B',
      issuer: 'http://localhost:3000',
      mcpUrl: null,
      resultDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      scannedAt: stored.scannedAt,
      score: 72,
      type: 'agent-readiness-scorecard',
      url: `https://${domain}/`,
      urlKind: 'domain',
    })
    expect(body.payload.generatedAt).toBe(row.updatedAt.toISOString())

    // The `payload` member is written in canonical form: its text in the body is the signed text.
    const payloadText = canonical(body.payload)
    expect(text).toContain(`"payload":${payloadText}`)
    const payloadBytes = Buffer.from(payloadText, 'utf8')

    const { x } = await keyFromJwks(body.kid)
    expect(verifiesWithNode(body.jws, payloadBytes, x)).toBe(true)
    for (const index of [0, Math.floor(payloadBytes.length / 2), payloadBytes.length - 1]) {
      const tampered = Buffer.from(payloadBytes)
      tampered[index] = tampered[index]! ^ 0x01
      expect(verifiesWithNode(body.jws, tampered, x)).toBe(false)
    }
    const raised = Buffer.from(payloadText.replace('"score":72', '"score":92'), 'utf8')
    expect(verifiesWithNode(body.jws, raised, x)).toBe(false)

    // jose: re-attach the payload segment and verify the compact JWS.
    const [h, , s] = body.jws.split('.')
    const attached = `${h}.${payloadBytes.toString('base64url')}.${s}`
    const jwk = await importJWK({ kty: 'OKP', crv: 'Ed25519', x }, 'EdDSA')
    const verified = await compactVerify(attached, jwk, { algorithms: ['EdDSA'] })
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual(body.payload)
    await expect(compactVerify(`${h}.${raised.toString('base64url')}.${s}`, jwk)).rejects.toThrow()
  })

  test('resultDigest is the SHA-256 of the canonical stored result', async () => {
    const domain = domainOf('digest')
    const row = await store(domain)
    const body = (await (await app.handle(request(`/api/ard/attestation/${domain}`))).json()) as SignedBody
    const stored = (await signed.pieces.scans.byId(row.id))!.result!
    const expected = createHash('sha256').update(canonical(stored), 'utf8').digest('hex')
    expect(body.payload.resultDigest).toBe(`sha256:${expected}`)
    expect(canonical(stored)).toContain('"fraction":0.7')
  })

  test('Accept: application/jose returns the detached compact JWS alone, verifiable the same way', async () => {
    const domain = domainOf('jose')
    await store(domain)
    const json = (await (await app.handle(request(`/api/ard/attestation/${domain}`))).json()) as SignedBody
    const response = await app.handle(
      request(`/api/ard/attestation/${domain}`, { headers: { accept: 'application/jose' } }),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/jose')
    expect(response.headers.get('vary')).toBe('Accept')
    const jws = await response.text()
    expect(jws).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]{86}$/)
    // Deterministic per stored result: the bare JWS is the one in the JSON document, and verifies against its payload.
    expect(jws).toBe(json.jws)
    const { x } = await keyFromJwks(currentKid)
    expect(verifiesWithNode(jws, Buffer.from(canonical(json.payload)), x)).toBe(true)
    const [h, , s] = jws.split('.')
    const verified = await compactVerify(
      `${h}.${Buffer.from(canonical(json.payload)).toString('base64url')}.${s}`,
      await importJWK({ kty: 'OKP', crv: 'Ed25519', x }, 'EdDSA'),
    )
    expect(verified.protectedHeader).toEqual({ alg: 'EdDSA', kid: currentKid, typ: 'JOSE' })
  })

  test('the same stored result gives the same bytes and ETag; If-None-Match gets a 304; a rescan changes them', async () => {
    const domain = domainOf('stable')
    await store(domain)
    const first = await app.handle(request(`/api/ard/attestation/${domain}`))
    const second = await app.handle(request(`/api/ard/attestation/${domain}`))
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    expect(second.headers.get('etag')).toBe(etag)
    const firstBody = (await first.json()) as SignedBody
    expect(await second.json()).toEqual(firstBody)
    const jose = await app.handle(
      request(`/api/ard/attestation/${domain}`, { headers: { accept: 'application/jose' } }),
    )
    expect(jose.headers.get('etag')).not.toBe(etag)

    const notModified = await app.handle(
      request(`/api/ard/attestation/${domain}`, { headers: { 'if-none-match': etag } }),
    )
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')

    await store(domain, { overrides: { score: 73 } })
    const rescanned = await app.handle(
      request(`/api/ard/attestation/${domain}`, { headers: { 'if-none-match': etag } }),
    )
    expect(rescanned.status).toBe(200)
    const rescannedBody = (await rescanned.json()) as SignedBody
    expect(rescannedBody.payload.score).toBe(73)
    expect(rescannedBody.jws).not.toBe(firstBody.jws)
  })

  test('a URL-encoded full URL names its domain; the domain is normalised', async () => {
    const domain = domainOf('normalised')
    await store(domain)
    for (const input of [encodeURIComponent(`https://${domain}/some/path?q=1`), domain.toUpperCase(), `${domain}.`]) {
      const response = await app.handle(request(`/api/ard/attestation/${input}`))
      expect(response.status).toBe(200)
      expect(((await response.json()) as SignedBody).payload.domain).toBe(domain)
    }
  })

  test('a partial result is attested with its status and not cached', async () => {
    const domain = domainOf('partial')
    await store(domain, { overrides: { analysisStatus: 'partial', pendingChecks: ['llms-txt-quality'] } })
    const response = await app.handle(request(`/api/ard/attestation/${domain}`))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(((await response.json()) as SignedBody).payload.analysisStatus).toBe('partial')
  })

  test('an MCP scan is attested with its kind and endpoint', async () => {
    const domain = domainOf('mcp')
    await store(domain, {
      overrides: { urlKind: 'mcp', url: `https://${domain}/mcp`, mcpUrl: `https://${domain}/mcp` },
    })
    const { payload } = (await (await app.handle(request(`/api/ard/attestation/${domain}`))).json()) as SignedBody
    expect(payload).toMatchObject({ urlKind: 'mcp', url: `https://${domain}/mcp`, mcpUrl: `https://${domain}/mcp` })
  })

  test('the newest measured scan is the one attested', async () => {
    const domain = domainOf('rescanned')
    await store(domain, {
      overrides: { score: 40, grade: 'D', scannedAt: new Date(Date.now() - 86_400_000).toISOString() },
    })
    await store(domain, { overrides: { score: 90, grade: 'A' } })
    const { payload } = (await (await app.handle(request(`/api/ard/attestation/${domain}`))).json()) as SignedBody
    expect(payload).toMatchObject({ score: 90, grade: 'A' })
  })
})

describe('GET /api/ard/attestation/:domain (errors)', () => {
  test('no score: 404 NOT_FOUND in the ARD envelope, with `next` pointing at the scan route', async () => {
    const domain = domainOf('unscanned')
    const response = await app.handle(request(`/api/ard/attestation/${domain}`))
    expect(response.status).toBe(404)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await response.json()
    expect(body).toEqual({
      errorCode: 'NOT_FOUND',
      message: `${domain} has no score yet`,
      next: { method: 'POST', endpoint: '/api/scan', body: { url: domain }, description: expect.any(String) },
    })
  })

  test('an ephemeral result is never attested (404 with `next`)', async () => {
    const domain = domainOf('ephemeral')
    await store(domain, { ephemeral: true })
    const response = await app.handle(request(`/api/ard/attestation/${domain}`))
    expect(response.status).toBe(404)
    const body = await response.json()
    expect(body.errorCode).toBe('NOT_FOUND')
    expect(body.message).toContain('ephemeral')
    expect(body.next.body).toEqual({ url: domain })
  })

  test.each([
    'not a domain',
    'localhost',
    'ftp%3A%2F%2Fexample.com',
    'https%3A%2F%2Fuser%3Apw%40example.com',
    'https%3A%2F%2F%E0%A4%A',
    '-bad-.example',
    'a'.repeat(2100),
    'example..com',
    '%00',
  ])('invalid domain %p: 400 INVALID_ARGUMENT, never a 5xx', async (input) => {
    const response = await app.handle(request(`/api/ard/attestation/${encodeURIComponent(input)}`))
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.errorCode).toBe('INVALID_ARGUMENT')
    expect(typeof body.message).toBe('string')
  })

  test('a path segment that is not valid percent-encoding is a 400 too', async () => {
    const response = await app.handle(request('/api/ard/attestation/%E0%A4%A'))
    expect(response.status).toBe(400)
    expect((await response.json()).errorCode).toBe('INVALID_ARGUMENT')
  })

  test('the ardRead limit: 60 per minute per IP, then 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
    const limited = await testApp({ TRUST_PROXY: 'true' }, { features: ['scan', 'trust'] })
    try {
      const limitedApp = new Elysia().use(trustPlugin(limited.pieces))
      const ask = () =>
        limitedApp.handle(
          request(`/api/ard/attestation/${domainOf('limited')}`, { headers: { 'x-forwarded-for': '198.51.100.7' } }),
        )
      for (let index = 0; index < 60; index++) expect((await ask()).status).toBe(404)
      const denied = await ask()
      expect(denied.status).toBe(429)
      expect(Number(denied.headers.get('retry-after'))).toBeGreaterThan(0)
      expect((await denied.json()).errorCode).toBe('RATE_LIMIT_EXCEEDED')
    } finally {
      await limited.close()
    }
  }, 60_000)
})

describe('GET /api/ard/jwks and /.well-known/jwks.json', () => {
  test('the current key, then the previous one: public members only, alg EdDSA, CORS, cacheable, same bytes', async () => {
    const [api, wellKnown] = await Promise.all([
      app.handle(request('/api/ard/jwks')),
      app.handle(request('/.well-known/jwks.json')),
    ])
    for (const response of [api, wellKnown]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/jwk-set+json')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('cache-control')).toBe('public, max-age=300')
      expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/)
    }
    const text = await api.text()
    expect(await wellKnown.text()).toBe(text)
    const { keys } = JSON.parse(text)
    expect(keys.map((key: { kid: string }) => key.kid)).toEqual([currentKid, previousKid])
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x'])
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig', alg: 'EdDSA' })
    }
  })

  test('If-None-Match with the ETag: 304 without a body', async () => {
    const etag = (await app.handle(request('/api/ard/jwks'))).headers.get('etag')!
    const response = await app.handle(request('/api/ard/jwks', { headers: { 'if-none-match': etag } }))
    expect(response.status).toBe(304)
    expect(await response.text()).toBe('')
    expect(response.headers.get('etag')).toBe(etag)
  })

  test('rotation: an attestation signed before the rotation still verifies with the rotated key set', async () => {
    // The deployment before the rotation: PREVIOUS was then the current key.
    const before = new Elysia().use(
      trustPlugin({ ...signed.pieces, signing: loadSigningKeys({ signingKey: PREVIOUS, signingKeysPrevious: [] }) }),
    )
    const domain = domainOf('rotated')
    await store(domain)
    const old = (await (await before.handle(request(`/api/ard/attestation/${domain}`))).json()) as SignedBody
    expect(old.kid).toBe(previousKid)
    const { x } = await keyFromJwks(old.kid, app)
    expect(verifiesWithNode(old.jws, Buffer.from(canonical(old.payload)), x)).toBe(true)
    // And after the rotation, only the new current key signs.
    const fresh = (await (await app.handle(request(`/api/ard/attestation/${domain}`))).json()) as SignedBody
    expect(fresh.kid).toBe(currentKid)
  })
})

describe('without SIGNING_KEY', () => {
  test('the attestation is an unsigned payload, also when application/jose is asked for', async () => {
    const domain = domainOf('unsigned')
    await unsigned.pieces.scans.insert(report(domain), { ephemeral: false })
    for (const accept of ['application/json', 'application/jose']) {
      const response = await unsignedApp.handle(request(`/api/ard/attestation/${domain}`, { headers: { accept } }))
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toStartWith('application/json')
      const body = await response.json()
      expect(Object.keys(body).sort()).toEqual(['payload', 'signed'])
      expect(body.signed).toBe(false)
      expect(body.payload).toMatchObject({ domain, score: 72, grade: 'B', type: 'agent-readiness-scorecard' })
    }
  })

  test('the key set is empty', async () => {
    for (const path of ['/api/ard/jwks', '/.well-known/jwks.json']) {
      const response = await unsignedApp.handle(request(path))
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ keys: [] })
    }
  })
})

// The docs plugin leaves out every path with a dot (`exclude.staticFile`), so the /.well-known aliases are not listed.
test('the routes are described in a valid OpenAPI document', async () => {
  const documented = new Elysia()
    .use(docsPlugin(signed.pieces.config, signed.pieces.errors))
    .use(trustPlugin(signed.pieces))
  const document = await (await documented.handle(request('/openapi.json'))).json()
  await SwaggerParser.validate(structuredClone(document))
  const attestation = document.paths['/api/ard/attestation/{domain}'].get
  expect(Object.keys(attestation.responses).sort()).toEqual(['200', '304', '400', '404', '413', '429', '500'])
  expect(Object.keys(attestation.responses['200'].content).sort()).toEqual(['application/jose', 'application/json'])
  expect(
    attestation.responses['200'].content['application/json'].schema.oneOf ??
      attestation.responses['200'].content['application/json'].schema.anyOf,
  ).toHaveLength(2)
  expect(document.paths['/api/ard/jwks'].get.responses['200'].content['application/jwk-set+json']).toBeDefined()
})
