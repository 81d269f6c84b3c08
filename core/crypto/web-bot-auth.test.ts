import { describe, expect, test } from 'bun:test'
import { createHash, createPublicKey, verify } from 'node:crypto'
import { parseDictionary } from 'structured-headers'
import { signMessage, signatureFields } from './http-signatures.ts'
import { generateSigningKeyJwk, loadSigningKeys, type SigningKey } from './signing.ts'
import { createRequestSigner, signDirectoryResponse } from './web-bot-auth.ts'

/**
 * Our signatures are checked with an independent verifier: the RFC 9421 signature base is written out by
 * hand here, and node:crypto verifies. The published vectors of docs/checks.md §12.4/§12.5 are reproduced
 * byte for byte (Ed25519 is deterministic).
 */

const TEST_KEY_JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
}
const KID = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'
const testKey: SigningKey = loadSigningKeys({ signingKey: JSON.stringify(TEST_KEY_JWK), signingKeysPrevious: [] })
  .current!
const CREATED = 1735689600
const FAR_EXPIRY = 4889289600

function verifies(base: string, signatureBase64: string, x = TEST_KEY_JWK.x): boolean {
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })
  return verify(null, Buffer.from(base, 'utf8'), publicKey, Buffer.from(signatureBase64, 'base64'))
}

/** `label=:base64:` → base64, for a Signature field holding exactly one member. */
function signatureOf(field: string, label: string): string {
  const match = new RegExp(`^${label}=:([A-Za-z0-9+/=]+):$`).exec(field)
  if (!match) throw new Error(`no single ${label} signature in ${field}`)
  return match[1]!
}

function inputOf(field: string, label: string): string {
  expect(field.startsWith(`${label}=`)).toBe(true)
  return field.slice(label.length + 1)
}

describe('published vectors (docs/checks.md §12.4, §12.5)', () => {
  test('§12.4 example request: exact signature', () => {
    const params =
      '("@authority" "@method" "@path" "signature-agent";key="sig1");created=1735689600;expires=1735693200;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";tag="web-bot-auth"'
    const base = [
      '"@authority": fixture.test:8443',
      '"@method": GET',
      '"@path": /robots.txt',
      '"signature-agent";key="sig1": "https://scanner.example"',
      `"@signature-params": ${params}`,
    ].join('\n')
    const published = 'WmhMWCGzTxsmqSOZsgPgfG72MO/xu+yTeAyGnXSXLdwcPorqIN/lrTrp520ML7cL9aAxbKT+Z8vsB0iol7eMDw=='
    expect(verifies(base, published)).toBe(true)

    const ours = signMessage(
      [
        { name: '@authority', value: 'fixture.test:8443' },
        { name: '@method', value: 'GET' },
        { name: '@path', value: '/robots.txt' },
        { name: 'signature-agent', params: { key: 'sig1' }, value: '"https://scanner.example"' },
      ],
      [
        ['created', CREATED],
        ['expires', 1735693200],
        ['keyid', KID],
        ['alg', 'ed25519'],
        ['tag', 'web-bot-auth'],
      ],
      testKey.sign,
    )
    expect(ours.base).toBe(base)
    expect(signatureFields([['sig1', ours]])).toEqual({
      'Signature-Input': `sig1=${params}`,
      Signature: `sig1=:${published}:`,
    })
  })

  test('vector A (dictionary Signature-Agent): exact signature, verified independently', () => {
    const nonce = 'n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA=='
    const params = `("@authority" "signature-agent";key="agent2");created=1735689600;keyid="${KID}";alg="ed25519";expires=4889289600;nonce="${nonce}";tag="web-bot-auth"`
    const base = [
      '"@authority": example.com',
      '"signature-agent";key="agent2": "https://signature-agent.test"',
      `"@signature-params": ${params}`,
    ].join('\n')
    const published = 'RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg=='
    expect(verifies(base, published)).toBe(true)
    expect(verifies(base.replace('example.com', 'example.org'), published)).toBe(false)

    const ours = signMessage(
      [
        { name: '@authority', value: 'example.com' },
        { name: 'signature-agent', params: { key: 'agent2' }, value: '"https://signature-agent.test"' },
      ],
      [
        ['created', CREATED],
        ['keyid', KID],
        ['alg', 'ed25519'],
        ['expires', FAR_EXPIRY],
        ['nonce', nonce],
        ['tag', 'web-bot-auth'],
      ],
      testKey.sign,
    )
    expect(ours.base).toBe(base)
    expect(signatureFields([['sig2', ours]])).toEqual({
      'Signature-Input': `sig2=${params}`,
      Signature: `sig2=:${published}:`,
    })
  })

  test('vectors B and C (authority only; legacy string Signature-Agent): exact signatures', () => {
    const b = signMessage(
      [{ name: '@authority', value: 'example.com' }],
      [
        ['created', CREATED],
        ['keyid', KID],
        ['alg', 'ed25519'],
        ['expires', FAR_EXPIRY],
        ['nonce', 'zIW8+cdmA3vdYagbxojpONwa/l0EKJ/O3/wD486VvsQjO/RxPaSt6ZxvQaMcQzNnqKN/mQ6hpGiFro2L2qkz5A=='],
        ['tag', 'web-bot-auth'],
      ],
      testKey.sign,
    )
    expect(Buffer.from(b.signature).toString('base64')).toBe(
      'QKN4fTdIYfh82fvoZCQiQA1weuozfCS/Led2zTMbewMMqH8PI2Wsy/5c4ao6B6D09nraNQdBNOADg8aM1MqfCg==',
    )
    const c = signMessage(
      [
        { name: '@authority', value: 'example.com' },
        { name: 'signature-agent', value: '"https://signature-agent.test"' },
      ],
      [
        ['created', CREATED],
        ['keyid', KID],
        ['alg', 'ed25519'],
        ['expires', 1735693200],
        ['nonce', 'e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg=='],
        ['tag', 'web-bot-auth'],
      ],
      testKey.sign,
    )
    expect(Buffer.from(c.signature).toString('base64')).toBe(
      'jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==',
    )
  })

  test('vector D (signed directory response): exact Content-Digest and signature', () => {
    const body = `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"${KID}","x":"${TEST_KEY_JWK.x}","use":"sig"}]}`
    const digest = 'sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:'
    expect(`sha-256=:${createHash('sha256').update(body).digest('base64')}:`).toBe(digest)
    const params = `("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="${KID}";tag="http-message-signatures-directory"`
    const base = [
      '"@authority";req: signature-agent.test',
      `"content-digest": ${digest}`,
      `"@signature-params": ${params}`,
    ].join('\n')
    const published = 'l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg=='
    expect(verifies(base, published)).toBe(true)

    const headers = signDirectoryResponse(
      [testKey],
      { authority: 'signature-agent.test', body },
      { now: () => CREATED * 1000, lifetimeSeconds: FAR_EXPIRY - CREATED },
    )
    expect(headers).toEqual({
      'Content-Digest': digest,
      'Signature-Input': `binding0=${params}`,
      Signature: `binding0=:${published}:`,
    })
  })
})

describe('createRequestSigner', () => {
  const DIRECTORY = 'https://agent-readiness.example/.well-known/http-message-signatures-directory'
  const NONCE = Buffer.alloc(64, 7).toString('base64')

  test('signs per §12.1 and an independent verifier accepts it', () => {
    const signer = createRequestSigner(testKey, DIRECTORY, { now: () => CREATED * 1000 + 999, nonce: () => NONCE })
    const headers = signer.sign({ method: 'get', url: 'https://Shop.Example:8443/a/b%20c?q=1#frag' })
    const params = `("@authority" "@method" "@path" "signature-agent";key="sig1");created=${CREATED};expires=${CREATED + 300};keyid="${KID}";alg="ed25519";nonce="${NONCE}";tag="web-bot-auth"`
    expect(headers['Signature-Agent']).toBe('sig1="https://agent-readiness.example"')
    expect(headers['Signature-Input']).toBe(`sig1=${params}`)
    expect(Object.keys(headers).sort()).toEqual(['Signature', 'Signature-Agent', 'Signature-Input'])
    const base = [
      '"@authority": shop.example:8443',
      '"@method": GET',
      '"@path": /a/b%20c',
      '"signature-agent";key="sig1": "https://agent-readiness.example"',
      `"@signature-params": ${params}`,
    ].join('\n')
    const signature = signatureOf(headers.Signature!, 'sig1')
    expect(verifies(base, signature)).toBe(true)
    // The signature is bound to the request: another path, method or agent does not verify.
    expect(verifies(base.replace('/a/b%20c', '/a/other'), signature)).toBe(false)
    expect(verifies(base.replace('GET', 'POST'), signature)).toBe(false)
    expect(verifies(base.replace('"https://agent-readiness.example"', '"https://evil.example"'), signature)).toBe(false)
  })

  test('the default port is not part of @authority, and an empty path is /', () => {
    const signer = createRequestSigner(testKey, DIRECTORY, { now: () => CREATED * 1000, nonce: () => NONCE })
    const headers = signer.sign({ method: 'HEAD', url: 'https://shop.example:443' })
    const base = [
      '"@authority": shop.example',
      '"@method": HEAD',
      '"@path": /',
      '"signature-agent";key="sig1": "https://agent-readiness.example"',
      `"@signature-params": ${inputOf(headers['Signature-Input']!, 'sig1')}`,
    ].join('\n')
    expect(verifies(base, signatureOf(headers.Signature!, 'sig1'))).toBe(true)
  })

  test('defaults: created is now, expires 300 s later, a fresh 64-byte nonce each time, keyid = thumbprint', () => {
    const signer = createRequestSigner(testKey, 'http://localhost:3000')
    const before = Math.floor(Date.now() / 1000)
    const first = signer.sign({ method: 'GET', url: 'https://a.example/' })
    const second = signer.sign({ method: 'GET', url: 'https://a.example/' })
    expect(first['Signature-Agent']).toBe('sig1="http://localhost:3000"')
    const [components, params] = parseDictionary(first['Signature-Input']!).get('sig1') as [
      unknown[],
      Map<string, unknown>,
    ]
    expect(components).toHaveLength(4)
    const created = params.get('created') as number
    expect(created).toBeGreaterThanOrEqual(before)
    expect(created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
    expect(params.get('expires')).toBe(created + 300)
    expect(params.get('keyid')).toBe(KID)
    expect(params.get('alg')).toBe('ed25519')
    expect(params.get('tag')).toBe('web-bot-auth')
    expect(Buffer.from(params.get('nonce') as string, 'base64')).toHaveLength(64)
    const secondNonce = (
      parseDictionary(second['Signature-Input']!).get('sig1') as [unknown, Map<string, unknown>]
    )[1].get('nonce')
    expect(secondNonce).not.toBe(params.get('nonce'))
  })

  test('a request body gets a Content-Digest, and the signature covers it', () => {
    const signer = createRequestSigner(testKey, DIRECTORY, { now: () => CREATED * 1000, nonce: () => NONCE })
    const body = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"initialize"}')
    const headers = signer.sign({ method: 'POST', url: 'https://mcp.example/mcp', body })
    const digest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`
    expect(headers['Content-Digest']).toBe(digest)
    const params = inputOf(headers['Signature-Input']!, 'sig1')
    expect(params).toStartWith('("@authority" "@method" "@path" "signature-agent";key="sig1" "content-digest");')
    const base = [
      '"@authority": mcp.example',
      '"@method": POST',
      '"@path": /mcp',
      '"signature-agent";key="sig1": "https://agent-readiness.example"',
      `"content-digest": ${digest}`,
      `"@signature-params": ${params}`,
    ].join('\n')
    expect(verifies(base, signatureOf(headers.Signature!, 'sig1'))).toBe(true)
  })
})

describe('signDirectoryResponse', () => {
  test('one signature per key, labelled binding0, binding1…, each verifiable', () => {
    const other = loadSigningKeys({ signingKey: generateSigningKeyJwk(), signingKeysPrevious: [] }).current!
    const body = JSON.stringify({ keys: [testKey.publicJwk, other.publicJwk] })
    const headers = signDirectoryResponse([testKey, other], {
      authority: 'Agent-Readiness.Example',
      body: new TextEncoder().encode(body),
    })
    const digest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`
    expect(headers['Content-Digest']).toBe(digest)
    const inputs = parseDictionary(headers['Signature-Input']!)
    const signatures = parseDictionary(headers.Signature!)
    expect([...inputs.keys()]).toEqual(['binding0', 'binding1'])
    for (const [index, key] of [testKey, other].entries()) {
      const label = `binding${index}`
      const params = (inputs.get(label) as [unknown, Map<string, unknown>])[1]
      expect(params.get('keyid')).toBe(key.kid)
      expect(params.get('tag')).toBe('http-message-signatures-directory')
      expect((params.get('expires') as number) - (params.get('created') as number)).toBe(86_400)
      const serializedParams = /(?:^|, )binding\d=(\([^)]*\)[^,]*)/g
      const input = [...headers['Signature-Input']!.matchAll(serializedParams)][index]![1]!
      const base = [
        '"@authority";req: agent-readiness.example',
        `"content-digest": ${digest}`,
        `"@signature-params": ${input}`,
      ].join('\n')
      const signature = Buffer.from((signatures.get(label) as [ArrayBuffer, unknown])[0]).toString('base64')
      expect(verifies(base, signature, key.publicJwk.x)).toBe(true)
    }
  })

  test('without keys only the Content-Digest is sent', () => {
    expect(signDirectoryResponse([], { authority: 'a.example', body: '{"keys":[]}' })).toEqual({
      'Content-Digest': `sha-256=:${createHash('sha256').update('{"keys":[]}').digest('base64')}:`,
    })
  })
})
