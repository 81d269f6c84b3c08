import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, createPublicKey, verify } from 'node:crypto'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Elysia } from 'elysia'
import { type InnerList, type Item, parseDictionary } from 'structured-headers'
import directoryCheck from '../../checks/domain/web-bot-auth-directory.ts'
import type { AppHandle } from '../../app/app.ts'
import { generateSigningKeyJwk } from '../../core/crypto/signing.ts'
import { featureConfigs } from '../../core/feature.ts'
import { siteHandler } from '../../tests/fixtures/sites/server.ts'
import { context, snapshot } from '../../tests/support/artifacts.ts'
import { type RecordedRequest, recordingSite } from '../../tests/support/collector.ts'
import { request, testApp } from '../../tests/helpers.ts'
import { clientIp, startWorld, type World } from '../../tests/support/world.ts'
import { docsPlugin } from '../docs/public.ts'
import type { WebBotAuthConfig } from './config.ts'
import { webBotAuthFeature, webBotAuthPlugin } from './index.ts'

/**
 * The acceptance test of issue 6: requests our scanner really sends, captured by a fixture site, verify against the
 * directory the same instance serves. The verifier here is independent of the signer: it resolves Signature-Agent
 * to the directory, picks the key by `keyid`, writes the RFC 9421 signature base out by hand from the received
 * headers, and node:crypto checks the Ed25519 signature.
 */

const CURRENT = generateSigningKeyJwk()
const PREVIOUS = generateSigningKeyJwk()
const currentKid = JSON.parse(CURRENT).kid as string
const previousKid = JSON.parse(PREVIOUS).kid as string
const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory'
const RECORDER_HOST = 'recorder.test'

interface DirectoryBody {
  client_name: string
  homepage_uri: string
  contact_email: string
  purpose: string
  keys: { kty: string; crv: string; kid: string; x: string; use: string }[]
  [member: string]: unknown
}

// The blog fixture site, served under its own name, remembering every request it receives.
const recorder = recordingSite({ otherwise: siteHandler('blog', RECORDER_HOST) })
const recorded = recorder.requests
let world: World
let unsigned: AppHandle

beforeAll(async () => {
  world = await startWorld([], {
    browser: null,
    env: { SIGNING_KEY: CURRENT, SIGNING_KEYS_PREVIOUS: PREVIOUS },
    extraResolve: [`${RECORDER_HOST}:443:127.0.0.1:${new URL(recorder.origin).port}`],
  })
  unsigned = await testApp()
}, 60_000)
afterAll(() => Promise.all([world.close(), unsigned.close()]))

/** The `config` piece the composition gives this feature: the kernel's with the directory's contact address. */
const featureConfig = (handle: AppHandle) =>
  featureConfigs(handle.pieces.config, [webBotAuthFeature]).get(webBotAuthFeature.name) as WebBotAuthConfig
const directoryPlugin = (handle: AppHandle) => webBotAuthPlugin({ ...handle.pieces, config: featureConfig(handle) })
const directoryApp = (handle: AppHandle) => new Elysia().use(directoryPlugin(handle))

async function fetchDirectory(handle: AppHandle, url = `http://localhost:3000${DIRECTORY_PATH}`) {
  const response = await directoryApp(handle).handle(new Request(url))
  const bytes = new Uint8Array(await response.arrayBuffer())
  return { response, bytes, body: JSON.parse(new TextDecoder().decode(bytes)) as DirectoryBody }
}

function ed25519(x: string) {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })
}

/** The one member of a Dictionary field, with the raw text of its value (what `@signature-params` repeats). */
function soleMember(field: string): { label: string; raw: string; value: Item | InnerList } {
  const members = [...parseDictionary(field)]
  expect(members).toHaveLength(1)
  const [label, value] = members[0]!
  expect(field.startsWith(`${label}=`)).toBe(true)
  return { label, raw: field.slice(label.length + 1), value }
}

/** Serializes a component identifier's parameters the way RFC 8941 writes the ones we meet (`;key="x"`, `;req`). */
function componentParams(params: Map<string, unknown>): string {
  return [...params].map(([name, value]) => (value === true ? `;${name}` : `;${name}="${String(value)}"`)).join('')
}

/**
 * Verifies the Web Bot Auth signature of a received request against a directory: returns the signature
 * parameters. Throws when a piece is missing; returns `verified: false` when the signature does not match.
 */
function verifyRequest(
  received: RecordedRequest,
  directory: DirectoryBody,
  tamper: (base: string) => string = (base) => base,
) {
  const { label, raw, value } = soleMember(received.headers.get('signature-input')!)
  const [components, params] = value as InnerList
  const agents = parseDictionary(received.headers.get('signature-agent')!)
  const lines = components.map(([name, componentParameters]) => {
    let componentValue: string
    switch (name) {
      case '@authority':
        componentValue = received.headers.get('host')!.toLowerCase()
        break
      case '@method':
        componentValue = received.method.toUpperCase()
        break
      case '@path':
        componentValue = received.path
        break
      case 'signature-agent': {
        const member = agents.get(componentParameters.get('key') as string) as Item
        expect(String(member[0])).not.toMatch(/["\\]/)
        componentValue = `"${String(member[0])}"`
        break
      }
      default:
        componentValue = received.headers.get(String(name))!
    }
    expect(componentValue).toBeDefined()
    return `"${String(name)}"${componentParams(componentParameters)}: ${componentValue}`
  })
  const base = tamper([...lines, `"@signature-params": ${raw}`].join('\n'))
  const key = directory.keys.find((candidate) => candidate.kid === params.get('keyid'))
  if (!key) throw new Error(`keyid ${String(params.get('keyid'))} is not in the directory`)
  const signature = parseDictionary(received.headers.get('signature')!).get(label) as Item
  const verified = verify(null, Buffer.from(base, 'utf8'), ed25519(key.x), Buffer.from(signature[0] as ArrayBuffer))
  return { verified, params, components: components.map(([name]) => String(name)) }
}

describe("the scanner's signed requests verify against the directory the same instance serves", () => {
  test('every signed request of a real scan', async () => {
    const scan = await world.handle.app.handle(
      request('/api/scan', {
        method: 'POST',
        json: { url: RECORDER_HOST, force: true },
        headers: { 'x-forwarded-for': clientIp() },
      }),
    )
    expect(scan.status).toBe(200)
    const signed = recorded.filter((entry) => entry.headers.has('signature'))
    expect(signed.length).toBeGreaterThanOrEqual(5)

    const directories = new Map<string, DirectoryBody>()
    const now = Math.floor(Date.now() / 1000)
    for (const entry of signed) {
      // Signature-Agent names the origin whose well-known directory holds the key.
      const agent = soleMember(entry.headers.get('signature-agent')!)
      const origin = String((agent.value as Item)[0])
      expect(origin).toBe(world.handle.pieces.config.publicBaseUrl)
      if (!directories.has(origin))
        directories.set(origin, (await fetchDirectory(world.handle, `${origin}${DIRECTORY_PATH}`)).body)
      const directory = directories.get(origin)!

      const { verified, params, components } = verifyRequest(entry, directory)
      expect(verified).toBe(true)
      expect(params.get('keyid')).toBe(currentKid)
      expect(params.get('tag')).toBe('web-bot-auth')
      expect(components.slice(0, 4)).toEqual(['@authority', '@method', '@path', 'signature-agent'])
      expect(entry.headers.get('host')).toBe(RECORDER_HOST)
      const created = params.get('created') as number
      expect(created).toBeLessThanOrEqual(now + 1)
      expect(params.get('expires') as number).toBeGreaterThan(now)
      // The verifier is not a rubber stamp: another path or method does not verify.
      expect(
        verifyRequest(entry, directory, (base) => base.replace(`"@path": ${entry.path}`, '"@path": /elsewhere'))
          .verified,
      ).toBe(false)
      expect(
        verifyRequest(entry, directory, (base) => base.replace(/"@method": \w+/, '"@method": DELETE')).verified,
      ).toBe(false)
    }
    expect(new Set(signed.map((entry) => entry.path)).size).toBeGreaterThan(3)
  }, 60_000)

  test('a request with a body: its Content-Digest matches the bytes received and is covered', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"initialize"}'
    await world.handle.pieces.outbound.request(`https://${RECORDER_HOST}/mcp`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    })
    const [entry] = recorded
    expect(entry).toBeDefined()
    expect(entry!.body).toBe(body)
    expect(entry!.headers.get('content-digest')).toBe(
      `sha-256=:${createHash('sha256').update(entry!.body).digest('base64')}:`,
    )
    const { body: directory } = await fetchDirectory(world.handle)
    const { verified, components } = verifyRequest(entry!, directory)
    expect(verified).toBe(true)
    expect(components).toContain('content-digest')
    expect(
      verifyRequest(entry!, directory, (base) =>
        base.replace(/"content-digest": .*/, '"content-digest": sha-256=:AAAA:'),
      ).verified,
    ).toBe(false)
  })
})

describe('GET /.well-known/http-message-signatures-directory (signed)', () => {
  test('the response signature verifies: Content-Digest of the exact bytes, key from the directory itself', async () => {
    const { response, bytes, body } = await fetchDirectory(world.handle)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-digest')).toBe(
      `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`,
    )

    const { label, raw, value } = soleMember(response.headers.get('signature-input')!)
    expect(label).toBe('binding0')
    const [components, params] = value as InnerList
    expect(
      components.map(([name, componentParameters]) => `${String(name)}${componentParams(componentParameters)}`),
    ).toEqual(['@authority;req', 'content-digest'])
    expect(params.get('tag')).toBe('http-message-signatures-directory')
    expect(params.get('keyid')).toBe(currentKid)
    const created = params.get('created') as number
    expect(created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
    expect((params.get('expires') as number) - created).toBe(86_400)

    const baseFor = (authority: string) =>
      [
        `"@authority";req: ${authority}`,
        `"content-digest": ${response.headers.get('content-digest')}`,
        `"@signature-params": ${raw}`,
      ].join('\n')
    const key = body.keys.find((candidate) => candidate.kid === params.get('keyid'))!
    const signature = Buffer.from(
      (parseDictionary(response.headers.get('signature')!).get(label) as Item)[0] as ArrayBuffer,
    )
    expect(verify(null, Buffer.from(baseFor('localhost:3000')), ed25519(key.x), signature)).toBe(true)
    expect(verify(null, Buffer.from(baseFor('evil.example')), ed25519(key.x), signature)).toBe(false)
  })

  test('the signed authority is the public one, whatever Host the request names', async () => {
    const { response, body } = await fetchDirectory(world.handle, `http://evil.example${DIRECTORY_PATH}`)
    const { raw } = soleMember(response.headers.get('signature-input')!)
    const base = [
      '"@authority";req: localhost:3000',
      `"content-digest": ${response.headers.get('content-digest')}`,
      `"@signature-params": ${raw}`,
    ].join('\n')
    const signature = Buffer.from(
      (parseDictionary(response.headers.get('signature')!).get('binding0') as Item)[0] as ArrayBuffer,
    )
    expect(verify(null, Buffer.from(base), ed25519(body.keys[0]!.x), signature)).toBe(true)
  })

  test('our own web-bot-auth-directory check passes it, proof of possession verified', async () => {
    const url = `http://localhost:3000${DIRECTORY_PATH}`
    const { response, bytes } = await fetchDirectory(world.handle, url)
    const wbaDirectory = snapshot({
      url,
      headers: Object.fromEntries(response.headers),
      body: new TextDecoder().decode(bytes),
    })
    const outcome = directoryCheck.run({ wbaDirectory }, context)
    expect(outcome.status).toBe('pass')
    expect(outcome.details).toContain('binding0 verified')
  })

  test('body: the interface names, the Signature Agent Card names, keys with kid = thumbprint and no alg or d', async () => {
    const { body } = await fetchDirectory(world.handle)
    const config = featureConfig(world.handle)
    expect(body).toMatchObject({
      client_name: 'agent-readiness',
      homepage_uri: config.publicBaseUrl,
      contact_email: config.contactEmail,
      purpose: expect.stringContaining('AI agents'),
      client_uri: config.publicBaseUrl,
      contacts: [config.contactEmail],
      web_bot_auth: { trigger: 'fetcher' },
    })
    for (const key of body.keys) {
      expect(Object.keys(key)).toEqual(['kty', 'crv', 'kid', 'x', 'use'])
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig' })
      // RFC 7638 / RFC 8037 §A.3, computed here independently.
      expect(key.kid).toBe(
        createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${key.x}"}`).digest('base64url'),
      )
    }
  })

  test('rotation: both keys are published, only the current key signs', async () => {
    const { response, body } = await fetchDirectory(world.handle)
    expect(body.keys.map((key) => key.kid)).toEqual([currentKid, previousKid])
    expect([...parseDictionary(response.headers.get('signature-input')!).keys()]).toEqual(['binding0'])
    expect([...parseDictionary(response.headers.get('signature')!).keys()]).toEqual(['binding0'])
    expect(response.headers.get('signature-input')).toContain(`keyid="${currentKid}"`)
    expect(response.headers.get('signature-input')).not.toContain(previousKid)
  })

  test('media type, caching, CORS, ETag; both paths serve the same bytes', async () => {
    const api = await fetchDirectory(world.handle, 'http://localhost:3000/api/web-bot-auth/directory')
    const wellKnown = await fetchDirectory(world.handle)
    expect(new TextDecoder().decode(api.bytes)).toBe(new TextDecoder().decode(wellKnown.bytes))
    for (const { response } of [api, wellKnown]) {
      expect(response.headers.get('content-type')).toBe('application/http-message-signatures-directory+json')
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-expose-headers')).toBe('Content-Digest, Signature, Signature-Input')
    }
    const etag = wellKnown.response.headers.get('etag')!
    expect(api.response.headers.get('etag')).toBe(etag)
    const notModified = await directoryApp(world.handle).handle(
      request(DIRECTORY_PATH, { headers: { 'if-none-match': etag } }),
    )
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')
  })
})

describe('without SIGNING_KEY', () => {
  test('the directory has no keys and no signature; outbound requests are not signed', async () => {
    const { response, body } = await fetchDirectory(unsigned)
    expect(response.status).toBe(200)
    expect(body.keys).toEqual([])
    expect(response.headers.get('signature')).toBeNull()
    expect(response.headers.get('signature-input')).toBeNull()
    expect(response.headers.get('content-type')).toBe('application/http-message-signatures-directory+json')

    recorded.length = 0
    expect(unsigned.pieces.outbound.signs).toBe(false)
    await unsigned.pieces.outbound.request(`${recorder.origin}/robots.txt`)
    expect(recorded).toHaveLength(1)
    for (const header of ['signature', 'signature-input', 'signature-agent'])
      expect(recorded[0]!.headers.has(header)).toBe(false)
  })
})

// The docs plugin leaves out every path with a dot (`exclude.staticFile`), so the /.well-known alias is not listed.
test('the routes are described in a valid OpenAPI document', async () => {
  const documented = new Elysia()
    .use(docsPlugin(world.handle.pieces.config, world.handle.pieces.errors))
    .use(directoryPlugin(world.handle))
  const document = await (await documented.handle(request('/openapi.json'))).json()
  await SwaggerParser.validate(structuredClone(document))
  const directory = document.paths['/api/web-bot-auth/directory'].get.responses['200']
  expect(directory.content['application/http-message-signatures-directory+json'].schema.properties.keys).toBeDefined()
})
